package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
)

// TestMCPDiffEqualsDiffCommand: the diff tool of `skillgraph mcp` answers
// what `skillgraph diff --base REV --format json` answers for the same
// revision (the one implementation, queries/diff), reads only revisions
// (a folder path is refused: an agent names no paths on the server), and
// cuts its lists to the limit saying what it cut.
func TestMCPDiffEqualsDiffCommand(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "harness")
	base := repo.Commit("the example", func(string) { gittest.CopyTree(t, exampleCorpus, corpus) })
	repo.Commit("a Tool removed", func(string) {
		if err := os.Remove(filepath.Join(corpus, "tools", "outline-gen.json")); err != nil {
			t.Fatal(err)
		}
	})
	cliOut, errs, code := runCLI(t, "diff", "--base", base, "--corpus", corpus, "--format", "json")
	if code != 1 {
		t.Fatalf("diff: exit %d, %s", code, errs)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(cliOut), &want); err != nil {
		t.Fatal(err)
	}
	delete(want, "failing") // the command's --fail-on, not part of the answer

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "diff-test", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: exec.Command(skillgraphBinary(t), "mcp", "--corpus", corpus)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "diff", Arguments: map[string]any{"base": base}})
	if err != nil || res.IsError {
		t.Fatalf("diff tool: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff tool:\n%s\nwant (diff --format json):\n%s", b, cliOut)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "diff", Arguments: map[string]any{"base": base, "limit": 1}})
	if err != nil || res.IsError {
		t.Fatalf("diff tool, limit 1: %v %+v", err, res)
	}
	var cut map[string]any
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &cut); err != nil {
		t.Fatal(err)
	}
	truncated, _ := cut["truncated"].(map[string]any)
	long := 0
	for name, v := range want {
		full, ok := v.([]any)
		if !ok || name == "worse" {
			continue
		}
		if n := len(cut[name].([]any)); n > 1 {
			t.Errorf("limit 1: %s has %d entries", name, n)
		}
		if len(full) > 1 {
			long++
			if truncated[name] != float64(len(full)) {
				t.Errorf("limit 1: truncated[%s] = %v, want %d", name, truncated[name], len(full))
			}
		}
	}
	if long == 0 || len(truncated) != long {
		t.Errorf("limit 1: %d lists over the limit, truncated %v", long, truncated)
	}

	for _, bad := range []string{corpus, "no-such-revision", ""} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "diff", Arguments: map[string]any{"base": bad}})
		if err != nil || !res.IsError {
			t.Errorf("diff base %q: %v %+v, want a tool error", bad, err, res)
		}
	}
}
