package tool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/tsmodule"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// comparable is a Tool as JSON, without lines (the lines of a module and
// of a JSON file differ by construction) and without the unknown-field
// bag's line-bearing parts (Refs maps references to their lines).
func comparable(t *testing.T, tl record.Tool) string {
	t.Helper()
	tl.Line = 0
	for i := range tl.Inputs {
		tl.Inputs[i].Line = 0
	}
	for i := range tl.Outputs {
		tl.Outputs[i].Line = 0
	}
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	zeroLines(v)
	b, _ = json.Marshal(v)
	return string(b)
}

// zeroLines clears every "Line"-like key in nested records.
func zeroLines(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "Refs" || k == "Line" || k == "InputLine" || k == "OutputLine" || (len(k) > 4 && k[len(k)-4:] == "Line") {
				delete(x, k)
				continue
			}
			zeroLines(e)
		}
	case []any:
		for _, e := range x {
			zeroLines(e)
		}
	}
}

func dirLoader(root string) tsmodule.Loader {
	return func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))) }
}

// readModules reads every module of dir/tools with the vocabulary module.
func readModules(t *testing.T, root string, modules []string) (map[string]record.Tool, []record.Finding, *vocab.Vocabulary) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "schemas", "tool-types.ts"))
	if err != nil {
		t.Fatal(err)
	}
	voc, err := vocab.ParseModule("schemas/tool-types.ts", src, "", dirLoader(root))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]record.Tool{}
	var findings []record.Finding
	for _, m := range modules {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m)))
		if err != nil {
			t.Fatal(err)
		}
		f := ParseModule(m, data, voc, dirLoader(root))
		for _, tl := range f.Tools {
			if _, dup := got[tl.ID]; dup {
				t.Errorf("%s: Tool %s read twice", m, tl.ID)
			}
			got[tl.ID] = tl
		}
		findings = append(findings, f.Findings...)
	}
	return got, findings, voc
}

// readJSON reads the JSON Tool files of a corpus.
func readJSON(t *testing.T, dir string, voc *vocab.Vocabulary) map[string]record.Tool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	want := map[string]record.Tool{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range Parse("tools/"+filepath.Base(p), data, voc).Tools {
			want[tl.ID] = tl
		}
	}
	return want
}

// TestRealWorldModulesEqualJSON: the cat-harness corpus with its Tools as
// TypeScript modules reads to exactly the Tools of the same corpus as JSON
// files (issue #13). It needs ../shared, which the project does not ship.
func TestRealWorldModulesEqualJSON(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "realworld", "cat-harness-ts")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("%s not present (the realworld corpora live beside the project, not in it)", root)
	}
	got, findings, voc := readModules(t, root, []string{"tools/index.ts", "tools/viewers.ts", "tools/mcp.ts", "tools/sessions.ts", "tools/vocab-map.ts"})
	want := readJSON(t, filepath.Join(root, "..", "cat-harness", "tools"), voc)
	if len(got) != len(want) || len(got) != 143 {
		t.Errorf("read %d Tools from modules, %d from JSON, want 143 each", len(got), len(want))
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	differ := 0
	for _, id := range ids {
		g, ok := got[id]
		if !ok {
			t.Errorf("Tool %s: not read from the modules", id)
			continue
		}
		if gs, ws := comparable(t, g), comparable(t, want[id]); gs != ws {
			differ++
			if id != "cat-harness-schema" {
				t.Errorf("Tool %s differs:\n got %s\nwant %s", id, gs, ws)
			}
		}
	}
	if differ != 1 {
		t.Errorf("%d Tools differ, want exactly 1 (cat-harness-schema's run-time artefact)", differ)
	}
	dynamic := 0
	for _, f := range findings {
		switch f.Code {
		case record.CodeToolModuleDynamic:
			dynamic++
			if f.Subject != "cat-harness-schema" || f.File != "tools/index.ts" {
				t.Errorf("unexpected dynamic finding %+v", f)
			}
		case record.CodePortTypeUnknown, record.CodeParseError, record.CodeToolModuleNotEvaluated:
			t.Errorf("unexpected finding %+v", f)
		}
	}
	if dynamic != 1 {
		t.Errorf("%d tool-module-dynamic findings, want 1", dynamic)
	}
}
