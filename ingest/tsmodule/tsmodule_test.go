package tsmodule

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fixtureLoader(root string) Loader {
	return func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	}
}

func readFixture(t *testing.T, rel string) ([]Tool, []Dynamic, *Program) {
	t.Helper()
	root := filepath.Join("testdata", "harness")
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	p := NewProgram(fixtureLoader(root), Limits{})
	tools, dyn, err := p.Tools(rel, src)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return tools, dyn, p
}

func toolJSON(t *testing.T, tl Tool) string {
	t.Helper()
	return canonical(tl.Node)
}

// TestToolShapes reads the module shapes of SPEC §2.8: literal defineTool
// calls, helpers spread into invoke, shared constants, a .map over a
// literal table with a conditional spread, another module's array spread
// in, a default-exported toolFactory, t("Name") in type positions, and a
// value computed at run time.
func TestToolShapes(t *testing.T) {
	cases := []struct {
		module  string
		want    map[string]string // id → canonical JSON
		lines   map[string]int
		dynamic []string // "line field"
	}{
		{
			module: "tools/index.ts",
			want: map[string]string{
				"notes-archive": `{"description":"Archive the notes of a finished piece of work.","id":"notes-archive","install":{"none":true},"invoke":{"inProcess":{"module":"src/archive.ts"},"mcp":{"tool":"archive_notes"},"shell":"bin/archive"},"io":{"inputs":[{"arg":{"flag":"--path"},"name":"path","required":true,"type":"Path"},{"arg":{"flag":"-n"},"name":"count","required":false,"type":"Count"}],"outputs":[{"name":"archive","type":"NotesPath"}]},"maintains":[{"format":"json-schema","source":"schemas/notes.ts"}],"satisfies":["archive-notes"],"title":"Archive notes"}`,
			},
			lines:   map[string]int{"notes-archive": 20},
			dynamic: []string{"34 maintains[0].artefact"},
		},
		{
			module: "tools/viewers.ts",
			want: map[string]string{
				"notes-viewer": `{"description":"Render pages.","id":"notes-viewer","install":{"none":true},"invoke":{"shell":"bun run notes:viz"},"io":{"inputs":[{"arg":{"flag":"--check"},"name":"check","required":false,"type":"Flag"}],"outputs":[{"name":"pages","type":"Path"}]},"renders":["notes"],"satisfies":["render-pages"],"title":"Viewer notes-viewer"}`,
				"plain-viewer": `{"description":"Render pages.","id":"plain-viewer","install":{"none":true},"invoke":{"shell":"bun run plain:viz"},"io":{"inputs":[{"arg":{"flag":"--check"},"name":"check","required":false,"type":"Flag"}],"outputs":[{"name":"pages","type":"Path"}]},"satisfies":["render-pages"],"title":"Viewer plain-viewer"}`,
			},
			lines: map[string]int{"notes-viewer": 12, "plain-viewer": 12},
		},
		{
			module: "tools/viewer/index.ts",
			want: map[string]string{
				"slug-check": `{"description":"Check a slug.","id":"slug-check","install":{"none":true},"invoke":{"shell":"bin/slug-check"},"io":{"inputs":[{"arg":{"positional":0},"name":"slug","required":true,"type":"Slug"}],"outputs":[{"name":"ok","type":"Flag"}]},"satisfies":["check-slug"],"title":"Slug check"}`,
			},
			lines: map[string]int{"slug-check": 4},
		},
	}
	for _, c := range cases {
		t.Run(c.module, func(t *testing.T) {
			tools, dyn, _ := readFixture(t, c.module)
			if len(tools) != len(c.want) {
				t.Errorf("%d Tools, want %d", len(tools), len(c.want))
			}
			for _, tl := range tools {
				w, ok := c.want[tl.ID]
				if !ok {
					t.Errorf("unexpected Tool %q", tl.ID)
					continue
				}
				if g := toolJSON(t, tl); g != w {
					t.Errorf("Tool %s:\n got %s\nwant %s", tl.ID, g, w)
				}
				if tl.Line != c.lines[tl.ID] {
					t.Errorf("Tool %s at line %d, want %d", tl.ID, tl.Line, c.lines[tl.ID])
				}
			}
			var got []string
			for _, d := range dyn {
				got = append(got, fmt.Sprintf("%d %s", d.Line, d.Field))
			}
			if strings.Join(got, ";") != strings.Join(c.dynamic, ";") {
				t.Errorf("dynamic = %v, want %v", got, c.dynamic)
			}
		})
	}
}

