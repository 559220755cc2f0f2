package tsmodule

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// chainCorpus is n tiny Tool modules, each importing the one before it:
// tools/m0.ts … tools/m{n-1}.ts, as a corpus's loader hands them over.
func chainCorpus(n int) map[string][]byte {
	files := map[string][]byte{}
	files["tools/m0.ts"] = []byte("export const v = 'm';\nexport const tools = [defineTool({ id: 'm0', title: v, description: 'D', install: { none: true }, invoke: { manual: true }, satisfies: ['s'] })];\n")
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("tools/m%d.ts", i)] = []byte(fmt.Sprintf("import { v as p } from './m%d.js';\nexport const v = p + '%d';\nexport const tools = [defineTool({ id: 'm%d', title: v, description: 'D', install: { none: true }, invoke: { manual: true }, satisfies: ['s'] })];\n", i-1, i, i))
	}
	return files
}

func mapLoader(files map[string][]byte, loads *int) Loader {
	return func(rel string) ([]byte, error) {
		if loads != nil {
			*loads++
		}
		if b, ok := files[rel]; ok {
			return b, nil
		}
		return nil, errors.New("no such module")
	}
}

// BenchmarkChainedModules reads 200 Tool modules that each import the one
// before, one Program per file as an ingest does (ingest/tool.ParseModule).
func BenchmarkChainedModules(b *testing.B) {
	files := chainCorpus(200)
	for b.Loop() {
		resetCompileCache() // each iteration is one ingest's reading
		for i := 0; i < 200; i++ {
			rel := fmt.Sprintf("tools/m%d.ts", i)
			p := NewProgram(mapLoader(files, nil), Limits{})
			if _, _, err := p.Tools(rel, files[rel]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestRealModulesWithinShape: every TypeScript module of the real corpora
// stays well inside the depth bound (the margin is reported).
func TestRealModulesWithinShape(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "realworld", "*"))
	if len(roots) == 0 {
		roots, _ = filepath.Glob("/work/shared/realworld/*")
	}
	n, deepest, where := 0, 0, ""
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !tsLike(p) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			n++
			dep, derr := measureShape(src)
			if derr != nil {
				t.Errorf("%s refused: %v", p, derr)
			}
			if dep > deepest {
				deepest, where = dep, p
			}
			return nil
		})
	}
	if n == 0 {
		t.Skip("no real corpora on this machine")
	}
	t.Logf("%d modules, deepest estimate %d (%s), bound %d", n, deepest, where, MaxDepth)
}

func tsLike(p string) bool {
	switch filepath.Ext(p) {
	case ".ts", ".mts", ".js", ".mjs", ".tsx", ".cts", ".cjs":
		return true
	}
	return false
}

// deepShapes are values that nest n levels with no bracket (issue 28 row
// 1), or in the case of commas, chain n operators; each sits in a Tool's
// title or a Zod vocabulary's table.
func deepShapes(n int) map[string]string {
	return map[string]string{
		"!":        strings.Repeat("!", n) + "x",
		".a":       "x" + strings.Repeat(".a", n),
		"()":       "x" + strings.Repeat("()", n),
		"=>":       strings.Repeat("a => ", n) + "x",
		"typeof":   strings.Repeat("typeof ", n) + "x",
		"**":       strings.Repeat("x ** ", n) + "x",
		"=":        strings.Repeat("x = ", n) + "x",
		"?:":       strings.Repeat("x ? 1 : ", n) + "x",
		"new":      strings.Repeat("new ", n) + "x",
		"comma":    "(" + strings.Repeat("x, ", n) + "x)",
		"+":        strings.Repeat("'a' + ", n) + "'a'",
		"-":        strings.Repeat("- ", n) + "1",
		"await":    strings.Repeat("await ", n) + "x",
		"else if":  "(() => { " + strings.Repeat("if (x) y; else ", n) + "z; })()",
		"lines":    strings.Repeat("!\n", n) + "x",
		"generics": "(null as " + strings.Repeat("A<", n) + "B" + strings.Repeat(">", n) + ")",
		"template": strings.Repeat("`${", n) + "x" + strings.Repeat("}`", n),
		// A regular expression or division the scan cannot tell apart
		// must not hide what follows it.
		"after regex":   "(() => { if (x) {} /'`/; return " + strings.Repeat("!", n) + "x; })()",
		"after comment": "x // `\n" + "+ " + strings.Repeat("!", n) + "x",
		// An object literal's `}` (also after nested ternaries) divides.
		"object / run":         "({} / " + strings.Repeat("!", n) + "x / 1)",
		"ternary object / run": "(a ? b : c ? d : {} / " + strings.Repeat("!", n) + "x / 1)",
		"yield / run":          "(function* () {\nreturn yield /" + strings.Repeat("!", n) + "x / 1\n})()",
		"string continuation":  "'a\\\r\n' + " + strings.Repeat("!", n) + "x",
		"html comment":         "x\n<!-- " + strings.Repeat("!", n) + "x\n",
		"cr line end":          "x // `\r" + strings.Repeat("!", n) + "x",
	}
}

