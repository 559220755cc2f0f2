package api_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// TestToolSkillRegistry: toolSkills is the registry (sorted keys, trigger,
// phases, required, summary and its bytes, guides, gates, findings) and
// toolSkillCatalogue the per-phase preview: the phase's matching skills by
// key, the required marker outside review, and the bytes of every line
// (issue 23.10).
func TestToolSkillRegistry(t *testing.T) {
	ctx := context.Background()
	snap := querytest.Build(t, "../examples/harness")
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	res := schema.Execute(ctx, snap, api.Request{Query: `{
  toolSkills { key trigger phases required summary summaryBytes matches guides { id } gates { id } findings { code line } }
  plan: toolSkillCatalogue(phase: "plan") { phase bytes entries { key line bytes marked } }
  review: toolSkillCatalogue(phase: "review") { bytes entries { key line bytes marked } } }`}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	b, _ := json.Marshal(res.Data)
	type entry struct {
		Key, Line string
		Bytes     int
		Marked    bool
	}
	var d struct {
		ToolSkills []struct {
			Key, Trigger, Summary string
			Phases                []string
			Required, Matches     bool
			SummaryBytes          int
			Guides, Gates         []struct{ ID string }
			Findings              []struct {
				Code string
				Line int
			}
		}
		Plan, Review struct {
			Phase   string
			Bytes   int
			Entries []entry
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.ToolSkills) < 2 {
		t.Fatalf("toolSkills %+v", d.ToolSkills)
	}
	var keys []string
	byKey := map[string]int{}
	for i, ts := range d.ToolSkills {
		keys = append(keys, ts.Key)
		byKey[ts.Key] = i
		if ts.SummaryBytes != len(ts.Summary) || ts.Trigger == "" || !json.Valid([]byte(ts.Trigger)) {
			t.Errorf("%s: summaryBytes %d for %q, trigger %q", ts.Key, ts.SummaryBytes, ts.Summary, ts.Trigger)
		}
		if gates := len(ts.Gates) > 0; gates && (!ts.Required || !ts.Matches) {
			t.Errorf("%s gates %v but required %v matches %v", ts.Key, ts.Gates, ts.Required, ts.Matches)
		}
	}
	if !slices.IsSorted(keys) {
		t.Errorf("toolSkills not sorted by key: %v", keys)
	}
	// legacy-wiki's only leaf names nothing: inert, at the leaf's line.
	if lw, ok := byKey["legacy-wiki"]; !ok || d.ToolSkills[lw].Matches || !slices.ContainsFunc(d.ToolSkills[lw].Findings, func(f struct {
		Code string
		Line int
	}) bool {
		return f.Code == "trigger-inert" && f.Line == 4
	}) {
		t.Errorf("legacy-wiki: %+v", d.ToolSkills)
	}
	for _, c := range []struct {
		name  string
		phase string
		cat   []entry
		bytes int
	}{{"plan", "plan", d.Plan.Entries, d.Plan.Bytes}, {"review", "review", d.Review.Entries, d.Review.Bytes}} {
		sum := 0
		var ks []string
		for _, e := range c.cat {
			ks = append(ks, e.Key)
			sum += e.Bytes
			ts := d.ToolSkills[byKey[e.Key]]
			if !ts.Matches || !slices.Contains(ts.Phases, c.phase) {
				t.Errorf("%s catalogues %s (phases %v, matches %v)", c.name, e.Key, ts.Phases, ts.Matches)
			}
			wantMark := ts.Required && c.phase != "review"
			if e.Marked != wantMark || strings.HasSuffix(e.Line, "(required — load before use)") != wantMark ||
				!strings.HasPrefix(e.Line, "- "+e.Key+": "+ts.Summary) || e.Bytes != len(e.Line)+1 {
				t.Errorf("%s entry %+v (required %v)", c.name, e, ts.Required)
			}
		}
		if !slices.IsSorted(ks) || sum != c.bytes {
			t.Errorf("%s catalogue keys %v bytes %d (sum %d)", c.name, ks, c.bytes, sum)
		}
		for _, ts := range d.ToolSkills {
			if ts.Matches && slices.Contains(ts.Phases, c.phase) && !slices.Contains(ks, ts.Key) {
				t.Errorf("%s does not catalogue %s", c.name, ts.Key)
			}
		}
	}
	if len(d.Plan.Entries) == 0 || d.Plan.Phase != "plan" {
		t.Errorf("plan catalogue %+v", d.Plan)
	}
	bad := schema.Execute(ctx, snap, api.Request{Query: `{ toolSkillCatalogue(phase: "lunch") { bytes } }`}, api.DefaultLimits())
	if len(bad.Errors) == 0 || !strings.Contains(bad.Errors[0].Message, "not one of plan") {
		t.Errorf("unknown phase: %+v", bad.Errors)
	}
}
