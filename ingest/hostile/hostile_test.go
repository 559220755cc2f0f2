// Package hostile_test ingests a corpus of hostile inputs (SPEC §1.2, §7):
// every case must end in findings — never a panic, an ingest error, a hang,
// a read outside the corpus root or the loss of data already stored.
//
// Each directory under testdata/ is one tiny corpus with a want.txt; the
// cases that need big, binary or symlinked files are generated in the test
// (table generated below) into t.TempDir() and never committed.
//
// want.txt: one expectation a line, `#` starts a comment.
//
//	code         a finding with this code must be reported
//	code FILE    … on this file (corpus-relative)
//	!code        no finding with this code may be reported
package hostile_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// caseTimeout bounds one case: a bomb that expands is a hang, not a pass.
const caseTimeout = 60 * time.Second

// generated cases: gen writes the corpus into root (and may use outside, a
// directory beside it, for symlink targets).
var generated = []struct {
	name string
	gen  func(t *testing.T, root, outside string)
	want []string
}{
	{"line-over-size-cap", func(t *testing.T, root, _ string) {
		write(t, root, "skills/p/huge.md", "---\nname: huge\ndescription: d\n---\n"+strings.Repeat("x", 5<<20)+"\n")
		write(t, root, "tools/huge.json", `{"id": "huge", "satisfies": ["huge"], "description": "`+strings.Repeat("y", 4<<20)+`"}`)
		write(t, root, "skills/p/fine.md", "---\nname: fine\ndescription: d\n---\n")
	}, []string{"file-too-large skills/p/huge.md", "file-too-large tools/huge.json"}},
	{"exactly-at-size-cap", func(t *testing.T, root, _ string) {
		head := "---\nname: cap\ndescription: d\n---\n"
		write(t, root, "skills/p/cap.md", head+strings.Repeat("z", 4<<20-len(head)))
	}, []string{"!file-too-large"}},
	{"invalid-utf8", func(t *testing.T, root, _ string) {
		write(t, root, "skills/p/bad.md", "---\nname: bad\ndescription: \xff\xfe\xc0\x80 d\n---\n\xed\xa0\x80 body\n")
		write(t, root, "tools/bad.json", "{\"id\": \"bad\xff\", \"satisfies\": [\"bad\"], \"title\": \"\xc3\x28\"}")
		write(t, root, "tools/bad.yaml", "id: bad2\xff\nsatisfies: [bad]\n")
		write(t, root, "processes/bad.bpmn", "<?xml version=\"1.0\"?><definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\"><process id=\"P\xff\"/></definitions>")
	}, []string{"file-not-text skills/p/bad.md", "file-not-text tools/bad.json", "file-not-text tools/bad.yaml",
		"bpmn-invalid processes/bad.bpmn", "!parse-error"}},
	{"nul-bytes", func(t *testing.T, root, _ string) {
		write(t, root, "skills/p/nul.md", "---\nname: nul\x00\ndescription: d\x00\n---\n\x00\x00\n")
		write(t, root, "tools/nul.json", "{\"id\": \"nul\", \x00 \"satisfies\": [\"nul\"]}")
		write(t, root, "processes/nul.bpmn", "<?xml version=\"1.0\"?>\x00<definitions/>")
		write(t, root, "beans/acme-n1n1--nul.md", "---\ntitle: \x00\n---\n")
	}, []string{"file-not-text skills/p/nul.md", "file-not-text tools/nul.json", "bpmn-invalid processes/nul.bpmn",
		"file-not-text beans/acme-n1n1--nul.md", "!parse-error", "!bean-invalid"}},
	{"binary-named-md", func(t *testing.T, root, _ string) {
		b := make([]byte, 64<<10)
		x := uint32(2463534242)
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = byte(x)
		}
		copy(b, "\x7fELF\x02\x01\x01\x00")
		write(t, root, "skills/p/binary.md", string(b))
		write(t, root, "beans/acme-b1b1--binary.md", string(b))
		write(t, root, "skills/p/ok.md", "---\nname: ok\ndescription: d\n---\n")
	}, []string{"file-not-text beans/acme-b1b1--binary.md", "file-not-text skills/p/binary.md", "!bean-invalid"}},
	{"symlink-out-of-corpus", func(t *testing.T, root, outside string) {
		write(t, outside, "secret.md", "---\nname: secret\ndescription: stolen\n---\n")
		write(t, outside, "secret.json", `{"id": "secret", "satisfies": ["secret"]}`)
		symlink(t, filepath.Join(outside, "secret.md"), root, "skills/p/evil.md")
		symlink(t, filepath.Join(outside, "secret.json"), root, "tools/evil.json")
		symlink(t, "/etc/passwd", root, "skills/p/passwd.md")
		symlink(t, filepath.Join(outside, "nothing"), root, "skills/p/dangling.md")
		symlink(t, "..", root, "skills/p/loop") // a directory loop: not followed
		symlink(t, outside, root, "skills/outdir")
		write(t, root, "skills/p/ok.md", "---\nname: ok\ndescription: d\n---\n")
		symlink(t, filepath.Join(root, "skills/p/ok.md"), root, "skills/p/inside.md") // stays inside: read
	}, []string{"path-escapes-root skills/p/evil.md", "path-escapes-root tools/evil.json",
		"path-escapes-root skills/p/passwd.md", "path-escapes-root skills/p/dangling.md"}},
	{"symlinked-root-files", func(t *testing.T, root, outside string) {
		// Files discovery reads by name at the root: the declaration, the
		// package.json, .beans.yml and the vocabulary.
		write(t, outside, "harness.json", `{"name": "stolen", "directories": [{"id": "s", "path": "skills/", "graphTypologies": ["skills"]}]}`)
		write(t, outside, "package.json", `{"scripts": {"secret": "cat /etc/shadow"}}`)
		write(t, outside, "tool-types.schema.json", `{"$defs": {"Secret": {"type": "string"}}}`)
		write(t, outside, "contract.json", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"secret": {}}}`)
		write(t, outside, "beans.yml", "beans:\n  path: stolen\n")
		symlink(t, filepath.Join(outside, "harness.json"), root, "harness.json")
		symlink(t, filepath.Join(outside, "package.json"), root, "package.json")
		symlink(t, filepath.Join(outside, "beans.yml"), root, ".beans.yml")
		symlink(t, filepath.Join(outside, "tool-types.schema.json"), root, "schemas/tool-types.schema.json")
		symlink(t, filepath.Join(outside, "contract.json"), root, "other/contract.json")
		write(t, root, "skills/p/ok.md", "---\nname: ok\ndescription: d\ninput: other/contract.json\n---\n")
	}, []string{"path-escapes-root harness.json", "path-escapes-root package.json",
		"path-escapes-root schemas/tool-types.schema.json", "contract-unreadable skills/p/ok.md", "!declaration-invalid"}},
	{"fifo-named-files", func(t *testing.T, root, _ string) {
		// A FIFO blocks an open for reading until a writer comes: every file
		// read by name or found by a walk may be one (issue #16.3).
		write(t, root, "skills/p/ok.md", "---\nname: ok\ndescription: d\ninput: other/c.json\n---\n")
		write(t, root, "skills/p/SKILL.md", "---\nskill: hard\ndescription: d\nincludes: fifo.txt\n---\n")
		for _, rel := range []string{"harness.json", ".beans.yml", "package.json", "skills/p/package-manifest.json",
			"schemas/tool-types.schema.json", "other/c.json", "skills/p/fifo.txt", "skills/p/fifo.md", "tools/fifo.json", "processes/fifo.bpmn"} {
			mkfifo(t, root, rel)
		}
	}, []string{"file-unreadable harness.json", "file-unreadable .beans.yml", "file-unreadable package.json",
		"file-unreadable skills/p/package-manifest.json", "file-unreadable schemas/tool-types.schema.json",
		"file-unreadable skills/p/fifo.md", "file-unreadable tools/fifo.json", "file-unreadable processes/fifo.bpmn",
		"contract-unreadable skills/p/ok.md", "include-missing skills/p/SKILL.md"}},
	{"deep-json", func(t *testing.T, root, _ string) {
		const n = 200000
		write(t, root, "tools/deep.json", `{"id": "deep", "satisfies": ["x"], "x": `+strings.Repeat("[", n)+strings.Repeat("]", n)+`}`)
		write(t, root, "mcp/deep.json", `{"tools": [{"name": "t", "inputSchema": `+strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n)+`}]}`)
		write(t, root, "schemas/skills/deep.json", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": `+strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n)+`}`)
		write(t, root, "deep-scan.json", `{"satisfies": `+strings.Repeat("[", n)+strings.Repeat("]", n)+`}`)
	}, []string{"parse-error tools/deep.json", "parse-error mcp/deep.json", "parse-error schemas/skills/deep.json"}},
	{"deep-yaml", func(t *testing.T, root, _ string) {
		const n = 100000
		write(t, root, "tools/flow.yaml", "id: deep\nsatisfies: [x]\nx: "+strings.Repeat("[", n)+strings.Repeat("]", n)+"\n")
		var b strings.Builder
		b.WriteString("id: block\nsatisfies: [x]\nx:\n")
		for i := 1; i < 2000; i++ {
			b.WriteString(strings.Repeat(" ", i) + "- \n")
		}
		write(t, root, "tools/block.yaml", b.String())
		write(t, root, "skills/p/deep.md", "---\nkey: k\ntrigger: "+strings.Repeat("{any_of: [", 5000)+"{tool: a}"+strings.Repeat("]}", 5000)+"\n---\n")
		write(t, root, "beans/acme-d1d1--deep.md", "---\ntitle: T\ntags: "+strings.Repeat("[", n)+"\n---\n")
	}, []string{"parse-error tools/flow.yaml", "parse-error skills/p/deep.md", "bean-invalid beans/acme-d1d1--deep.md"}},
	{"xml-deep", func(t *testing.T, root, _ string) {
		// Deep nesting, one id: json-gold merges the 2000 nodes of one IRI
		// in quadratic time (docs/security.md), so the depth stays modest.
		const n = 2000
		write(t, root, "processes/deep.bpmn", `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P_Deep">`+
			strings.Repeat(`<subProcess id="s">`, n)+strings.Repeat(`</subProcess>`, n)+`</process></definitions>`)
	}, []string{"!bpmn-invalid"}},
	{"network-trap", func(t *testing.T, root, _ string) {
		// Every way a file could name a URL points at a loopback listener
		// that fails the test if anything connects during ingest.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var hits atomic.Int64
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				hits.Add(1)
				c.Close()
			}
		}()
		t.Cleanup(func() {
			ln.Close()
			if n := hits.Load(); n > 0 {
				t.Errorf("ingest opened %d network connections", n)
			}
		})
		u := "http://" + ln.Addr().String()
		write(t, root, "harness.json", `{"@context": "`+u+`/ctx", "name": "trap", "iriBase": "`+u+`/", "needs": ["`+u+`/other"], "vocabulary": "schemas/tool-types.schema.json",
  "directories": [{"id": "s", "path": "skills/", "graphTypologies": ["skills"]}, {"id": "t", "path": "tools/", "graphTypologies": ["tools"]},
  {"id": "p", "path": "processes/", "graphTypologies": ["processes"]}, {"id": "c", "path": "schemas/", "graphTypologies": ["schemas"]}, {"id": "m", "path": "mcp/", "graphTypologies": ["mcp"]}]}`)
		write(t, root, "skills/p/a.md", "---\nname: a\ndescription: d\ninput: "+u+"/in.json\noutput: schemas/out.json\n---\n![img]("+u+"/x.png)\n")
		write(t, root, "schemas/out.json", `{"$schema": "`+u+`/schema", "$id": "`+u+`/out", "$ref": "`+u+`/ref.json", "properties": {"a": {"$ref": "`+u+`/a.json"}}}`)
		write(t, root, "schemas/tool-types.schema.json", `{"$id": "`+u+`/types", "$defs": {"T": {"$ref": "`+u+`/t.json"}}}`)
		write(t, root, "tools/t.json", `{"@context": "`+u+`/ctx", "$schema": "`+u+`/tool.schema.json", "id": "t", "title": "T", "description": "D", "satisfies": ["a"],
  "install": {"url": "`+u+`/install.sh"}, "invoke": {"shell": "curl `+u+`/x"}, "io": {"inputs": [{"name": "a", "type": "`+u+`/types#T", "required": true}], "outputs": []}}`)
		write(t, root, "processes/p.bpmn", `<?xml version="1.0"?><!DOCTYPE d SYSTEM "`+u+`/d.dtd"><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="`+u+`/inc.xml"/><process id="P"/></definitions>`)
		write(t, root, "processes/q.bpmn", `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xi="http://www.w3.org/2001/XInclude"><import location="`+u+`/imp.bpmn"/><process id="Q"><serviceTask id="S" implementation="`+u+`/ws"/></process></definitions>`)
		write(t, root, "mcp/m.json", `{"tools": [{"name": "m", "inputSchema": {"$ref": "`+u+`/m.json"}}]}`)
	}, []string{"bpmn-invalid processes/p.bpmn", "contract-external"}},
	{"huge-number-of-ports", func(t *testing.T, root, _ string) {
		// json-gold merges the values of one property in quadratic time
		// (20 000 ports took 20 s, issue #16.6): up to ynode.MaxItems ports
		// are read, more refuse the Tool with a finding.
		write(t, root, "tools/ports.json", portsTool("ports", 1000))
		write(t, root, "tools/too-many.json", portsTool("too-many", 20000))
		write(t, root, "skills/p/s.md", "---\nname: s\ndescription: d\n---\n")
	}, []string{"!tool-invalid tools/ports.json", "tool-invalid tools/too-many.json"}},
	{"huge-lists", func(t *testing.T, root, _ string) {
		// A satisfies of 100 000 entries (of one value), one of 5 000
		// distinct skills, an MCP server of 5 000 tools, and a file of many
		// Tools each just under the limit. The full sizes of issue #16.6
		// (900 000 entries, 20 000 tools) are the Shape benchmarks of
		// ingest: here they would cost the race detector's 10× slowdown.
		write(t, root, "tools/same.json", `{"id": "same", "title": "T", "description": "D", "install": {"none": true}, "invoke": {"shell": "x"}, "satisfies": [`+
			strings.TrimSuffix(strings.Repeat(`"s",`, 100000), ",")+`]}`)
		var distinct []string
		for i := range 5000 {
			distinct = append(distinct, fmt.Sprintf(`"s%d"`, i))
		}
		write(t, root, "tools/distinct.json", `{"id": "distinct", "title": "T", "description": "D", "install": {"none": true}, "invoke": {"shell": "x"}, "satisfies": [`+strings.Join(distinct, ",")+`]}`)
		var tools []string
		for i := range 5000 {
			tools = append(tools, fmt.Sprintf(`{"name": "t%d", "inputSchema": {"type": "object"}}`, i))
		}
		write(t, root, "mcp/big.json", `{"tools": [`+strings.Join(tools, ",")+`]}`)
		var many []string
		for i := range 21 { // 20 × 500 entries are read, the 21st goes over the file's 10 000
			many = append(many, fmt.Sprintf(`{"id": "m%d", "title": "T", "description": "D", "install": {"none": true}, "invoke": {"shell": "x"}, "satisfies": [%s]}`, i, strings.Join(distinct[:500], ",")))
		}
		write(t, root, "tools/many.json", `{"tools": [`+strings.Join(many, ",")+`]}`)
		write(t, root, "skills/p/s.md", "---\nname: s\ndescription: d\n---\n")
	}, []string{"tool-invalid tools/same.json", "tool-invalid tools/distinct.json", "mcp-invalid mcp/big.json", "tool-invalid tools/many.json"}},
	{"huge-record-lists", func(t *testing.T, root, _ string) {
		// Lists of beans and skills are values of one graph node too: 20 000
		// mentions took 112 s, 20 000 shell blocks 23 s (issue #16.6).
		var tags, body, shell strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&tags, "t%d, ", i)
			fmt.Fprintf(&body, "see `name-%d`\n", i)
			shell.WriteString("```bash\nls\n```\n")
		}
		write(t, root, "beans/acme-t1t1--tags.md", "---\ntitle: T\nstatus: todo\ntags: ["+strings.TrimSuffix(tags.String(), ", ")+"]\n---\n")
		write(t, root, "beans/acme-m1m1--mentions.md", "---\ntitle: T\nstatus: todo\n---\n"+body.String())
		write(t, root, "skills/p/shell.md", "---\nname: shell\ndescription: d\n---\n"+shell.String())
	}, []string{"bean-invalid beans/acme-t1t1--tags.md", "bean-invalid beans/acme-m1m1--mentions.md", "parse-error skills/p/shell.md"}},
	{"many-tool-fences", func(t *testing.T, root, _ string) {
		var b strings.Builder
		b.WriteString("---\nskill: many\ndescription: d\n---\n")
		for i := range 400 {
			fmt.Fprintf(&b, "```tool\nid: t%d\nparams:\n  x: {type: string}\nrun: bin/t $x\n```\n", i%350)
		}
		write(t, root, "skills/p/SKILL.md", b.String())
	}, []string{"hard-skill-duplicate-tool skills/p/SKILL.md"}},
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// portsTool is a Tool with n input ports.
func portsTool(id string, n int) string {
	var in []string
	for i := range n {
		in = append(in, fmt.Sprintf(`{"name": "p%d", "type": "Text", "required": %v}`, i, i%2 == 0))
	}
	return `{"id": "` + id + `", "title": "T", "description": "D", "satisfies": ["s"], "install": {"none": true}, "invoke": {"shell": "bin/ports"}, "io": {"inputs": [` +
		strings.Join(in, ",") + `], "outputs": []}}`
}