func toolWith(title string) string {
	return "export const tools = [defineTool({ id: 'deep', title: " + title + ", description: 'D', install: { none: true }, invoke: { manual: true }, satisfies: ['s'] })];\n"
}

// TestDeepExpressionsRefused (issue 28 rows 1 and 3): a value that nests
// past MaxDepth without brackets is refused before esbuild or goja parse it
// (both recurse per level; 300 000 levels overflowed the stack and killed
// the process), and the refusal is the reader's depth limit, reported as
// tool-module-dynamic by ingest/tool: no Tool, no error, no crash. Just
// inside the bound the module is read.
func TestDeepExpressionsRefused(t *testing.T) {
	for name := range deepShapes(1) {
		for _, n := range []int{MaxDepth + 1, 300_000} {
			src := toolWith(deepShapes(n)[name])
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				if _, err := Compile("tools/deep.ts", []byte(src)); !errors.Is(err, ErrTooDeep) {
					t.Fatalf("Compile = %v, want ErrTooDeep", err)
				}
				p := NewProgram(nil, Limits{})
				tools, _, err := p.Tools("tools/deep.ts", []byte(src))
				if err != nil || len(tools) != 0 {
					t.Fatalf("Tools = %d, %v; want none and no error", len(tools), err)
				}
				if !strings.HasPrefix(p.Exhausted, "depth limit in tools/deep.ts") {
					t.Errorf("Exhausted = %q", p.Exhausted)
				}
				voc := "import { z } from 'zod';\nexport const TOOL_TYPES = { A: z.string().describe(" + deepShapes(n)[name] + ") };\n"
				if _, err := NewProgram(nil, Limits{}).Vocabulary("schemas/tool-types.ts", []byte(voc)); !errors.Is(err, ErrTooDeep) {
					t.Errorf("Vocabulary = %v, want ErrTooDeep", err)
				}
			})
		}
	}
	// Where a `/` may start a regular expression or divide and the two
	// readings could part for more than the line, the module is refused
	// whatever its size.
	for name, src := range map[string]string{
		"yield before a backtick": "function* g() { yield /`/; }\n" + toolWith("'T'"),
		"await before a comment":  "async function g() { await /x/* 2 */; }\n" + toolWith("'T'"),
		"of before a bracket":     "for (const x of /a/) {}\n" + toolWith("'T'"),
		"html comment, backtick":  "x\n<!-- `\n" + toolWith("'T'"),
	} {
		if _, err := Compile("tools/ambiguous.ts", []byte(src)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%s: Compile = %v, want ErrTooDeep", name, err)
		}
	}
	if _, err := Compile("tools/regex.ts", []byte("function* g() {\n  yield /ab+c/g;\n}\n"+toolWith("'T'"))); err != nil {
		t.Errorf("a regular expression after yield, alone on its line: %v", err)
	}
	// Within the bound, the shapes compile (a tenth of it: each counts
	// one or two levels per repetition, arrows eight).
	for name, v := range deepShapes(MaxDepth / 10 / arrowWeight) {
		// (Some are not valid modules: only the bound matters here.)
		if _, err := Compile("tools/ok.ts", []byte(toolWith(v))); errors.Is(err, ErrTooDeep) {
			t.Errorf("%s within the bound: %v", name, err)
		}
	}
}

// sharedModule is a small module whose Tool names a value that, expanded,
// holds 2^levels leaves (issue 28 row 2: 22 levels took 9 GB and 56 s).
func sharedModule(levels int) string {
	var b strings.Builder
	b.WriteString("const a0 = { k: 'v' };\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "const a%d = { k: a%d, j: a%d };\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "export const tools = [defineTool({ id: 'shared', title: 'T', description: 'D', install: { none: true }, invoke: { manual: true }, satisfies: ['s'], x: a%d })];\n", levels)
	return b.String()
}

