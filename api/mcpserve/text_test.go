package mcpserve_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/mcpserve"
	"github.com/skillgraph/skillgraph/queries"
)

// serveWith is connect with the corpus folders read back (as `skillgraph
// mcp --corpus` and `serve --corpus` do).
func serveWith(t *testing.T, snap *queries.Snapshot, folders ...string) *mcp.ClientSession {
	t.Helper()
	files, err := api.OpenCorpusFolders(folders)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = files.Close() })
	cs, _ := connectWith(t, snap, func(o *mcpserve.Options) { o.Files = files })
	return cs
}

// TestSkillText: get_skill and the skill resource carry the skill file as
// it is in the corpus, byte for byte, with its resources; once the file
// changes after the answered version, the text is left out rather than
// answering a file the graph did not read.
func TestSkillText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "harness")
	if err := os.CopyFS(dir, os.DirFS("../../examples/harness")); err != nil {
		t.Fatal(err)
	}
	snap := snapshotOf(t, dir)
	var sk *queries.Skill
	for _, s := range snap.Skills {
		if s.Package != "" && s.Source != nil {
			sk = s
			break
		}
	}
	if sk == nil {
		t.Fatal("no packaged skill in the example")
	}
	want, err := os.ReadFile(filepath.Join(dir, sk.Source.Path))
	if err != nil {
		t.Fatal(err)
	}
	cs := serveWith(t, snap, dir)
	ref := sk.Package + "/" + sk.Name
	var out mcpserve.GetSkillOut
	call(t, cs, "get_skill", map[string]any{"skill": ref}, &out)
	if out.Text != string(want) {
		t.Fatalf("get_skill %s text = %q, want the file %s", ref, out.Text, sk.Source.Path)
	}
	if out.Resources == nil {
		t.Error("resources is null, want a list")
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://" + ref})
	if err != nil {
		t.Fatal(err)
	}
	var fromResource mcpserve.GetSkillOut
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &fromResource); err != nil {
		t.Fatal(err)
	}
	if fromResource.Text != string(want) {
		t.Errorf("the resource's text differs from the file")
	}

	// Changed after the answered version: no text.
	if err := os.WriteFile(filepath.Join(dir, sk.Source.Path), append(want, "\nedited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mcpserve.GetSkillOut{}
	call(t, cs, "get_skill", map[string]any{"skill": ref}, &out)
	if out.Text != "" {
		t.Errorf("text of a file changed since the version = %q, want none", out.Text)
	}
	// A server that reads no corpus folder has no text.
	cs2, _ := connect(t, snap)
	out = mcpserve.GetSkillOut{}
	call(t, cs2, "get_skill", map[string]any{"skill": ref}, &out)
	if out.Text != "" {
		t.Errorf("text without corpus folders = %q, want none", out.Text)
	}
}

// TestCompletion: the skill template's arguments complete from the
// graph (package names, then the ids of the chosen package); any other
// reference is invalid params.
func TestCompletion(t *testing.T) {
	snap := snapshotOf(t, "../../examples/harness")
	cs, _ := connect(t, snap)
	ctx := context.Background()
	pkgs := map[string]bool{}
	var pkg, name string
	for _, s := range snap.Skills {
		if s.Package != "" {
			pkgs[s.Package] = true
			pkg, name = s.Package, s.Name
		}
	}
	res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: mcpserve.SkillURITemplate},
		Argument: mcp.CompleteParamsArgument{Name: "package", Value: ""}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Completion.Values) != len(pkgs) || res.Completion.Total != len(pkgs) {
		t.Errorf("package completions %v, want the %d packages", res.Completion.Values, len(pkgs))
	}
	res, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: mcpserve.SkillURITemplate},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: name[:1]}, Context: &mcp.CompleteContext{Arguments: map[string]string{"package": pkg}}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range res.Completion.Values {
		if !strings.HasPrefix(v, name[:1]) {
			t.Errorf("id completion %q does not start with %q", v, name[:1])
		}
		found = found || v == name
	}
	if !found {
		t.Errorf("id completions %v lack %s of package %s", res.Completion.Values, name, pkg)
	}
	if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "nope"},
		Argument: mcp.CompleteParamsArgument{Name: "x"}}); err == nil || !strings.Contains(err.Error(), "-32602") && !strings.Contains(err.Error(), "no completion") {
		t.Errorf("unknown prompt ref: err %v, want invalid params", err)
	}
}
