package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestJSONLDExportWithDefaultLoader: jsonld.js with its default settings
// reads the live server's JSON-LD export, and the same export written to a
// file, into as many quads as the N-Quads export holds (issue 25.2: the
// export named a context IRI that resolves nowhere, and every default
// processor failed).
func TestJSONLDExportWithDefaultLoader(t *testing.T) {
	node, mods := nodeClients(t)
	e := start(t, "", nil)
	defer e.srv.Close()
	get := func(accept string) []byte {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/export", nil)
		req.Header.Set("Accept", accept)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("export %s: %d %s", accept, res.StatusCode, b)
		}
		return b
	}
	want := 0
	for _, l := range strings.Split(string(get("application/n-quads")), "\n") {
		if strings.TrimSpace(l) != "" {
			want++
		}
	}
	file := filepath.Join(t.TempDir(), "export.jsonld")
	if err := os.WriteFile(file, get("application/ld+json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{e.srv.URL + "/export?format=jsonld", file} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, node, "testdata/jsonld_default.mjs", src)
		cmd.Env = append(os.Environ(), "SKILLGRAPH_NODE_MODULES="+mods)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("node %s: %v\n%s", src, err, stderr.String())
		}
		var got struct {
			Quads int
			Error string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("node output %s: %v", out, err)
		}
		if got.Error != "" || got.Quads != want {
			t.Errorf("jsonld.js toRDF of %s: %d quads, error %q; the N-Quads export has %d", src, got.Quads, got.Error, want)
		}
	}
}
