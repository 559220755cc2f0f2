package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// do sends one request without following redirects.
func do(t *testing.T, method, url string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// TestHeadWhereverGet: HEAD answers every GET route with GET's status and
// headers and no body.
func TestHeadWhereverGet(t *testing.T) {
	e := start(t, "", nil)
	for _, p := range []string{"/healthz", "/readyz", "/metrics", "/graphql?query=%7BgraphVersion%7D", "/graphiql",
		"/export", "/export?format=jsonld", "/id/tool/gh", "/id/tool/nope", "/ns", "/context.jsonld",
		"/schemas/tool.schema.json", "/schemas/harness.schema.json", "/"} {
		t.Run(p, func(t *testing.T) {
			get, _ := do(t, http.MethodGet, e.srv.URL+p, nil)
			head, body := do(t, http.MethodHead, e.srv.URL+p, nil)
			if head.StatusCode != get.StatusCode || len(body) != 0 {
				t.Fatalf("HEAD %d with %d bytes, GET %d", head.StatusCode, len(body), get.StatusCode)
			}
			if h, g := head.Header.Get("Content-Type"), get.Header.Get("Content-Type"); h != g {
				t.Fatalf("HEAD Content-Type %q, GET %q", h, g)
			}
		})
	}
}

// TestMethodNotAllowedNamesAllow: a 405 lists in Allow exactly the
// methods the route answers.
func TestMethodNotAllowedNamesAllow(t *testing.T) {
	e := start(t, "", nil)
	cases := []struct {
		method, path string
		allow        []string
	}{
		{http.MethodPut, "/export", []string{"GET", "HEAD"}},
		{http.MethodPost, "/readyz", []string{"GET", "HEAD"}},
		{http.MethodDelete, "/graphql", []string{"GET", "HEAD", "POST"}},
		{http.MethodPost, "/id/tool/gh", []string{"GET", "HEAD"}},
		{http.MethodPatch, "/schemas/tool.schema.json", []string{"GET", "HEAD"}},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			res, _ := do(t, c.method, e.srv.URL+c.path, nil)
			var got []string
			for _, v := range res.Header.Values("Allow") {
				for _, m := range strings.Split(v, ",") {
					got = append(got, strings.TrimSpace(m))
				}
			}
			slices.Sort(got)
			if res.StatusCode != http.StatusMethodNotAllowed || !slices.Equal(got, c.allow) {
				t.Fatalf("status %d Allow %v, want 405 Allow %v", res.StatusCode, got, c.allow)
			}
		})
	}
}

// TestNegotiation: q-values decide the representation, Vary says so, and
// a type the resource cannot give is 406.
func TestNegotiation(t *testing.T) {
	e := start(t, "", nil)
	cases := []struct {
		path, accept string
		code         int
		ctype        string // prefix of Content-Type, or Location for 303
	}{
		{"/export", "", 200, "application/n-quads"},
		{"/export", "*/*", 200, "application/n-quads"},
		{"/export", "application/ld+json", 200, "application/ld+json"},
		{"/export", "application/n-quads;q=0.2, application/ld+json", 200, "application/ld+json"},
		{"/export", "application/ld+json;q=0.5, application/n-quads;q=0.9", 200, "application/n-quads"},
		{"/export", "application/*;q=0.3, application/n-quads;q=0", 200, "application/ld+json"},
		{"/export", "image/png", 406, "text/plain"},
		{"/id/tool/gh", "", 200, "application/ld+json"},
		{"/id/tool/gh", "application/ld+json", 200, "application/ld+json"},
		{"/id/tool/gh", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", 303, "/#/tool/gh"},
		{"/id/tool/gh", "text/html;q=0.5, application/ld+json", 200, "application/ld+json"},
		{"/id/tool/gh", "application/ld+json;q=0.1, text/html", 303, "/#/tool/gh"},
		{"/id/tool/gh", "image/png", 406, "text/plain"},
		{"/id/tool/gh", "application/ld+json;q=0", 406, "text/plain"},
		{"/id/tool/gh", "application/xml", 406, "text/plain"},
	}
	for _, c := range cases {
		t.Run(c.path+" "+c.accept, func(t *testing.T) {
			h := map[string]string{}
			if c.accept != "" {
				h["Accept"] = c.accept
			}
			res, _ := do(t, http.MethodGet, e.srv.URL+c.path, h)
			got := res.Header.Get("Content-Type")
			if res.StatusCode == http.StatusSeeOther {
				got = res.Header.Get("Location")
			}
			if res.StatusCode != c.code || !strings.HasPrefix(got, c.ctype) {
				t.Fatalf("%d %s, want %d %s", res.StatusCode, got, c.code, c.ctype)
			}
			if res.Header.Get("Vary") != "Accept" {
				t.Fatalf("Vary %q, want Accept", res.Header.Get("Vary"))
			}
		})
	}
}

// TestExportETag: the export's ETag names the graph version; a client
// that has it gets 304 until the graph changes.
func TestExportETag(t *testing.T) {
	e := start(t, "", nil)
	for _, accept := range []string{"application/n-quads", "application/ld+json"} {
		t.Run(accept, func(t *testing.T) {
			res, body := do(t, http.MethodGet, e.srv.URL+"/export", map[string]string{"Accept": accept})
			tag := res.Header.Get("ETag")
			if res.StatusCode != 200 || tag == "" || len(body) == 0 {
				t.Fatalf("status %d ETag %q", res.StatusCode, tag)
			}
			for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
				res, body = do(t, http.MethodGet, e.srv.URL+"/export", map[string]string{"Accept": accept, "If-None-Match": inm})
				if res.StatusCode != http.StatusNotModified || len(body) != 0 || res.Header.Get("ETag") != tag {
					t.Fatalf("If-None-Match %s: status %d ETag %q", inm, res.StatusCode, res.Header.Get("ETag"))
				}
			}
			other := "application/n-quads"
			if accept == other {
				other = "application/ld+json"
			}
			if res, _ = do(t, http.MethodGet, e.srv.URL+"/export", map[string]string{"Accept": other, "If-None-Match": tag}); res.StatusCode != 200 {
				t.Fatalf("the other format with this format's ETag: %d", res.StatusCode)
			}
		})
	}
	res, _ := do(t, http.MethodGet, e.srv.URL+"/export", nil)
	tag := res.Header.Get("ETag")
	if _, err := e.svc.RecordTriage(context.Background(), "review", "judgement", "bumps the version"); err != nil {
		t.Fatal(err)
	}
	res, body := do(t, http.MethodGet, e.srv.URL+"/export", map[string]string{"If-None-Match": tag})
	if res.StatusCode != 200 || res.Header.Get("ETag") == tag || !strings.Contains(string(body), "bumps the version") {
		t.Fatalf("after a write: status %d ETag %q (was %q)", res.StatusCode, res.Header.Get("ETag"), tag)
	}
}

