package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/web"
)

func TestHandlerServesEmbeddedAssets(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	cases := []struct {
		path, ctype, contains string
	}{
		{"/", "text/html", `<script type="module" src="app.js"></script>`},
		{"/index.html", "text/html", "coverage triage"},
		{"/app.js", "javascript", `from "./js/router.js"`},
		{"/js/views/skill.js", "javascript", "recordTriage"},
		{"/style.css", "text/css", ".tally"},
		{"/favicon.svg", "image/svg+xml", "<svg"},
	}
	for _, c := range cases {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d", c.path, res.StatusCode)
			continue
		}
		if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, c.ctype) {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, ct, c.ctype)
		}
		if !strings.Contains(string(body), c.contains) {
			t.Errorf("GET %s: body lacks %q", c.path, c.contains)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP %q", c.path, csp)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", c.path)
		}
	}
}

func TestHandlerRefusesOtherPathsAndMethods(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	for _, p := range []string{"/nope", "/assets/app.js", "/../web.go", "/skill/x"} {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", p, res.StatusCode)
		}
	}
	res, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", res.StatusCode)
	}
}

// TestPageUsesNoNetwork guards the no-network rule: the page references no
// absolute URL for scripts, styles, fonts or images.
func TestPageUsesNoNetwork(t *testing.T) {
	for _, name := range []string{"index.html", "app.js", "style.css"} {
		b, err := readAsset(name)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, bad := range []string{"src=\"http", "href=\"http", "url(http", "@import", "//cdn", "fonts.googleapis", "innerHTML", "eval("} {
			if strings.Contains(s, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
	}
}

func readAsset(name string) ([]byte, error) {
	f, err := web.Assets().Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
