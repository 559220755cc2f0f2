package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestScreenshots takes full-page screenshots of the overview, the queue,
// skill details, the workflows (with and without an exposure profile), a
// Tool (its neighbours drawn), a process (its diagram), a package, the
// Plugins view and a plugin (over examples/marketplace) and GraphiQL at
// desktop (1280×800) and phone (390×844) width, and at desktop width in
// the dark theme. They go to a
// temporary directory, or to $SKILLGRAPH_SCREENSHOTS when set:
//
//	SKILLGRAPH_SCREENSHOTS=$PWD/docs/screenshots go test ./web -run TestScreenshots
func TestScreenshots(t *testing.T) {
	out := os.Getenv("SKILLGRAPH_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSite(t, "")
	s.mutate(t, `mutation { recordTriage(skill: "lint-docs", verdict: judgement, note: "Which anchors matter is a judgement call; the link check itself is mechanism.") { graphVersion } }`)
	market := marketplaceSite(t)
	for _, size := range []struct {
		name, theme string
		w, h        int
	}{{"desktop", "light", 1280, 800}, {"phone", "light", 390, 844}, {"desktop-dark", "dark", 1280, 800}} {
		ctx := browser(t, size.w, size.h)
		setTheme(t, ctx, size.theme)
		for _, view := range []struct{ name, hash, wait string }{
			{"overview", "#/", `[data-count="D"]`},
			{"skill", "#/skill/translate-strings", `section[aria-labelledby=h-steps] table`},
			{"skill-contradicted", "#/skill/count-words", `.tool.contradicted`},
			{"queue", "#/queue", `#queue-table`},
			{"workflows", "#/workflows", `#wf-list .chip`},
			{"workflows-read-only", "#/workflows?profile=read-only", `#wf-list .chip.first-gap`},
			{"tool", "#/tool/github-pr-create", `#tool-graph[data-state="drawn"]`},
			{"process", "#/process/Process_Release", `#diagram[data-state="drawn"]`},
			{"package", "#/package/core", `#package-bar`},
		} {
			run(t, ctx, "load "+view.name,
				chromedp.Navigate(s.srv.URL+"/"+view.hash),
				chromedp.WaitVisible(chromedp.CSS(view.wait)))
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatalf("screenshot %s: %v", view.name, err)
			}
			if len(png) < 1000 {
				t.Fatalf("%s/%s: screenshot is %d bytes", size.name, view.name, len(png))
			}
			p := filepath.Join(out, view.name+"-"+size.name+".png")
			if err := os.WriteFile(p, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", p)
		}
		// The Plugins view and one plugin, over the example marketplace.
		for _, view := range []struct{ name, hash, wait string }{
			{"plugins", "#/plugins", `#plugins-table`},
			{"plugin", "#/plugin/review", `#plugin-mcp`},
		} {
			run(t, ctx, "load "+view.name, chromedp.Navigate(market.srv.URL+"/"+view.hash), chromedp.WaitVisible(chromedp.CSS(view.wait)))
			shoot(t, ctx, filepath.Join(out, view.name+"-"+size.name+".png"))
		}
		// GraphiQL: a query run, the docs explorer open.
		run(t, ctx, "load graphiql", chromedp.Navigate(s.srv.URL+"/graphiql"), chromedp.WaitVisible(chromedp.CSS(`.graphiql-query-editor .CodeMirror`)))
		cmSet(t, ctx, ".graphiql-query-editor", "{\n  skill(id: \"open-change\") {\n    id\n    title\n    tier\n  }\n}")
		run(t, ctx, "run", chromedp.Click(chromedp.CSS(`.graphiql-execute-button`)), chromedp.Click(chromedp.CSS(`button[aria-label="Show Documentation Explorer"]`)))
		waitFor(t, ctx, "result", `document.querySelector(".result-window .CodeMirror").CodeMirror.getValue().includes("open-change")`, `document.querySelector(".result-window").innerText`)
		shoot(t, ctx, filepath.Join(out, "graphiql-"+size.name+".png"))
		// A maintainer's view of a skill: the token sits in sessionStorage.
		run(t, ctx, "sign in", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="D"]`)))
		eval[bool](t, ctx, "store token", fmt.Sprintf(`sessionStorage.setItem("skillgraph.token", %q), true`, s.token))
		run(t, ctx, "load maintainer view", chromedp.Navigate(s.srv.URL+"/#/skill/lint-docs"), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#verdict-form`)))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(out, "skill-maintainer-"+size.name+".png")
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// shoot writes a full-page screenshot of the tab to p.
func shoot(t *testing.T, ctx context.Context, p string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", p, err)
	}
	if len(png) < 1000 {
		t.Fatalf("%s: screenshot is %d bytes", p, len(png))
	}
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", p)
}
