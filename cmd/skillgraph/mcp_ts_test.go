package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// tsClient is scripts/conformance/mcp-client.mjs when the MCP TypeScript
// SDK is installed ($SKILLGRAPH_NODE_MODULES, set by scripts/test.sh); the
// test skips without it and fails when SKILLGRAPH_REQUIRE_CONFORMANCE=1.
func tsClient(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SKILLGRAPH_NODE_MODULES")
	_, err := os.Stat(filepath.Join(dir, "@modelcontextprotocol", "sdk", "package.json"))
	if dir == "" || err != nil {
		if os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			t.Fatalf("SKILLGRAPH_REQUIRE_CONFORMANCE=1 but the MCP TypeScript SDK is not in SKILLGRAPH_NODE_MODULES=%q: %v", dir, err)
		}
		t.Skip("the MCP TypeScript SDK is not installed: set SKILLGRAPH_NODE_MODULES (cd scripts/conformance && npm ci)")
	}
	script, err := filepath.Abs("../../scripts/conformance/mcp-client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return script
}

// tsRun is what the TypeScript client saw.
type tsRun struct {
	Server string
	Tools  []struct {
		Name                    string
		ReadOnly, Input, Output bool
	}
	Calls map[string]struct {
		IsError    bool
		Structured json.RawMessage
	}
	Resource struct {
		Text, ToolText string
	}
	UnknownTool  struct{ Error any }
	BadArguments struct{ IsError bool }
	Failure      string
}

// TestMCPWithTypeScriptClient: the official TypeScript SDK, an
// independent client, drives `skillgraph mcp` over stdio and `serve`'s
// POST /mcp over HTTP on a real corpus (cat-harness-ts when the real
// corpora are beside the repository): initialize, tools/list, every tool
// once (its structured answer validated by the SDK against the tool's
// output schema), a skill resource read (the text of get_skill), an unknown tool (a JSON-RPC error) and bad arguments (a
// tool error).
func TestMCPWithTypeScriptClient(t *testing.T) {
	script := tsClient(t)
	corpus, pkg, skill, tool := "../../../shared/realworld/cat-harness-ts", "sdlc-core", "coordinate", "github"
	if _, err := os.Stat(corpus); err != nil {
		corpus, pkg, skill, tool = "../../examples/harness", "summarize-feedback", "summarize-feedback", "feedback-digest"
	}
	all := map[string]any{
		"coverage":            map[string]any{},
		"find_tool_for_skill": map[string]any{"skill": skill},
		"reachability":        map[string]any{"kind": "tool", "id": tool},
		"findings":            map[string]any{"first": 5},
		"graphql":             map[string]any{"query": "{ graphVersion coverage { total } }"},
		"list_skills":         map[string]any{"first": 3},
		"get_skill":           map[string]any{"skill": skill},
	}
	bin := skillgraphBinary(t)
	srv := servertest.Start(t, servertest.Options{Corpus: corpus})
	// Over stdio the corpus is committed to a repository, so the diff
	// tool (offered where the corpus folder is read) has a revision to
	// compare with; the test server reads no repository and lists no diff.
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	committed := filepath.Join(repo.Dir, filepath.Base(corpus))
	repo.Commit("the corpus", func(string) { gittest.CopyTree(t, corpus, committed) })
	for _, c := range []struct {
		name  string
		args  []string
		tools string
	}{
		{"stdio", []string{script, "stdio", bin, committed}, "coverage,diff,find_tool_for_skill,findings,get_skill,graphql,list_skills,reachability"},
		{"http", []string{script, "http", srv.URL + "/mcp"}, "coverage,find_tool_for_skill,findings,get_skill,graphql,list_skills,reachability"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := map[string]any{}
			for name, args := range all {
				want[name] = args
			}
			if strings.Contains(c.tools, "diff") {
				want["diff"] = map[string]any{"base": "HEAD"}
			}
			calls, _ := json.Marshal(want)
			cmd := exec.Command("node", c.args...)
			cmd.Env = append(os.Environ(), "MCP_CALLS="+string(calls), "MCP_RESOURCE=skill://"+pkg+"/"+skill)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			var r tsRun
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("client output %q: %v", out, err)
			}
			if r.Failure != "" {
				t.Fatalf("client failed: %s", r.Failure)
			}
			var names []string
			for _, tl := range r.Tools {
				names = append(names, tl.Name)
				if !tl.ReadOnly || !tl.Input || !tl.Output {
					t.Errorf("%s: readOnly %v input %v output %v", tl.Name, tl.ReadOnly, tl.Input, tl.Output)
				}
			}
			if r.Server != "skillgraph" || strings.Join(names, ",") != c.tools {
				t.Errorf("server %q tools %v, want %s", r.Server, names, c.tools)
			}
			if len(r.Calls) != len(want) {
				t.Errorf("%d calls answered, want %d", len(r.Calls), len(want))
			}
			for name, res := range r.Calls {
				if res.IsError || len(res.Structured) == 0 || string(res.Structured) == "null" {
					t.Errorf("%s: isError %v, structured %s", name, res.IsError, res.Structured)
				}
			}
			if !strings.Contains(string(r.Calls["find_tool_for_skill"].Structured), `"id":"`+tool+`"`) {
				t.Errorf("find_tool_for_skill %s: no Tool %s", skill, tool)
			}
			if code, ok := r.UnknownTool.Error.(float64); !ok || code != -32602 {
				t.Errorf("unknown tool: %v, want JSON-RPC error -32602", r.UnknownTool.Error)
			}
			if r.Resource.Text == "" || r.Resource.Text != r.Resource.ToolText || !strings.Contains(r.Resource.Text, `"id": "`+skill+`"`) {
				t.Errorf("resource skill://%s/%s: %q, get_skill's text %q", pkg, skill, r.Resource.Text, r.Resource.ToolText)
			}
			if !r.BadArguments.IsError {
				t.Error("bad arguments: no tool error")
			}
		})
	}
}