// TestPortLines: a port's key keeps the line it has in the module.
func TestPortLines(t *testing.T) {
	tools, _, _ := readFixture(t, "tools/index.ts")
	io := tools[0].Node
	var inputs []int
	for i := 0; i+1 < len(io.Content); i += 2 {
		if io.Content[i].Value == "io" {
			in := io.Content[i+1].Content[1]
			for _, port := range in.Content {
				inputs = append(inputs, port.Line)
			}
		}
	}
	if fmt.Sprint(inputs) != "[28 29]" {
		t.Errorf("input ports at lines %v, want [28 29]", inputs)
	}
}

func TestVocabulary(t *testing.T) {
	root := filepath.Join("testdata", "harness")
	src, err := os.ReadFile(filepath.Join(root, "schemas", "tool-types.ts"))
	if err != nil {
		t.Fatal(err)
	}
	p := NewProgram(fixtureLoader(root), Limits{})
	doc, err := p.Vocabulary("schemas/tool-types.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$defs":{"Count":{"type":"integer","x-injection-safe":true},"Facts":{"type":"object"},"Flag":{"type":"boolean","x-injection-safe":true},"List":{"type":"array"},"Mode":{"enum":["fast","slow"],"type":"string","x-injection-safe":true},"NotesPath":{"description":"A notes path.","pattern":"^[^\\s]+$","type":"string"},"Path":{"description":"A path.","pattern":"^[^\\s]+$","type":"string"},"Ratio":{"type":"number"},"Slug":{"description":"A slug.","pattern":"^[a-z0-9-]+$","type":"string","x-injection-safe":true}}}`
	if string(doc) != want {
		t.Errorf("vocabulary\n got %s\nwant %s", doc, want)
	}
	if _, err := NewProgram(nil, Limits{}).Vocabulary("v.ts", []byte("export const X = 1;")); err == nil {
		t.Error("a module without a table of Zod schemas gave a vocabulary")
	}
}

// TestHostileModules: code that would run, loop, grow or reach outside is
// unknown or refused, within the limits; nothing of it becomes a value.
func TestHostileModules(t *testing.T) {
	tool := func(id string) string {
		return "export const tools = [defineTool({ id: " + id + ", title: 'T', description: 'D', install: { none: true }, invoke: { manual: true }, satisfies: ['s'] })];\n"
	}
	doubling := func(name string, levels int) string {
		var b strings.Builder
		b.WriteString("const a0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\n")
		for i := 1; i <= levels; i++ {
			fmt.Fprintf(&b, "const a%d = [", i)
			for j := 0; j < 10; j++ {
				fmt.Fprintf(&b, "...a%d, ", i-1)
			}
			b.WriteString("];\n")
		}
		fmt.Fprintf(&b, "const %s = a%d;\n", name, levels)
		return b.String()
	}
	cases := []struct {
		name    string
		src     string
		tools   int    // Tools read
		dynamic string // a substring of some Dynamic's field, "" for none expected
		err     bool   // refused before evaluation
	}{
		{"eval", "const id = eval('\"x\"');\n" + tool("id"), 0, "id", false},
		{"require of a package", "const fs = require('fs');\n" + tool("fs.readFileSync('/etc/passwd', 'utf-8')"), 0, "id", false},
		{"import outside the corpus", "import { n } from '../../../etc/passwd';\n" + tool("n"), 0, "id", false},
		{"self-referencing consts", "const a = b;\nconst b = a;\n" + tool("a"), 0, "id", false},
		{"reassigned let", "let id = 'x';\nid = 'y';\n" + tool("id"), 0, "id", false},
		{"getter", "export const tools = [defineTool({ get id() { return 'x'; }, title: 'T' })];", 0, "id", false},
		{"prototype", "export const tools = [defineTool({ __proto__: { id: 'x' }, title: 'T' })];", 0, "id", false},
		{"setPrototypeOf", "const o = Object.setPrototypeOf({}, { id: 'x' });\nexport const tools = [defineTool({ ...o, title: 'T' })];", 0, "id", false},
		{"infinite recursion", "const f = (n) => f(n);\n" + tool("f(1)"), 0, "id", false},
		{"exponential recursion", "const g = (x) => [g(x), g(x)];\n" + tool("g(1)[0]"), 0, "Tool", false},
		{"huge array", doubling("big", 6) + tool("big[0] + ''"), 0, "Tool", false},
		{"map over a million elements", doubling("big", 6) + "export const tools = big.map((i) => defineTool({ id: 'x' + i }));", 0, "", false},
		{"huge string", "const s0 = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';\nconst s1 = s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0+s0;\nconst s2 = s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1+s1;\nconst s3 = s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2+s2;\nconst s4 = s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3+s3;\nconst s5 = s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4+s4;\n" + tool("s5"), 0, "id", false},
		{"deep nesting", "export const x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + ";", 0, "", false},
		{"statements with effects", "function f() { globalThis.x = 1; return 'x'; }\n" + tool("f()"), 0, "id", false},
		{"loop", "function f() { while (true) {} return 'x'; }\n" + tool("f()"), 0, "id", false},
		{"class", "class A { static id = 'x' }\n" + tool("A.id"), 0, "id", false},
		{"sourceMappingURL to a file", "//# sourceMappingURL=/etc/passwd\n" + tool("'ok'"), 1, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loads := 0
			load := func(rel string) ([]byte, error) {
				loads++
				if strings.HasPrefix(rel, "..") || strings.HasPrefix(rel, "/") {
					t.Errorf("loader asked for %q outside the corpus", rel)
				}
				return nil, errors.New("no such module")
			}
			p := NewProgram(load, Limits{})
			tools, dyn, err := p.Tools("tools/hostile.ts", []byte(c.src))
			if c.err {
				if err == nil {
					t.Fatal("not refused")
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.name == "deep nesting" && !strings.HasPrefix(p.Exhausted, "depth limit") {
				t.Errorf("Exhausted = %q, want the depth limit", p.Exhausted)
			}
			if len(tools) != c.tools {
				t.Errorf("%d Tools, want %d: %v", len(tools), c.tools, tools)
			}
			if c.dynamic != "" {
				found := false
				for _, d := range dyn {
					if strings.Contains(d.Field, c.dynamic) {
						found = true
					}
				}
				if !found {
					t.Errorf("no dynamic finding on %q: %v", c.dynamic, dyn)
				}
			}
		})
	}
}

func FuzzTools(f *testing.F) {
	for _, p := range []string{"tools/index.ts", "tools/viewers.ts", "tools/viewer/index.ts", "schemas/tool-types.ts"} {
		b, err := os.ReadFile(filepath.Join("testdata", "harness", filepath.FromSlash(p)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("export const tools = [defineTool({ id: `${'a'}-${1}`, ...(x ? {} : { y: 1 }) })];")
	// Issue 28: deep shapes just past the depth bound, and shared values.
	for _, v := range deepShapes(MaxDepth + 1) {
		f.Add(toolWith(v))
	}
	f.Add(sharedModule(12))
	f.Add("if (x) {} /'`(/; x = /[/]/ + `${ {a: (1, 2)} }` <!-- `\n" + strings.Repeat("a => ", 40) + "1")
	f.Fuzz(func(t *testing.T, src string) {
		p := NewProgram(func(string) ([]byte, error) { return []byte(src), nil }, Limits{Steps: 20000, Depth: 64, Elements: 20000, Modules: 4})
		_, _, _ = p.Tools("tools/x.ts", []byte(src))
		_, _ = NewProgram(nil, Limits{Steps: 20000, Depth: 64, Elements: 20000, Modules: 4}).Vocabulary("schemas/x.ts", []byte(src))
	})
}
