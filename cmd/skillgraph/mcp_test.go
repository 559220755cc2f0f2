package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServeOverPipes runs `skillgraph mcp` as a subprocess and drives
// it with the SDK's client over its stdin and stdout: initialize,
// tools/list, every tool once on the example corpus, an unknown tool.
func TestMCPServeOverPipes(t *testing.T) {
	bin := skillgraphBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--corpus", "../../examples/harness")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pipe-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if r := cs.InitializeResult(); r == nil || r.ServerInfo.Name != "skillgraph" || r.Capabilities.Tools == nil {
		t.Fatalf("initialize result %+v", r)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 8 {
		t.Fatalf("tools/list: %v, %d tools", err, len(list.Tools))
	}
	for name, args := range map[string]map[string]any{
		"coverage":            {},
		"find_tool_for_skill": {"skill": "summarize-feedback"},
		"reachability":        {"kind": "tool", "id": "feedback-digest"},
		"findings":            {"file": "mcp/cms.json"},
		"graphql":             {"query": "{ graphVersion }"},
		"list_skills":         {"text": "feedback"},
		"get_skill":           {"skill": "summarize-feedback"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError || res.StructuredContent == nil {
			t.Errorf("%s: %v %+v", name, err, res)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_tool_for_skill", Arguments: map[string]any{"skill": "summarize-feedback"}})
	if err == nil {
		b, _ := json.Marshal(res.StructuredContent)
		if !strings.Contains(string(b), `"id":"feedback-digest"`) {
			t.Errorf("find_tool_for_skill: %s", b)
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("unknown tool: no error")
	}
}

// TestMCPMalformedIsAnError writes raw lines to `skillgraph mcp`: a line
// that is not JSON and one that is no JSON-RPC message are each answered
// with a JSON-RPC error, and the server goes on to answer initialize; at
// the end of stdin it exits 0 after its last answer.
func TestMCPMalformedIsAnError(t *testing.T) {
	bin := skillgraphBinary(t)
	cmd := exec.Command(bin, "mcp", "--corpus", "../../examples/harness")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = io.WriteString(in, "{not json\n"+`{"id": 7, "method": "x"}`+"\n"+
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
		_ = in.Close()
	}()
	var got []map[string]any
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON on stdout: %q", sc.Text())
		}
		got = append(got, m)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("%d answers, want 3: %v", len(got), got)
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	if code(got[0]) != -32700 || got[0]["id"] != nil {
		t.Errorf("not JSON: %v, want -32700 with id null", got[0])
	}
	if code(got[1]) != -32600 || got[1]["id"] != float64(7) {
		t.Errorf("no jsonrpc member: %v, want -32600 with id 7", got[1])
	}
	if r, _ := got[2]["result"].(map[string]any); r["protocolVersion"] != "2025-11-25" {
		t.Errorf("initialize: %v", got[2])
	}
}