// TestJSONLDExportRefusedBeforeLoading: over MaxJSONLDQuads the export is
// 413 without loading the graph; a second refusal at the same version
// reads nothing at all.
func TestJSONLDExportRefusedBeforeLoading(t *testing.T) {
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 40, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	srv := servertest.Start(t, servertest.Options{Corpus: root, Config: func(c *server.Config) { c.MaxJSONLDQuads = 2000 }})
	h := map[string]string{"Accept": "application/ld+json"}
	if res, _ := do(t, http.MethodGet, srv.URL+"/export", h); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
	// Measure the second refusal: the count of this version is known.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, _ := do(t, http.MethodGet, srv.URL+"/export", h)
	runtime.ReadMemStats(&after)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
	// Loading the 2000 quads before refusing allocates well over 100 KB.
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("a refused export allocated %d bytes: it read the graph", n)
	} else {
		t.Logf("second refusal: %d bytes allocated", n)
	}
}

// TestSchemasServed: the JSON Schemas editors and CI validate against.
func TestSchemasServed(t *testing.T) {
	e := start(t, "", nil)
	for _, name := range []string{"tool.schema.json", "tool-file.schema.json", "harness.schema.json", "tool-types.schema.json"} {
		res, body := do(t, http.MethodGet, e.srv.URL+"/schemas/"+name, nil)
		var doc map[string]any
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/schema+json" || json.Unmarshal(body, &doc) != nil ||
			!strings.HasPrefix(fmt.Sprint(doc["title"]), "skillgraph ") {
			t.Fatalf("%s: %d %s %.80s", name, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	for _, p := range []string{"/schemas/context.jsonld", "/schemas/nope.json", "/schemas/..%2Fgo.mod"} {
		if res, _ := do(t, http.MethodGet, e.srv.URL+p, nil); res.StatusCode != 404 {
			t.Fatalf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// TestMetricsDescribeTheServedVersion: build info and the domain gauges
// match the snapshot served.
func TestMetricsDescribeTheServedVersion(t *testing.T) {
	e := start(t, "", nil)
	_, body := do(t, http.MethodGet, e.srv.URL+"/metrics", nil)
	text := string(body)
	snap := e.svc.Snapshot()
	errors := 0
	for _, f := range snap.Findings {
		if f.Severity == "error" {
			errors++
		}
	}
	want := []string{
		`skillgraph_build_info{goversion="` + runtime.Version() + `"`,
		`skillgraph_skills{tier="covered"} ` + itoa(len(snap.Coverage.Covered)),
		`skillgraph_skills{tier="contradicted"} ` + itoa(len(snap.Coverage.Contradicted)),
		`skillgraph_findings{severity="error"} ` + itoa(errors),
		`skillgraph_findings{severity="info"} `,
		`skillgraph_unreachable_tools ` + itoa(len(snap.Reach.UnreachableTools)),
		`skillgraph_graph_version ` + itoa(int(snap.Version)),
	}
	for _, tier := range snap.Coverage.Tiers {
		want = append(want, `skillgraph_skills{tier="`+tier.Tier+`"} `+itoa(len(tier.Skills)))
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("/metrics lacks %q", w)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
