package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// exampleIRIs lists the distinct subjects the export of the example
// corpus mints under the instance document: [kind, id, iri], the instance
// itself as kind "instance".
func exampleIRIs(t *testing.T, srv *servertest.Server) (doc string, out [][3]string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/export", nil)
	req.Header.Set("Accept", "application/n-quads")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "<") {
			continue
		}
		s := line[1:strings.IndexByte(line, '>')]
		if strings.HasSuffix(s, ".jsonld") && strings.Contains(line, "/ns#name>") {
			doc = s
		}
		seen[s] = true
	}
	if doc == "" {
		t.Fatal("no instance document in the export")
	}
	for s := range seen {
		if s == doc {
			out = append(out, [3]string{"instance", "quill", s})
			continue
		}
		frag, ok := strings.CutPrefix(s, doc+"#")
		if !ok {
			continue
		}
		kind, id, ok := strings.Cut(frag, "/")
		if ok {
			out = append(out, [3]string{kind, id, s})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][2] < out[j][2] })
	return doc, out
}

// TestEveryMintedIRIDereferences (issue 25.10): every subject the export
// mints under the instance — skills, Tools, processes and their nodes,
// beans, packages, tool skills, contracts, servers, and the findings,
// source files, lanes, scripts and the instance that were 404 before —
// answers /id/<kind>/<id> with its JSON-LD, N-Quads and Turtle by Accept;
// a browser is redirected to a view the page has (never "No view called
// …") or, for a kind no view shows, given the JSON-LD.
func TestEveryMintedIRIDereferences(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Corpus: copyTree(t, "../../examples/harness")})
	_, iris := exampleIRIs(t, srv)
	app, err := os.ReadFile("../../web/assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]bool{"": true} // "#/" is the overview
	for _, m := range regexp.MustCompile(`registerView\("([a-z]+)"`).FindAllStringSubmatch(string(app), -1) {
		views[m[1]] = true
	}
	kinds := map[string]int{}
	get := func(path, accept string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept", accept)
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	var turtle, nquads strings.Builder
	for _, k := range iris {
		kind, id, iri := k[0], k[1], k[2]
		if kind == "skill" && strings.Count(id, "/") > 1 {
			continue // a skill's nodes (its shell blocks, ports) are parts, not entities
		}
		kinds[kind]++
		path := "/id/" + kind + "/" + id
		res, body := get(path, "application/ld+json")
		if res.StatusCode != 200 || !strings.Contains(body, iri) && !strings.Contains(body, `"@id"`) {
			t.Errorf("%s as JSON-LD: %d %s", path, res.StatusCode, body)
			continue
		}
		for _, accept := range []string{"application/n-quads", "text/turtle"} {
			res, body := get(path, accept)
			// a bare skill name is an alias: its document is the skill's
			want := "<" + iri + ">"
			if kind == "skill" && !strings.Contains(id, "/") {
				want = "#skill/"
			}
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != accept || !strings.Contains(body, want) {
				t.Errorf("%s as %s: %d %q %s", path, accept, res.StatusCode, res.Header.Get("Content-Type"), body)
			}
			if kinds[kind] == 1 { // one of each kind for the RDF parser below
				if accept == "text/turtle" {
					turtle.WriteString(body)
				} else {
					nquads.WriteString(body)
				}
			}
		}
		res, body = get(path, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
		switch res.StatusCode {
		case http.StatusSeeOther:
			loc := res.Header.Get("Location")
			view, _, _ := strings.Cut(strings.TrimPrefix(loc, "/#/"), "/")
			view, _, _ = strings.Cut(view, "?")
			if !strings.HasPrefix(loc, "/#/") || !views[view] {
				t.Errorf("%s: a browser is sent to %s, which is no view of the page", path, loc)
			}
		case http.StatusOK:
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/ld+json") {
				t.Errorf("%s: a browser gets %s", path, res.Header.Get("Content-Type"))
			}
		default:
			t.Errorf("%s: a browser gets %d %s", path, res.StatusCode, body)
		}
	}
	for _, kind := range []string{"skill", "tool", "process", "bean", "package", "toolskill", "finding", "source", "lane", "script", "instance"} {
		if kinds[kind] == 0 {
			t.Errorf("the example corpus minted no %s IRI to try (kinds: %v)", kind, kinds)
		}
	}
	// Redirects of the kinds the issue names land on their closest view.
	for path, want := range map[string]string{
		"/id/package/editorial":                    "/#/queue?package=editorial",
		"/id/instance/quill":                       "/#/",
		"/id/lane/Process_PublishRelease/Lane_Bot": "/#/process/",
	} {
		res, _ := get(path, "text/html")
		if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, want) {
			t.Errorf("%s: redirected to %q, want %q…", path, loc, want)
		}
	}
	checkRDFSyntax(t, turtle.String(), nquads.String())
}

// checkRDFSyntax parses the Turtle and N-Quads with the independent n3
// library (npm) when the conformance clients are installed.
func checkRDFSyntax(t *testing.T, turtle, nquads string) {
	node, mods := nodeClients(t)
	dir := t.TempDir()
	ttl, nq := filepath.Join(dir, "x.ttl"), filepath.Join(dir, "x.nq")
	os.WriteFile(ttl, []byte(turtle), 0o644)
	os.WriteFile(nq, []byte(nquads), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/rdf_parse.mjs", ttl, nq)
	cmd.Env = append(os.Environ(), "SKILLGRAPH_NODE_MODULES="+mods)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("n3 parse: %v\n%s", err, out)
	}
	var got struct{ Turtle, NQuads int }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Turtle == 0 || got.NQuads < got.Turtle {
		t.Errorf("n3 read %d triples of Turtle and %d quads of N-Quads", got.Turtle, got.NQuads)
	}
}
