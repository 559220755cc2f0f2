package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// axeSource reads axe-core from $SKILLGRAPH_NODE_MODULES (scripts/test.sh
// installs it from scripts/conformance). It skips only when the variable is
// unset and SKILLGRAPH_REQUIRE_CONFORMANCE is not 1; a set but broken
// install is a failure.
func axeSource(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SKILLGRAPH_NODE_MODULES")
	if dir == "" {
		if os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			t.Fatal("SKILLGRAPH_REQUIRE_CONFORMANCE=1 but SKILLGRAPH_NODE_MODULES is unset")
		}
		t.Skip("axe-core not found: set SKILLGRAPH_NODE_MODULES (cd scripts/conformance && npm ci)")
	}
	b, err := os.ReadFile(filepath.Join(dir, "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("SKILLGRAPH_NODE_MODULES is set but axe-core is unreadable: %v", err)
	}
	return string(b)
}

// setTheme makes the page see prefers-color-scheme: dark or light.
func setTheme(t *testing.T, ctx context.Context, theme string) {
	t.Helper()
	run(t, ctx, "theme "+theme, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
		})
		return err
	}))
}

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axeCheck injects axe-core (once per document) and fails the test on any
// serious or critical violation of the current page.
func axeCheck(t *testing.T, ctx context.Context, src, where string) {
	t.Helper()
	if !eval[bool](t, ctx, "axe present", `typeof window.axe === "object"`) {
		eval[bool](t, ctx, "inject axe", src+"\n;true")
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"], rules: {"target-size": {enabled: true}}}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe.run: %v", where, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("%s: axe result: %v", where, err)
	}
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			continue
		}
		var nodes []string
		for i, n := range v.Nodes {
			if i == 4 {
				nodes = append(nodes, fmt.Sprintf("… %d more", len(v.Nodes)-i))
				break
			}
			nodes = append(nodes, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
		}
		t.Errorf("%s: axe %s (%s) %s on %d nodes:\n  %s", where, v.ID, v.Impact, v.Help, len(v.Nodes), strings.Join(nodes, "\n  "))
	}
}

// axeViews are the page's views with an element that marks each as drawn.
var axeViews = []struct{ hash, wait string }{
	{"#/", `[data-count="D"]`},
	{"#/?profile=read-only", `[data-count="D"]`},
	{"#/queue", `#queue-table`},
	{"#/queue?tier=covered", `#queue-table`},
	{"#/skill/open-change", `#witness`},
	{"#/skill/count-words", `.tool.contradicted`},
	{"#/skill/translate-strings", `section[aria-labelledby=h-steps] table`},
	{"#/tool/github-pr-create", `#program`},
	{"#/process/Process_Release?step=Task_Review", `tr.highlight`},
	{"#/workflows", `#wf-list .chip`},
	{"#/workflows?profile=read-only", `#wf-list .chip.first-gap`},
	{"#/unreachable", `#ut-table`},
	{"#/findings", `table.findings`},
	{"#/no-such-view", `main h1`},
}

// TestBrowserAxeEveryView runs axe-core on every view of the page and on
// /graphiql, in the light and the dark theme, signed out and (for a skill)
// signed in: no serious or critical violation (issue #12).
func TestBrowserAxeEveryView(t *testing.T) {
	src := axeSource(t)
	s := newSite(t, "")
	s.mutate(t, `mutation { recordTriage(skill: "lint-docs", verdict: judgement, note: "A person judges it.") { graphVersion } }`)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx := browser(t, 1280, 800)
			setTheme(t, ctx, theme)
			for _, v := range axeViews {
				run(t, ctx, "load "+v.hash, chromedp.Navigate(s.srv.URL+"/"+v.hash), chromedp.WaitVisible(chromedp.CSS(v.wait)))
				axeCheck(t, ctx, src, theme+" "+v.hash)
			}
			// A maintainer's skill page: the verdict form and the badges.
			eval[bool](t, ctx, "store token", fmt.Sprintf(`sessionStorage.setItem("skillgraph.token", %q), true`, s.token))
			run(t, ctx, "maintainer view", chromedp.Navigate(s.srv.URL+"/#/skill/lint-docs"), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#verdict-form`)))
			axeCheck(t, ctx, src, theme+" maintainer #/skill/lint-docs")
			// GraphiQL: with a result and the docs explorer open.
			run(t, ctx, "graphiql", chromedp.Navigate(s.srv.URL+"/graphiql"), chromedp.WaitVisible(chromedp.CSS(`.graphiql-query-editor .CodeMirror`)))
			axeCheck(t, ctx, src, theme+" /graphiql")
			cmSet(t, ctx, ".graphiql-query-editor", "{ skills(first: 2) { nodes { id title } } }")
			run(t, ctx, "run", chromedp.Click(chromedp.CSS(`.graphiql-execute-button`)))
			waitFor(t, ctx, "result", `document.querySelector(".result-window .CodeMirror").CodeMirror.getValue().includes("nodes")`, `document.querySelector(".result-window").innerText`)
			run(t, ctx, "docs", chromedp.Click(chromedp.CSS(`button[aria-label="Show Documentation Explorer"]`)), chromedp.WaitVisible(chromedp.CSS(`.graphiql-doc-explorer`)))
			axeCheck(t, ctx, src, theme+" /graphiql with a result and the docs")
		})
	}
}

