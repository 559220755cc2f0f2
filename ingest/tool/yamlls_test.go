package tool

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// TestYAMLLanguageServer runs the real yaml-language-server (npm; the
// server behind VS Code's, Neovim's and Zed's YAML support) over the
// example Tool files and over a copy of one with a typo'd key (issue
// 25.3): the examples get exactly the diagnostics skillgraph's own
// tool-invalid and tool-unknown-field findings have (by line: none but
// site-tools.yaml's deliberate missing install), the typo is reported at
// its line, and the same file with the yaml-language-server line at its
// end (where the examples had it) gets nothing, which is why the line
// must come first. Skips without SKILLGRAPH_NODE_MODULES (scripts/test.sh
// installs the clients), fails when it is set but broken.
func TestYAMLLanguageServer(t *testing.T) {
	mods := os.Getenv("SKILLGRAPH_NODE_MODULES")
	if mods == "" {
		if os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			t.Fatal("SKILLGRAPH_REQUIRE_CONFORMANCE=1 but SKILLGRAPH_NODE_MODULES is unset")
		}
		t.Skip("SKILLGRAPH_NODE_MODULES unset: cd scripts/conformance && npm ci, then set it to that node_modules")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("SKILLGRAPH_NODE_MODULES is set but node is missing: %v", err)
	}
	root, err := filepath.Abs("../../examples/harness/tools")
	if err != nil {
		t.Fatal(err)
	}
	examples, _ := filepath.Glob(filepath.Join(root, "*.yaml"))
	if len(examples) < 3 {
		t.Fatalf("found only %d example YAML Tool files", len(examples))
	}
	// The typo'd copies sit beside the examples so that their
	// yaml-language-server line resolves to the same schema.
	data, err := os.ReadFile(filepath.Join(root, "linkcheck.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	typo := strings.Replace(rest, "\ntitle:", "\ntitel:", 1)
	if typo == rest {
		t.Fatal("linkcheck.yaml has no title line to misspell")
	}
	top := filepath.Join(root, "zz-test-typo-top.yaml")
	bottom := filepath.Join(root, "zz-test-typo-bottom.yaml")
	for p, body := range map[string]string{top: first + "\n" + typo, bottom: typo + first + "\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(p) })
	}
	typoLine := 1 + strings.Count(typo[:strings.Index(typo, "titel:")], "\n") + 1

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"testdata/yaml_ls.mjs"}, append(examples, top, bottom)...)...)
	cmd.Env = append(os.Environ(), "SKILLGRAPH_NODE_MODULES="+mods)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("yaml-language-server client: %v\n%s", err, out)
	}
	type diag struct {
		Line    int
		Message string
	}
	var got map[string][]diag
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	for _, p := range examples {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]bool{}
		for _, f := range Parse(filepath.Base(p), data, vocab.Default("")).Findings {
			if f.Code == record.CodeToolInvalid || f.Code == record.CodeToolUnknownField {
				want[f.Line] = true
			}
		}
		lines := map[int]bool{}
		for _, d := range got[p] {
			lines[d.Line] = true
		}
		if !maps.Equal(lines, want) {
			t.Errorf("%s: the language server reports %+v; skillgraph's schema findings are on lines %v", filepath.Base(p), got[p], slices.Sorted(maps.Keys(want)))
		}
	}
	found := false
	for _, d := range got[top] {
		found = found || (d.Line == typoLine && strings.Contains(d.Message, "titel"))
	}
	if !found {
		t.Errorf("the typo'd key on line %d is not reported: %+v", typoLine, got[top])
	}
	if d := got[bottom]; len(d) > 0 {
		t.Logf("with the line at the end the server reports %+v (it used to read it only at the top)", d)
	}
}