// TestSharedValuesCounted: values shared inside a module count by their
// expanded size as a Tool is built; past MaxToolValues the Tool is dropped
// with a finding and the work stops there. The allocations are bounded
// by the bound, not by the expansion (2^22 leaves), and the same module
// below the bound is read whole.
func TestSharedValuesCounted(t *testing.T) {
	read := func(src string) ([]Tool, []Dynamic, *Program) {
		p := NewProgram(nil, Limits{})
		tools, dyn, err := p.Tools("tools/shared.ts", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return tools, dyn, p
	}
	tools, _, _ := read(sharedModule(8))
	if len(tools) != 1 {
		t.Fatalf("below the bound: %d Tools, want 1", len(tools))
	}
	for _, levels := range []int{17, 22} {
		src := sharedModule(levels)
		tools, dyn, p := read(src)
		if len(tools) != 0 {
			t.Errorf("%d levels: %d Tools, want the Tool dropped", levels, len(tools))
		}
		found := false
		for _, d := range dyn {
			if d.Field == "(the Tool)" && strings.Contains(d.Why, "values once their shared constants are expanded") {
				found = true
			}
		}
		if !found || !strings.HasPrefix(p.Exhausted, "size limit") {
			t.Errorf("%d levels: no finding on the Tool's size: %v, %q", levels, dyn, p.Exhausted)
		}
		allocs := testing.AllocsPerRun(1, func() { read(src) })
		t.Logf("%d levels: %.0f allocations", levels, allocs)
		// A value built costs a few allocations (a node, its field name).
		if max := float64(10 * MaxToolValues); allocs > max {
			t.Errorf("%d levels: %.0f allocations, want at most %.0f", levels, allocs, max)
		}
	}
}

// TestSharedStringsCounted: a string is evaluated once and shared, but
// each concatenation of it builds a new one: the bytes built count in all,
// so .map of `s + s` over a large array stops at maxStringBytes.
func TestSharedStringsCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString("const s0 = '" + strings.Repeat("x", 1000) + "';\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "const s%d = s%d + s%d;\n", i, i-1, i-1) // s9: 512 000 bytes
	}
	b.WriteString("const n0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "const n%d = [...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d];\n", i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("export const all = n3.map((i) => s9 + i);\n" + toolWith("'T'"))
	p := NewProgram(nil, Limits{})
	if _, _, err := p.Tools("tools/strings.ts", []byte(b.String())); err != nil {
		t.Fatal(err)
	}
	if p.bytes > maxStringBytes+(1<<20) || !strings.HasPrefix(p.Exhausted, "size limit") {
		t.Errorf("built %d string bytes (bound %d), Exhausted %q", p.bytes, maxStringBytes, p.Exhausted)
	}
}

func resetCompileCache() {
	c := &compileCache
	c.Lock()
	defer c.Unlock()
	clear(c.byKey)
	c.order.Init()
	c.bytes = 0
}

// TestChainCompiledOnce (issue 28 row 3): 200 Tool modules that each import
// the one before, read one Program per file as an ingest does, compile
// each module once — not once per module that imports it (12 000 compiles,
// 16.7 s) — and each still sees the values of its imports.
func TestChainCompiledOnce(t *testing.T) {
	resetCompileCache()
	files := chainCorpus(200)
	before := compiles.Load()
	for i := 0; i < 200; i++ {
		rel := fmt.Sprintf("tools/m%d.ts", i)
		p := NewProgram(mapLoader(files, nil), Limits{})
		tools, _, err := p.Tools(rel, files[rel])
		if err != nil || len(tools) != 1 {
			t.Fatalf("%s: %d Tools, %v", rel, len(tools), err)
		}
		if i == 5 {
			if got := toolJSON(t, tools[0]); !strings.Contains(got, `"title":"m12345"`) {
				t.Errorf("%s: %s, want the title built from its imports", rel, got)
			}
		}
	}
	if n := compiles.Load() - before; n != 200 {
		t.Errorf("%d compiles for 200 modules, want 200", n)
	}
}

// TestCancelledProgramStops: a Program whose context is done stops at its
// next check, as at its step limit, within 1 024 steps.
func TestCancelledProgramStops(t *testing.T) {
	var b strings.Builder
	b.WriteString("const n0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\n")
	for i := 1; i <= 3; i++ { // 10 000 elements: some 50 000 steps to map
		fmt.Fprintf(&b, "const n%d = [...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d, ...n%d];\n", i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("export const all = n3.map((i) => ({ v: i + 1 }));\n" + toolWith("'T'"))
	src := b.String()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := NewProgram(nil, Limits{}).WithContext(ctx)
	tools, _, err := p.Tools("tools/cancel.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Exhausted != "cancellation" || p.steps > 1024+1 {
		t.Errorf("Exhausted %q after %d steps, want cancellation within 1 024", p.Exhausted, p.steps)
	}
	if len(tools) != 0 {
		t.Errorf("%d Tools read after the cancellation", len(tools))
	}
	// Not cancelled, the same module is read whole.
	p = NewProgram(nil, Limits{}).WithContext(context.Background())
	if tools, _, _ := p.Tools("tools/cancel.ts", []byte(src)); len(tools) != 1 || p.Exhausted != "" || p.steps < 10_000 {
		t.Errorf("uncancelled: %d Tools, Exhausted %q, %d steps", len(tools), p.Exhausted, p.steps)
	}
}

// TestCanonicalLinear (issue #28 row 9): telling a Tool evaluated again
// from a new one writes its tree out in linear time; yaml.v3's Decode
// checked each key against all before it (20 000 keys: 5.5 s, 50 000:
// over 30 s). The text is the tree's JSON.
func TestCanonicalLinear(t *testing.T) {
	const n = 50_000
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := range n {
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprintf("k%d", i)},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "0"})
	}
	start := time.Now()
	got := canonical(m)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("%d keys took %v", n, d)
	}
	if !strings.HasPrefix(got, `{"k0":0,"k1":0,"k10":0,`) || !strings.Contains(got, fmt.Sprintf(`"k%d":0`, n-1)) {
		t.Fatalf("canonical %.100s…", got)
	}
}
