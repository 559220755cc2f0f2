package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/web"
)

// waitFor polls a boolean expression until it holds (GraphiQL works
// asynchronously: introspection, fetches), failing with what last showed.
func waitFor(t *testing.T, ctx context.Context, what, expr, show string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !eval[bool](t, ctx, what, expr) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out; %s", what, eval[string](t, ctx, "show", show))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// watchPage makes every document the tab opens record its CSP violations
// and uncaught errors in window.__sgProblems (the script is installed
// through the DevTools protocol, so the page's CSP does not apply to it).
func watchPage(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "watch CSP", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
window.__sgProblems = [];
document.addEventListener("securitypolicyviolation", (e) => window.__sgProblems.push("CSP " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));
window.addEventListener("error", (e) => window.__sgProblems.push("error: " + e.message + " at " + e.filename + ":" + e.lineno));
window.addEventListener("unhandledrejection", (e) => window.__sgProblems.push("unhandled rejection: " + (e.reason && e.reason.message || e.reason)));
`})
		return err
	}))
}

// noProblems fails on any CSP violation or uncaught error the document
// saw since the last call.
func noProblems(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	for _, p := range eval[[]string](t, ctx, "problems", `(() => { const p = window.__sgProblems || ["the watch script did not run"]; window.__sgProblems = []; return p })()`) {
		t.Errorf("%s: %s", where, p)
	}
}

// cmValue and cmSet read and write a GraphiQL CodeMirror 5 editor.
func cmValue(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, "read "+sel, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e && e.CodeMirror ? e.CodeMirror.getValue() : "" })()`, sel+" .CodeMirror"))
}

func cmSet(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	if !eval[bool](t, ctx, "set "+sel, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || !e.CodeMirror) return false; e.CodeMirror.setValue(%q); return true })()`, sel+" .CodeMirror", text)) {
		t.Fatalf("no CodeMirror editor under %s", sel)
	}
}

// TestBrowserGraphiQL drives the vendored GraphiQL (issue #25.6): the
// schema loads (docs explorer), a query with variables runs and its
// result shows, prettify rewrites the query, the run lands in the
// history, the variables and headers editors exist, and nothing the page
// does is refused by the strict CSP or throws.
func TestBrowserGraphiQL(t *testing.T) {
	s := newSite(t, "")
	var want struct {
		Skill struct{ ID, Title string } `json:"skill"`
	}
	s.query(t, `query($id: ID!) { skill(id: $id) { id title } }`, map[string]any{"id": "lint-docs"}, &want)
	if want.Skill.Title == "" {
		t.Fatal("the test corpus has no titled lint-docs skill")
	}
	ctx := browser(t, 1280, 900)
	watchPage(t, ctx)
	for _, path := range []string{"/graphiql", "/graphql"} {
		run(t, ctx, "open "+path, chromedp.Navigate(s.srv.URL+path), chromedp.WaitVisible(chromedp.CSS(`.graphiql-query-editor .CodeMirror`)))
		// The schema is introspected: the docs explorer can open Query.
		run(t, ctx, "open docs", chromedp.Click(chromedp.CSS(`button[aria-label="Show Documentation Explorer"]`)))
		waitFor(t, ctx, "docs", `[...document.querySelectorAll(".graphiql-doc-explorer a, .graphiql-doc-explorer-type-name")].some(a => a.textContent === "Query")`,
			`document.querySelector(".graphiql-plugin") ? document.querySelector(".graphiql-plugin").innerText.slice(0, 300) : "no plugin pane"`)

		cmSet(t, ctx, ".graphiql-query-editor", "query One($id: ID!) { skill(id: $id) { id title } }")
		cmSet(t, ctx, ".graphiql-editor-tool .graphiql-editor:not(.hidden)", `{"id": "lint-docs"}`)
		run(t, ctx, "run", chromedp.Click(chromedp.CSS(`.graphiql-execute-button`)))
		waitFor(t, ctx, "result", fmt.Sprintf(`(() => { const e = document.querySelector(".result-window .CodeMirror"); return !!e && e.CodeMirror.getValue().includes(%q) })()`, want.Skill.Title),
			`(() => { const e = document.querySelector(".result-window .CodeMirror"); return e ? e.CodeMirror.getValue() : "no result editor" })()`)

		run(t, ctx, "prettify", chromedp.Click(chromedp.CSS(`button[aria-label^="Prettify query"]`)))
		waitFor(t, ctx, "prettified", `document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.getValue().startsWith("query One($id: ID!) {\n  skill(id: $id) {\n")`,
			`document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.getValue()`)

		run(t, ctx, "history", chromedp.Click(chromedp.CSS(`button[aria-label="Show History"]`)))
		waitFor(t, ctx, "history entry", `[...document.querySelectorAll(".graphiql-history-item")].some(e => e.textContent.includes("One"))`,
			`document.querySelector(".graphiql-plugin") ? document.querySelector(".graphiql-plugin").innerText : "no history pane"`)
		for _, tab := range []string{"Variables", "Headers"} {
			if n := eval[int](t, ctx, "tab "+tab, fmt.Sprintf(`[...document.querySelectorAll(".graphiql-editor-tools button")].filter(b => b.textContent.trim() === %q).length`, tab)); n != 1 {
				t.Errorf("%s: %d %s editor tabs, want 1", path, n, tab)
			}
		}
		noProblems(t, ctx, path)
	}
}

// TestGraphiQLServedOffline checks /graphiql over HTTP: the page and
// every file it loads come from the binary with the strict CSP and name no
// other origin as a source; unknown files are 404s; the licences ship.
func TestGraphiQLServedOffline(t *testing.T) {
	s := newSite(t, "")
	get := func(path string) (int, http.Header, string) {
		t.Helper()
		res, err := http.Get(s.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	code, hdr, body := get("/graphiql")
	if code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("/graphiql: %d %q", code, hdr.Get("Content-Type"))
	}
	if csp := hdr.Get("Content-Security-Policy"); csp != web.ContentSecurityPolicy {
		t.Errorf("/graphiql CSP %q, want the pages' one policy", csp)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(refs) < 4 {
		t.Fatalf("/graphiql references %v", refs)
	}
	for _, m := range refs {
		if strings.Contains(m[1], "//") {
			t.Errorf("/graphiql loads %s from another origin", m[1])
			continue
		}
		code, hdr, _ := get("/" + m[1])
		if code != http.StatusOK || hdr.Get("Content-Security-Policy") != web.ContentSecurityPolicy {
			t.Errorf("/%s: %d, CSP %q", m[1], code, hdr.Get("Content-Security-Policy"))
		}
	}
	if code, _, lic := get("/graphiql/LICENSES.txt"); code != http.StatusOK || !strings.Contains(lic, "==== graphiql@3.") || !strings.Contains(lic, "MIT License") {
		t.Errorf("/graphiql/LICENSES.txt: %d, lists graphiql 3 with its MIT licence: %v", code, strings.Contains(lic, "==== graphiql@3."))
	}
	for _, p := range []string{"/graphiql/nope.js", "/graphiql/../web.go", "/graphiql/graphiql.html", "/graphiql/vendor/graphiql/graphiql.js"} {
		if code, _, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, code)
		}
	}
	// A browser opening /graphql gets the same page.
	req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/graphql", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(b) != body {
		t.Errorf("GET /graphql as a browser: %d, the GraphiQL page: %v", res.StatusCode, string(b) == body)
	}
}