// TestBrowserAxePluginViews runs axe-core on the Plugins view, a plugin
// with every kind of component, one its marketplace entry alone defines,
// and a plugin's skill (its plugin and resources), over the example
// marketplace, in the light and the dark theme.
func TestBrowserAxePluginViews(t *testing.T) {
	src := axeSource(t)
	s := marketplaceSite(t)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx := browser(t, 1280, 800)
			setTheme(t, ctx, theme)
			for _, v := range []struct{ hash, wait string }{
				{"#/plugins", `#plugins-table`},
				{"#/plugin/review", `#plugin-mcp`},
				{"#/plugin/lsp-go", `#manifest`},
				{"#/plugin/Odd_One", `section[aria-labelledby=h-pfind] table.findings`},
				{"#/skill/review-pr", `#skill-resources`},
			} {
				run(t, ctx, "load "+v.hash, chromedp.Navigate(s.srv.URL+"/"+v.hash), chromedp.WaitVisible(chromedp.CSS(v.wait)), chromedp.WaitVisible(chromedp.CSS(`#nav-plugins a`)))
				axeCheck(t, ctx, src, theme+" "+v.hash)
			}
		})
	}
}

// TestBrowserFooterExportLinks follows the footer's export links as the
// browser would (a link cannot set Accept): each downloads the format its
// text names (issue #12: "Export (JSON-LD)" downloaded N-Quads).
func TestBrowserFooterExportLinks(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 1280, 800)
	run(t, ctx, "load", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="D"]`)))
	type got struct{ Text, Type, Body string }
	links, err := chromedp.Run(ctx, chromedp.Evaluate[[]got](`Promise.all([...document.querySelectorAll(".foot a[href*='export']")].map(a =>
		fetch(a.href).then(async r => ({Text: a.textContent.trim(), Type: r.headers.get("Content-Type") || "", Body: (await r.text()).slice(0, 2000)}))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Export (JSON-LD)": "application/ld+json", "Export (N-Quads)": "application/n-quads"}
	if len(links) != len(want) {
		t.Fatalf("footer export links %+v, want %v", links, want)
	}
	for _, l := range links {
		if w, ok := want[l.Text]; !ok || !strings.HasPrefix(l.Type, w) {
			t.Errorf("link %q serves %q, want %q", l.Text, l.Type, w)
		}
		if l.Text == "Export (JSON-LD)" && !strings.HasPrefix(strings.TrimSpace(l.Body), "{") {
			t.Errorf("JSON-LD export body starts %q", l.Body[:min(len(l.Body), 80)])
		}
	}
}

// TestBrowserWorkflowsTargets runs axe-core, touch-target size included,
// on the workflows view of the example harness and (when beside the
// repository) the real cat-harness corpus: its step chips hold several
// links each (issue 25.11: 4 and 34 targets under 24 px).
func TestBrowserWorkflowsTargets(t *testing.T) {
	src := axeSource(t)
	corpora := []string{"../examples/harness"}
	if _, err := os.Stat("../../shared/realworld/cat-harness"); err == nil {
		corpora = append(corpora, "../../shared/realworld/cat-harness")
	}
	for _, corpus := range corpora {
		t.Run(filepath.Base(corpus), func(t *testing.T) {
			s := newSite(t, servertest.CopyTree(t, corpus))
			ctx := browser(t, 1280, 800)
			for _, width := range []int64{1280, 390} {
				run(t, ctx, "viewport", chromedp.EmulateViewport(width, 800))
				run(t, ctx, "load", chromedp.Navigate(s.srv.URL+"/#/workflows"), chromedp.WaitVisible(chromedp.CSS(`#wf-list .chip`)))
				axeCheck(t, ctx, src, fmt.Sprintf("%s #/workflows at %d px", filepath.Base(corpus), width))
			}
		})
	}
}
