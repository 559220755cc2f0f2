package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// TestBrowserToolSkillsView: #/tool-skills lists every tool skill the API
// answers, in key order, with its summary's per-turn bytes, and each
// phase's catalogue as toolSkillCatalogue previews it: its lines, the
// required marker and its bytes (issue 23.10).
func TestBrowserToolSkillsView(t *testing.T) {
	s := newSite(t, servertest.CopyTree(t, "../examples/harness"))
	var r struct {
		ToolSkills []struct {
			Key          string `json:"key"`
			SummaryBytes int    `json:"summaryBytes"`
		} `json:"toolSkills"`
		Plan struct {
			Bytes   int `json:"bytes"`
			Entries []struct {
				Key  string `json:"key"`
				Line string `json:"line"`
			} `json:"entries"`
		} `json:"plan"`
	}
	s.query(t, `{ toolSkills { key summaryBytes } plan: toolSkillCatalogue(phase: "plan") { bytes entries { key line } } }`, nil, &r)
	if len(r.ToolSkills) < 2 || len(r.Plan.Entries) == 0 {
		t.Fatalf("fixture: %+v", r)
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open tool skills", chromedp.Navigate(s.srv.URL+"/#/tool-skills"), chromedp.WaitVisible(chromedp.CSS(`#tool-skills-table`)))
	var keys []string
	for _, ts := range r.ToolSkills {
		keys = append(keys, ts.Key)
		if got := attrs(t, ctx, fmt.Sprintf(`#tool-skills-table tr[data-key=%q] [data-bytes]`, ts.Key), "data-bytes"); len(got) != 1 || got[0] != fmt.Sprint(ts.SummaryBytes) {
			t.Errorf("%s summary bytes %v, GraphQL %d", ts.Key, got, ts.SummaryBytes)
		}
	}
	if got := attrs(t, ctx, "#tool-skills-table tbody tr", "data-key"); strings.Join(got, ",") != strings.Join(keys, ",") {
		t.Errorf("rows %v, GraphQL %v", got, keys)
	}
	var lines []string
	for _, e := range r.Plan.Entries {
		lines = append(lines, e.Line)
	}
	if got := texts(t, ctx, `[aria-labelledby="catalogue-plan"] pre.catalogue span`); strings.Join(got, "|") != strings.Join(lines, "|") {
		t.Errorf("plan catalogue %q, GraphQL %q", got, lines)
	}
	if got := attrs(t, ctx, `[aria-labelledby="catalogue-plan"] p[data-bytes]`, "data-bytes"); len(got) != 1 || got[0] != fmt.Sprint(r.Plan.Bytes) {
		t.Errorf("plan catalogue bytes %v, GraphQL %d", got, r.Plan.Bytes)
	}
}
