package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagramServesTheFileAsRead: /diagram/{id} hands out the BPMN file a
// process was read from, byte for byte, as inert XML; by id or file stem;
// a file edited since the ingest (its digest no longer the snapshot's),
// an unknown process and a path outside the corpus are 404s.
func TestDiagramServesTheFileAsRead(t *testing.T) {
	e := start(t, "", nil)
	file := filepath.Join(e.root, "processes", "release.bpmn")
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		code int
	}{
		{"/diagram/Process_Release", http.StatusOK},
		{"/diagram/release", http.StatusOK}, // the file stem
		{"/diagram/Process_Nope", http.StatusNotFound},
		{"/diagram/..%2Fgo.mod", http.StatusNotFound},
	} {
		res, body := do(t, http.MethodGet, e.srv.URL+c.path, nil)
		if res.StatusCode != c.code {
			t.Errorf("GET %s: %d, want %d (%s)", c.path, res.StatusCode, c.code, body)
			continue
		}
		if c.code != http.StatusOK {
			continue
		}
		if string(body) != string(want) {
			t.Errorf("GET %s: the body is not the file as read", c.path)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: Content-Type %q, nosniff %q", c.path, ct, res.Header.Get("X-Content-Type-Options"))
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
			t.Errorf("GET %s: CSP %q, want a sandbox (the file is data, never a document)", c.path, csp)
		}
	}
	// Edited after the ingest (no --watch here): not the file the answers describe.
	if err := os.WriteFile(file, append(want, []byte("<!-- edited -->")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, body := do(t, http.MethodGet, e.srv.URL+"/diagram/Process_Release", nil); res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "changed or removed") {
		t.Errorf("edited file: %d %s, want 404 saying it changed", res.StatusCode, body)
	}
}