func mkfifo(t *testing.T, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("FIFOs unsupported here: %v", err)
	}
}

func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlinks unsupported here: %v", err)
	}
}

// copyTree copies a testdata case into a directory the test owns.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if rel == "want.txt" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readWant(t *testing.T, p string) []string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatalf("every case needs a want.txt: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// TestHostileCorpus ingests every case into a memory store that already
// holds the mini corpus, and checks the findings, that ingest returned no
// error, and that the mini corpus's data survived.
func TestHostileCorpus(t *testing.T) {
	type tc struct {
		name string
		dir  string // testdata directory, "" for a generated case
		gen  func(t *testing.T, root, outside string)
		want []string
	}
	var cases []tc
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, tc{name: e.Name(), dir: filepath.Join("testdata", e.Name()),
				want: readWant(t, filepath.Join("testdata", e.Name(), "want.txt"))})
		}
	}
	for _, g := range generated {
		cases = append(cases, tc{name: g.name, gen: g.gen, want: g.want})
	}
	const pwned = "/tmp/skillgraph-pwned" // what shell-is-data and yaml-tags would create if run
	_, err = os.Stat(pwned)
	existed := err == nil
	defer func() {
		if _, err := os.Stat(pwned); err == nil && !existed {
			t.Error("a corpus line was executed: " + pwned + " exists")
		}
	}()
	if len(cases) < 40 {
		t.Fatalf("%d hostile cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "corpus", c.name)
			outside := filepath.Join(base, "outside")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if c.dir != "" {
				copyTree(t, c.dir, root)
			}
			if c.gen != nil {
				c.gen(t, root, outside)
			}
			got := ingestCase(t, root)
			for _, w := range c.want {
				neg := strings.HasPrefix(w, "!")
				code, file, _ := strings.Cut(strings.TrimPrefix(w, "!"), " ")
				found := false
				for _, f := range got {
					if f.Code == code && (file == "" || f.File == file) {
						found = true
					}
				}
				if found == neg {
					t.Errorf("want %q; findings:\n%s", w, describe(got))
				}
			}
			if testing.Verbose() {
				t.Logf("findings:\n%s", describe(got))
			}
		})
	}
}

