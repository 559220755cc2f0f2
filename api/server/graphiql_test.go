package server_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestExplorerServedOffline checks /graphiql: the page and every module it
// loads come from the binary with a strict CSP, name no other origin (the
// explorer works offline), and unknown files are 404s.
func TestExplorerServedOffline(t *testing.T) {
	e := start(t, "", nil)
	get := func(path string) (int, http.Header, string) {
		t.Helper()
		res, err := http.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	code, hdr, page := get("/graphiql")
	if code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("/graphiql: %d %q", code, hdr.Get("Content-Type"))
	}
	if strings.Contains(page, "<textarea id=\"q\"") || !strings.Contains(page, `type="module"`) {
		t.Fatal("/graphiql is not the explorer")
	}
	// Every local module the page reaches, following imports.
	seen := map[string]bool{}
	queue := []string{}
	for _, m := range regexp.MustCompile(`(?:src|href)="(graphiql/[^"]+)"`).FindAllStringSubmatch(page, -1) {
		queue = append(queue, "/"+m[1])
	}
	importRE := regexp.MustCompile(`(?m)^import [^"]*"\./([^"]+)"`)
	remote := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	if m := remote.FindString(page); m != "" {
		t.Errorf("/graphiql names another origin: %s", m)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		code, hdr, body := get(p)
		if code != http.StatusOK {
			t.Errorf("%s: status %d", p, code)
			continue
		}
		ct := hdr.Get("Content-Type")
		if strings.HasSuffix(p, ".js") && !strings.Contains(ct, "javascript") {
			t.Errorf("%s: Content-Type %q, a module needs a JavaScript type", p, ct)
		}
		if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q", p, csp)
		}
		if m := remote.FindString(body); m != "" {
			t.Errorf("%s names another origin: %s", p, m)
		}
		for _, m := range importRE.FindAllStringSubmatch(body, -1) {
			queue = append(queue, "/graphiql/"+m[1])
		}
	}
	for _, want := range []string{"/graphiql/main.js", "/graphiql/schema.js", "/graphiql/complete.js", "/graphiql/docs.js", "/graphiql/explorer.css"} {
		if !seen[want] {
			t.Errorf("the page does not reach %s (reached %v)", want, seen)
		}
	}
	if csp := hdr.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("/graphiql CSP %q", csp)
	}
	// A browser opening /graphql gets the same page; its relative URLs
	// (graphiql/main.js, graphql) resolve to the same files from there.
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/graphql", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(b) != page {
		t.Errorf("GET /graphql as a browser: %d, the explorer page: %v", res.StatusCode, string(b) == page)
	}
	for _, p := range []string{"/graphiql/nope.js", "/graphiql/../http.go", "/graphiql/graphiql.html"} {
		if code, _, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, code)
		}
	}
}
