package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// TestMintedDocumentIRIsDereference: with iriBase pointing at the service,
// the document IRI every minted node IRI lies in (<iriBase><name>.jsonld)
// answers the instance's nodes as JSON-LD, or the page for browsers; other
// .jsonld paths are not taken (issue 23.7).
func TestMintedDocumentIRIsDereference(t *testing.T) {
	root := copyTree(t, testCorpus)
	decl := `{"name": "mini", "iriBase": "http://skillgraph.test/kb/", "directories": [
    {"id": "skills", "path": "skills/", "graphTypologies": ["skills"]},
    {"id": "tools", "path": "tools/", "graphTypologies": ["tools"]},
    {"id": "processes", "path": "processes/", "graphTypologies": ["processes"]}]}`
	if err := os.WriteFile(filepath.Join(root, "harness.json"), []byte(decl), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := servertest.Start(t, servertest.Options{Corpus: root, Metrics: server.NewMetrics()})
	snap := srv.Service.Snapshot()
	if len(snap.Skills) == 0 || !strings.HasPrefix(snap.Skills[0].IRI, "http://skillgraph.test/kb/mini.jsonld#") {
		t.Fatalf("fixture: skills %d, first IRI %v", len(snap.Skills), snap.Skills)
	}
	res, body := do(t, http.MethodGet, srv.URL+"/kb/mini.jsonld", map[string]string{"Accept": "application/ld+json"})
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/ld+json") {
		t.Fatalf("document IRI: %d %s %.200s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	for _, sk := range snap.Skills {
		frag := sk.IRI[strings.Index(sk.IRI, "#"):]
		if !strings.Contains(string(body), frag) {
			t.Errorf("the document does not hold %s", sk.IRI)
		}
	}
	if res, _ := do(t, http.MethodGet, srv.URL+"/kb/mini.jsonld", map[string]string{"Accept": "text/html"}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("browser: %d, want 303 to the page", res.StatusCode)
	}
	if res, _ := do(t, http.MethodGet, srv.URL+"/kb/other.jsonld", map[string]string{"Accept": "application/ld+json"}); res.StatusCode == http.StatusOK {
		t.Errorf("a path no instance mints: %d", res.StatusCode)
	}
	if res, body := do(t, http.MethodGet, srv.URL+"/context.jsonld", nil); res.StatusCode != http.StatusOK || !strings.Contains(string(body), "@context") {
		t.Errorf("/context.jsonld: %d", res.StatusCode)
	}
}
