package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/skillgraph/skillgraph/queries"
)

// TestExportMCPTools: GET /export?format=mcp-tools is the snapshot's
// projection (the same value the CLI prints), ?server= narrows it, and a
// repeat with the ETag is 304.
func TestExportMCPTools(t *testing.T) {
	e := start(t, "", nil)
	get := func(path, inm string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	res, body := get("/export?format=mcp-tools", "")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, type %q: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	want, _ := json.Marshal(e.svc.Snapshot().MCPTools(""))
	var got queries.MCPToolsList
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(got); string(again) != string(want) || len(got.Tools) == 0 {
		t.Errorf("body =\n%s\nwant\n%s", again, want)
	}
	if res2, _ := get("/export?format=mcp-tools", res.Header.Get("ETag")); res2.StatusCode != http.StatusNotModified {
		t.Errorf("with If-None-Match: status %d, want 304", res2.StatusCode)
	}
	_, narrowed := get("/export?format=mcp-tools&server=no-such-server", "")
	if string(narrowed) != "{\"tools\":[]}\n" {
		t.Errorf("?server=no-such-server = %s, want no tools", narrowed)
	}
	if res3, _ := get("/export?format=mcp", ""); res3.StatusCode != http.StatusBadRequest {
		t.Errorf("format=mcp: status %d, want 400", res3.StatusCode)
	}
}
