package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverHTTP: POST /mcp of `serve` is the MCP server over Streamable
// HTTP: the SDK's client initializes, lists the tools and gets the same
// coverage as /graphql; a malformed body is a JSON-RPC error, not a crash.
func TestMCPOverHTTP(t *testing.T) {
	e := start(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 7 {
		t.Fatalf("tools/list: %v, %+v", err, list)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "coverage", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("coverage: %v %+v", err, res)
	}
	got, _ := json.Marshal(res.StructuredContent)
	_, gq, _ := e.post(t, `{ coverage { total uncovered tiers { count tier } } }`, nil)
	want, _ := json.Marshal(gq.Data["coverage"])
	if string(got) != string(want) {
		t.Errorf("coverage over MCP %s, /graphql %s", got, want)
	}

	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/mcp", strings.NewReader("{not json"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	var rpc struct {
		ID    any
		Error struct{ Code int }
	}
	if r.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &rpc) != nil || rpc.Error.Code != -32700 || rpc.ID != nil {
		t.Errorf("malformed body: status %d %s, want 400 with a JSON-RPC parse error", r.StatusCode, body)
	}
	if live, err := http.Get(e.srv.URL + "/healthz"); err != nil || live.StatusCode != http.StatusOK {
		t.Errorf("the server is gone after a malformed MCP request: %v", err)
	}
}

// TestSkillTextOverGraphQL: Skill.text is the skill file as ingested on a
// server that reads its corpus folder, and null once the file changed
// after the served version (nothing is answered that the graph did not
// read).
func TestSkillTextOverGraphQL(t *testing.T) {
	e := start(t, "", nil)
	_, gq, _ := e.post(t, `{ skills(first: 1) { nodes { id source text } } }`, nil)
	nodes := gq.Data["skills"].(map[string]any)["nodes"].([]any)
	if len(nodes) == 0 {
		t.Fatal("no skills")
	}
	sk := nodes[0].(map[string]any)
	path := filepath.Join(e.root, sk["source"].(string))
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sk["text"] != string(want) {
		t.Fatalf("text of %s = %v, want the file", sk["id"], sk["text"])
	}
	if err := os.WriteFile(path, append(want, " changed"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, gq, _ = e.post(t, fmt.Sprintf(`{ skill(id: %q) { text } }`, sk["id"]), nil)
	if gq.Data["skill"] == nil {
		t.Fatalf("skill %v: %v", sk["id"], gq.Errors)
	}
	if got := gq.Data["skill"].(map[string]any)["text"]; got != nil {
		t.Errorf("text after the file changed = %v, want null", got)
	}
}
