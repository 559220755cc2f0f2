package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// picturesOut is where the pictures tests save their screenshots:
// $SKILLGRAPH_SCREENSHOTS when set, else the test's own output directory
// (kept by go test -run X -v with t.TempDir's path logged).
func picturesOut(t *testing.T) string {
	t.Helper()
	out := os.Getenv("SKILLGRAPH_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// diagramCorpora are the corpora whose every process must draw: the
// example harness (files without BPMN DI, laid out automatically) and,
// when the shared realworld corpora sit beside the repository, the
// cat-harness (files with DI).
func diagramCorpora(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"example": "../examples/harness"}
	if st, err := os.Stat("../../shared/realworld/cat-harness"); err == nil && st.IsDir() {
		out["cat-harness"] = "../../shared/realworld/cat-harness"
	} else {
		t.Log("../shared/realworld/cat-harness is absent: only the example harness is drawn")
	}
	return out
}

type processInfo struct {
	ID        string `json:"id"`
	Reachable bool   `json:"reachable"`
	Steps     []struct {
		ID string `json:"id"`
	} `json:"steps"`
}

// processesOf lists the processes the page can open, once per id, as
// process(id:) answers (two files may declare one id; the page, like the
// API, shows the one the id resolves to).
func processesOf(t *testing.T, s *site) []processInfo {
	t.Helper()
	var all struct {
		Processes struct{ Nodes []struct{ ID string } } `json:"processes"`
	}
	s.query(t, `{ processes(first: 500) { nodes { id } } }`, nil, &all)
	var out []processInfo
	seen := map[string]bool{}
	for _, n := range all.Processes.Nodes {
		if seen[n.ID] {
			continue
		}
		seen[n.ID] = true
		var one struct{ Process processInfo }
		s.query(t, `query($id: ID!) { process(id: $id) { id reachable steps { id } } }`, map[string]any{"id": n.ID}, &one)
		out = append(out, one.Process)
	}
	return out
}

// TestBrowserProcessDiagrams opens every process of each corpus in
// headless Chromium, in the light and the dark theme: its diagram is an
// SVG with its shapes (at least one per step), every step the diagram
// shows carries its workflow-state marker, no CSP violation or uncaught
// error happens, axe finds nothing serious, and a screenshot is saved.
func TestBrowserProcessDiagrams(t *testing.T) {
	src := axeSource(t)
	out := picturesOut(t)
	for name, corpus := range diagramCorpora(t) {
		t.Run(name, func(t *testing.T) {
			s := newSite(t, servertest.CopyTree(t, corpus))
			ps := processesOf(t, s)
			if len(ps) == 0 {
				t.Fatalf("%s has no process", corpus)
			}
			for _, theme := range []string{"light", "dark"} {
				var ctx context.Context
				for i, p := range ps {
					// A fresh browser every few processes: one tab's budget
					// (browser's two minutes) is not stretched by a large corpus.
					if i%8 == 0 {
						ctx = browser(t, 1280, 900)
						watchPage(t, ctx)
						setTheme(t, ctx, theme)
					}
					run(t, ctx, "open "+p.ID, chromedp.Navigate(s.srv.URL+"/#/process/"+p.ID))
					// The view of this process, not the one before it.
					waitFor(t, ctx, p.ID+" drawn", fmt.Sprintf(`!!document.querySelector('article[data-process=%q] #diagram:not([data-state="drawing"])')`, p.ID), `document.querySelector("main").innerText.slice(0, 300)`)
					if st := attrs(t, ctx, "#diagram", "data-state"); st[0] != "drawn" {
						t.Errorf("%s: diagram %s: %s", p.ID, st[0], firstText(t, ctx, "#diagram"))
						continue
					}
					shapes := eval[int](t, ctx, "shapes", `document.querySelectorAll("#diagram svg .djs-element.djs-shape").length`)
					if shapes < len(p.Steps) || shapes == 0 {
						t.Errorf("%s: %d shapes drawn for %d steps", p.ID, shapes, len(p.Steps))
					}
					// Each step on the diagram has its element; those naming
					// skills are marked with their workflow state.
					for _, st := range p.Steps {
						if n := eval[int](t, ctx, "step", fmt.Sprintf(`document.querySelectorAll('#diagram svg [data-element-id=%q]').length`, st.ID)); n == 0 {
							t.Errorf("%s: step %s is not on the diagram", p.ID, st.ID)
						}
					}
					if !p.Reachable {
						if n := eval[int](t, ctx, "unreachable", `document.querySelectorAll("#diagram .djs-element.sg-unreachable").length`); n == 0 {
							t.Errorf("%s is unreachable but no step is marked so", p.ID)
						}
					}
					if i < 6 || theme == "light" {
						shoot(t, ctx, filepath.Join(out, "process-"+name+"-"+strings.ReplaceAll(p.ID, "/", "_")+"-"+theme+".png"))
					}
					if i < 3 {
						axeCheck(t, ctx, src, theme+" #/process/"+p.ID)
					}
					noProblems(t, ctx, theme+" #/process/"+p.ID)
				}
			}
		})
	}
}

// TestBrowserReachPicturesAndBars draws the other pictures in both themes:
// a skill's witness path and a Tool's neighbours (elkjs layout, one SVG
// node per graph node, linked to its view), a package's and a plugin's
// coverage bar (segments summing to the skills GraphQL lists), each
// without CSP violations or errors, axe clean, with a screenshot.
func TestBrowserReachPicturesAndBars(t *testing.T) {
	src := axeSource(t)
	out := picturesOut(t)
	s := newSite(t, "")
	market := marketplaceSite(t)
	var ans struct {
		Skill struct{ Witness []string } `json:"skill"`
		Tool  struct {
			Witness      []string
			Satisfies    []struct{ ID string }
			Alternatives []struct{ ID string }
			ExposedBy    []struct{ ID string }
		} `json:"tool"`
		Packages []struct {
			Name  string
			Count int
		} `json:"packages"`
	}
	s.query(t, `{ skill(id: "open-change") { witness } tool(id: "github-pr-create") { witness satisfies { id } alternatives { id } exposedBy { id } } packages { name count } }`, nil, &ans)
	if len(ans.Skill.Witness) < 2 || len(ans.Packages) == 0 {
		t.Fatalf("the test corpus lost its witness path or packages: %+v", ans)
	}
	pkg := ans.Packages[0]
	var plugin struct {
		Plugins struct {
			Nodes []struct {
				Name   string
				Skills []struct{ ID string }
			}
		}
	}
	market.query(t, `{ plugins(first: 100) { nodes { name skills { id } } } }`, nil, &plugin)
	var withSkills string
	var pluginSkills int
	for _, p := range plugin.Plugins.Nodes {
		if len(p.Skills) > 0 {
			withSkills, pluginSkills = p.Name, len(p.Skills)
			break
		}
	}
	if withSkills == "" {
		t.Fatal("the example marketplace has no plugin with skills")
	}
	for _, theme := range []string{"light", "dark"} {
		ctx := browser(t, 1280, 900)
		watchPage(t, ctx)
		setTheme(t, ctx, theme)
		drawn := func(base, hash, sel string) {
			t.Helper()
			run(t, ctx, "open "+hash, chromedp.Navigate(base+"/"+hash))
			waitFor(t, ctx, hash, fmt.Sprintf(`!!document.querySelector(%q)`, sel), `document.querySelector("main").innerText.slice(0, 300)`)
		}
		nodes := func(sel string) []string { return attrs(t, ctx, sel+" svg.graph .g-node", "data-node") }

		drawn(s.srv.URL, "#/skill/open-change", `#reach-graph[data-state="drawn"]`)
		if got := nodes("#reach-graph"); strings.Join(got, " ") != strings.Join(ans.Skill.Witness, " ") {
			t.Errorf("skill witness picture nodes %v, witness %v", got, ans.Skill.Witness)
		}
		if links := attrs(t, ctx, "#reach-graph svg.graph a", "href"); len(links) != len(ans.Skill.Witness) {
			t.Errorf("witness picture links %v", links)
		}
		axeCheck(t, ctx, src, theme+" skill picture")
		shoot(t, ctx, filepath.Join(out, "skill-witness-"+theme+".png"))

		drawn(s.srv.URL, "#/tool/github-pr-create", `#tool-graph[data-state="drawn"]`)
		want := map[string]bool{"tool:github-pr-create": true}
		for _, k := range ans.Tool.Witness {
			want[k] = true
		}
		for _, x := range ans.Tool.Satisfies {
			want["skill:"+x.ID] = true
		}
		for _, x := range append(ans.Tool.Alternatives, ans.Tool.ExposedBy...) {
			want["tool:"+x.ID] = true
		}
		got := nodes("#tool-graph")
		if len(got) != len(want) {
			t.Errorf("tool picture nodes %v, want %v", got, want)
		}
		for _, k := range got {
			if !want[k] {
				t.Errorf("tool picture draws %s, no neighbour of the Tool", k)
			}
		}
		axeCheck(t, ctx, src, theme+" tool picture")
		shoot(t, ctx, filepath.Join(out, "tool-neighbours-"+theme+".png"))

		bar := func(sel string) int {
			return eval[int](t, ctx, "bar", fmt.Sprintf(`[...document.querySelectorAll(%q)].reduce((a, r) => a + Number(r.dataset.count), 0)`, sel+" rect[data-count]"))
		}
		drawn(s.srv.URL, "#/package/"+pkg.Name, `#package-bar`)
		if n := bar("#package-bar"); n != pkg.Count {
			t.Errorf("package %s bar sums to %d, packages says %d", pkg.Name, n, pkg.Count)
		}
		if rows := len(attrs(t, ctx, "#package-skills tbody tr", "data-skill")); rows != pkg.Count {
			t.Errorf("package %s lists %d skills, packages says %d", pkg.Name, rows, pkg.Count)
		}
		axeCheck(t, ctx, src, theme+" package page")
		shoot(t, ctx, filepath.Join(out, "package-"+theme+".png"))

		drawn(market.srv.URL, "#/plugin/"+withSkills, `#plugin-bar`)
		if n := bar("#plugin-bar"); n != pluginSkills {
			t.Errorf("plugin %s bar sums to %d, it has %d skills", withSkills, n, pluginSkills)
		}
		axeCheck(t, ctx, src, theme+" plugin page")
		shoot(t, ctx, filepath.Join(out, "plugin-bar-"+theme+".png"))
		noProblems(t, ctx, theme)
	}
}