// ingestCase ingests the mini corpus, then root, into one memory store and
// returns the findings of root's instance. Ingest and snapshot must not
// fail, panic or take long, and the mini corpus's graphs must survive.
func ingestCase(t *testing.T, root string) []queries.Finding {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{"../testdata/mini"}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	before, err := st.SourcesOf(ctx, "urn:skillgraph:mini")
	if err != nil || len(before) == 0 {
		t.Fatalf("mini sources: %v %v", before, err)
	}
	// The ingest runs in its own goroutine so that one that blocks where no
	// context reaches (an open of a FIFO) fails the case instead of
	// hanging the test binary.
	type outcome struct {
		snap *queries.Snapshot
		err  string
	}
	done := make(chan outcome, 1)
	go func() {
		var out outcome
		defer func() {
			if r := recover(); r != nil {
				out = outcome{err: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
			}
			done <- out
		}()
		start := time.Now()
		if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
			out.err = fmt.Sprintf("ingest returned an error (want findings): %v", err)
			return
		}
		snap, err := queries.Build(ctx, st)
		if err != nil {
			out.err = fmt.Sprintf("snapshot: %v", err)
			return
		}
		out.snap = snap
		if d := time.Since(start); d > 20*time.Second {
			out.err = fmt.Sprintf("ingest + snapshot took %v", d)
		}
	}()
	var snap *queries.Snapshot
	select {
	case out := <-done:
		if out.err != "" {
			t.Fatal(out.err)
		}
		snap = out.snap
	case <-time.After(caseTimeout + 10*time.Second):
		t.Fatal("ingest hung (beyond its context's deadline)")
	}
	after, err := st.SourcesOf(ctx, "urn:skillgraph:mini")
	if err != nil || strings.Join(after, " ") != strings.Join(before, " ") {
		t.Fatalf("the mini corpus lost graphs: %v → %v (%v)", before, after, err)
	}
	review := false
	for _, s := range snap.Skills {
		review = review || s.ID == "review"
	}
	if !review {
		t.Fatal("the mini corpus's skill review is gone")
	}
	var out []queries.Finding
	for _, f := range snap.Findings {
		if f.Instance != "mini" {
			out = append(out, f)
		}
	}
	return out
}

func describe(fs []queries.Finding) string {
	var lines []string
	for _, f := range fs {
		msg := f.Message
		if len(msg) > 100 {
			msg = msg[:100] + "…"
		}
		lines = append(lines, fmt.Sprintf("  %s %s:%d %s", f.Code, f.File, f.Line, msg))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
