package web_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// trendSite serves the example corpus from a git work tree after four
// commits, each ingested: four graph versions with their tallies and
// commits in the store. It returns the site and the commits, oldest first.
func trendSite(t *testing.T) (*site, []string) {
	t.Helper()
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "harness")
	commits := []string{repo.Commit("the example", func(string) { gittest.CopyTree(t, "../examples/harness", corpus) })}
	s := newSite(t, corpus)
	edit := func(rel, old, new string) func(string) {
		return func(string) {
			p := filepath.Join(corpus, filepath.FromSlash(rel))
			data, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(data), old) {
				t.Fatalf("%s lacks %q (%v)", rel, old, err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name string
		edit func(string)
	}{
		{"remove a Tool", func(string) {
			if err := os.Remove(filepath.Join(corpus, "tools", "outline-gen.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{"break a contract", edit("tools/translation.yaml", "{name: path, type: RepoPath, required: true, arg: {flag: --page}}", "{name: page, type: RepoPath, required: true, arg: {flag: --page}}")},
		{"remove an entry point", edit("harness.json", `"tools": ["site-preview"],`, ``)},
	} {
		commits = append(commits, repo.Commit(c.name, c.edit))
		if _, err := s.svc.Ingest(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return s, commits
}

type trendAnswer struct {
	Coverage []struct {
		Version int
		Commit  string
		Value   float64
	}
	Errors   []struct{ Value float64 }
	Warnings []struct{ Value float64 }
}

// TestBrowserTrend: the overview's trend chart draws one point per
// recorded version (coverage, errors, warnings), in both themes; focusing
// or hovering a point names its version and commit; the table under it
// holds the same numbers as GraphQL's trend; axe finds nothing serious.
// The screenshots go to $SKILLGRAPH_SCREENSHOTS when set (docs/screenshots).
func TestBrowserTrend(t *testing.T) {
	s, commits := trendSite(t)
	var want trendAnswer
	s.query(t, `{ coverage: trend(metric: COVERAGE) { version commit value } errors: trend(metric: ERRORS) { value } warnings: trend(metric: WARNINGS) { value } }`, nil, &want)
	if len(want.Coverage) != len(commits) {
		t.Fatalf("GraphQL lists %d versions, want %d", len(want.Coverage), len(commits))
	}
	out := os.Getenv("SKILLGRAPH_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	for _, theme := range []string{"light", "dark"} {
		ctx := browser(t, 1280, 1400)
		setTheme(t, ctx, theme)
		run(t, ctx, "load overview", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`.trend-point`)))
		if got := attrs(t, ctx, `.trend-point`, "data-version"); len(got) != len(commits) {
			t.Fatalf("%s: %d points (%v), want %d", theme, len(got), got, len(commits))
		}
		if got := len(texts(t, ctx, `.trend-line`)); got != 3 {
			t.Errorf("%s: %d lines, want 3 (coverage, errors, warnings)", theme, got)
		}
		// The table holds GraphQL's numbers, one row per version.
		cells := eval[[][]string](t, ctx, "read table", `[...document.querySelectorAll(".trend-table tbody tr")].map(r => [...r.children].map(c => c.textContent.trim()))`)
		for i, w := range want.Coverage {
			if i >= len(cells) {
				t.Fatalf("%s: %d table rows, want %d", theme, len(cells), len(want.Coverage))
			}
			row := cells[i]
			wantRow := []string{fmt.Sprint(w.Version), commits[i][:12], fmt.Sprintf("%g%%", float64(int(w.Value*1000+0.5))/10), fmt.Sprint(want.Errors[i].Value), fmt.Sprint(want.Warnings[i].Value)}
			gotRow := []string{row[0], row[2], row[3], row[5], row[6]}
			if strings.Join(gotRow, "|") != strings.Join(wantRow, "|") {
				t.Errorf("%s: table row %d = %v, want %v", theme, i, gotRow, wantRow)
			}
		}
		// Focus names a version and its commit; so does a hover.
		// The keyboard: from version 1, Tab goes to version 2.
		run(t, ctx, "tab to version 2", chromedp.Focus(chromedp.CSS(`.trend-point[data-version="1"]`)), chromedp.KeyEvent("\t"))
		if got := firstText(t, ctx, `#trend-readout`); !strings.HasPrefix(got, "Version 2, commit "+commits[1][:12]) {
			t.Errorf("%s: focused readout %q, want version 2 and commit %s", theme, got, commits[1][:12])
		}
		eval[bool](t, ctx, "hover version 3", `document.querySelector('.trend-point[data-version="3"]').dispatchEvent(new MouseEvent("mouseenter")), true`)
		if got := firstText(t, ctx, `#trend-readout`); !strings.HasPrefix(got, "Version 3, commit "+commits[2][:12]) {
			t.Errorf("%s: hovered readout %q, want version 3 and commit %s", theme, got, commits[2][:12])
		}
		if got := attrs(t, ctx, `.trend-point.active`, "data-version"); strings.Join(got, ",") != "3" {
			t.Errorf("%s: marked points %v, want [3]", theme, got)
		}
		eval[bool](t, ctx, "open the table", `document.querySelector(".trend-numbers").open = true, true`)
		run(t, ctx, "scroll to the chart", chromedp.ScrollIntoView(chromedp.CSS(`#h-trend`)))
		shoot(t, ctx, filepath.Join(out, "trend-desktop"+map[string]string{"light": "", "dark": "-dark"}[theme]+".png"))
		noHorizontalOverflow(t, ctx, theme+" overview")
		if os.Getenv("SKILLGRAPH_NODE_MODULES") != "" || os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			axeCheck(t, ctx, axeSource(t), theme+" overview with the trend")
		}
	}
}

// TestBrowserTrendChanges: a point of the trend chart opens what changed
// in its version (click or Enter), each name linking to its skill or
// Tool; the version of the first ingest says its changes are not known;
// a skill's page says since which version it is (un)covered and
// (un)reachable, linking back. Both themes, axe clean, screenshots.
func TestBrowserTrendChanges(t *testing.T) {
	s, commits := trendSite(t)
	out := os.Getenv("SKILLGRAPH_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	// The Tool removed in version 2 leaves skills uncovered: one of them.
	var d struct {
		History struct {
			Edges []struct {
				Node struct {
					Version int
					Changes *struct {
						NewlyUncovered struct{ IDs []string }
					}
				}
			}
		}
	}
	s.query(t, `{ history { edges { node { version changes { newlyUncovered { ids } } } } } }`, nil, &d)
	if len(d.History.Edges) != len(commits) || d.History.Edges[0].Node.Changes != nil || d.History.Edges[1].Node.Changes == nil ||
		len(d.History.Edges[1].Node.Changes.NewlyUncovered.IDs) == 0 {
		t.Fatalf("history %+v: want %d versions, the first without changes, the second uncovering skills", d, len(commits))
	}
	uncovered := d.History.Edges[1].Node.Changes.NewlyUncovered.IDs[0]
	for _, theme := range []string{"light", "dark"} {
		ctx := browser(t, 1280, 1400)
		setTheme(t, ctx, theme)
		run(t, ctx, "load overview", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`.trend-point`)))
		eval[bool](t, ctx, "click version 2", `document.querySelector('.trend-point[data-version="2"]').dispatchEvent(new MouseEvent("click", {bubbles: true})), true`)
		run(t, ctx, "version 2", chromedp.WaitVisible(chromedp.CSS(`[data-version="2"] #changes-summary`)))
		if got := firstText(t, ctx, `#version-meta`); !strings.Contains(got, commits[1][:12]) {
			t.Errorf("%s: version 2 meta %q, want its commit %s", theme, got, commits[1][:12])
		}
		if got := texts(t, ctx, `[data-list="removedTools"] li`); strings.Join(got, ",") != "outline-gen" {
			t.Errorf("%s: removed Tools %v, want [outline-gen]", theme, got)
		}
		links := attrs(t, ctx, `[data-list="newlyUncovered"] a`, "href")
		if len(links) != len(d.History.Edges[1].Node.Changes.NewlyUncovered.IDs) || !strings.HasSuffix(links[0], "#/skill/"+url.PathEscape(uncovered)) {
			t.Fatalf("%s: newly uncovered links %v, want one per name, first to %s", theme, links, uncovered)
		}
		shoot(t, ctx, filepath.Join(out, "version-changes"+map[string]string{"light": "", "dark": "-dark"}[theme]+".png"))
		axe := os.Getenv("SKILLGRAPH_NODE_MODULES") != "" || os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1"
		if axe {
			axeCheck(t, ctx, axeSource(t), theme+" version 2's changes")
		}

		// The skill: uncovered since version 2, a link back to it.
		run(t, ctx, "open the skill", chromedp.Click(chromedp.CSS(`[data-list="newlyUncovered"] a`)), chromedp.WaitVisible(chromedp.CSS(`#covered-since`)))
		if got := firstText(t, ctx, `#covered-since`); !strings.HasPrefix(got, "version 2 · "+commits[1][:12]) {
			t.Errorf("%s: covered-since %q, want version 2 and its commit", theme, got)
		}
		if got := eval[string](t, ctx, "label", `document.querySelector("#covered-since").previousElementSibling.textContent`); got != "Uncovered since" {
			t.Errorf("%s: label %q, want Uncovered since", theme, got)
		}
		if got := attrs(t, ctx, `#covered-since a`, "href"); len(got) != 1 || !strings.HasSuffix(got[0], "#/version/2") {
			t.Errorf("%s: covered-since links %v, want #/version/2", theme, got)
		}
		if axe {
			axeCheck(t, ctx, axeSource(t), theme+" skill with its since")
		}

		// The keyboard: Enter on version 4's point; version 1 (the first
		// ingest) has no changes to show.
		run(t, ctx, "back to the overview", chromedp.Navigate(s.srv.URL+"/#/"), chromedp.WaitVisible(chromedp.CSS(`.trend-point`)))
		run(t, ctx, "Enter on version 4", chromedp.Focus(chromedp.CSS(`.trend-point[data-version="4"]`)), chromedp.KeyEvent("\r"),
			chromedp.WaitVisible(chromedp.CSS(`[data-version="4"] #changes-summary`)))
		run(t, ctx, "version 1", chromedp.Navigate(s.srv.URL+"/#/version/1"), chromedp.WaitVisible(chromedp.CSS(`#changes-unknown`)))
		if axe {
			axeCheck(t, ctx, axeSource(t), theme+" version 1")
		}
	}
}
