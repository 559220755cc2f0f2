package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestFindingsFilters: totalCount of findings under each filter is the
// number of the snapshot's findings that pass it, asked twice (the
// severity lists are kept per snapshot).
func TestFindingsFilters(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	if len(snap.Findings) == 0 {
		t.Fatal("the corpus has no findings")
	}
	first := snap.Findings[0]
	for _, round := range []string{"first", "again"} {
		for _, c := range []struct {
			args string
			want func(code, sev, file string) bool
		}{
			{"", func(string, string, string) bool { return true }},
			{"severity: ERROR", func(_, sev, _ string) bool { return sev == "error" }},
			{"severity: WARNING", func(_, sev, _ string) bool { return sev == "warning" }},
			{"severity: INFO", func(_, sev, _ string) bool { return sev == "info" }},
			{fmt.Sprintf("code: %q", first.Code), func(code, _, _ string) bool { return code == first.Code }},
			{fmt.Sprintf("severity: %s, file: %q", map[string]string{"error": "ERROR", "warning": "WARNING", "info": "INFO"}[string(first.Severity)], first.File),
				func(_, sev, file string) bool { return sev == string(first.Severity) && file == first.File }},
		} {
			want := 0
			for _, f := range snap.Findings {
				if c.want(f.Code, string(f.Severity), f.File) {
					want++
				}
			}
			q := fmt.Sprintf(`{ findings(%s first: 0) { totalCount } }`, c.args)
			res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
			if len(res.Errors) > 0 {
				t.Fatalf("%s: %v", q, res.Errors)
			}
			b, _ := json.Marshal(res.Data)
			var got struct{ Findings struct{ TotalCount int } }
			_ = json.Unmarshal(b, &got)
			if got.Findings.TotalCount != want {
				t.Errorf("%s %s: totalCount %d, want %d", round, q, got.Findings.TotalCount, want)
			}
		}
	}
}
