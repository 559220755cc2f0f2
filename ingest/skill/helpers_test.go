package skill

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// want is one expected finding.
type want struct {
	Code string
	Sev  record.Severity
	Line int
}

// E, W are shorthands for error and warning findings.
func E(code string, line int) want { return want{code, record.Error, line} }
func W(code string, line int) want { return want{code, record.Warning, line} }

// checkFindings asserts the findings of f are exactly ws (any order), all on
// f.Path.
func checkFindings(t *testing.T, f record.File, ws ...want) {
	t.Helper()
	var got, exp []string
	for _, fi := range f.Findings {
		got = append(got, fmt.Sprintf("%s/%s/%d", fi.Code, fi.Severity, fi.Line))
		if fi.File != f.Path {
			t.Errorf("finding %s has File %q, want %q", fi.Code, fi.File, f.Path)
		}
		if fi.Message == "" {
			t.Errorf("finding %s has no message", fi.Code)
		}
	}
	for _, w := range ws {
		exp = append(exp, fmt.Sprintf("%s/%s/%d", w.Code, w.Sev, w.Line))
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		var msgs []string
		for _, fi := range f.Findings {
			msgs = append(msgs, fmt.Sprintf("  %s:%d %s %s", fi.Code, fi.Line, fi.Severity, fi.Message))
		}
		t.Errorf("findings\n got %v\nwant %v\n%s", got, exp, strings.Join(msgs, "\n"))
	}
}

// md joins lines with newlines (and a final newline).
func md(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// only returns the single skill of f, failing otherwise.
func only(t *testing.T, f record.File) record.Skill {
	t.Helper()
	if len(f.Skills) != 1 || len(f.ToolSkills) != 0 {
		t.Fatalf("want 1 skill, got %d skills %d tool skills", len(f.Skills), len(f.ToolSkills))
	}
	return f.Skills[0]
}

// onlyTS returns the single tool skill of f, failing otherwise.
func onlyTS(t *testing.T, f record.File) record.ToolSkill {
	t.Helper()
	if len(f.ToolSkills) != 1 || len(f.Skills) != 0 {
		t.Fatalf("want 1 tool skill, got %d skills %d tool skills", len(f.Skills), len(f.ToolSkills))
	}
	return f.ToolSkills[0]
}
