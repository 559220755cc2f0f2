package tool

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// got is the comparable part of a finding.
type got struct {
	Code string
	Sev  record.Severity
	Line int
}

func summary(fs []record.Finding) []got {
	out := []got{}
	for _, f := range fs {
		out = append(out, got{f.Code, f.Severity, f.Line})
	}
	return out
}

// base is a valid Tool; line numbers in the cases below count from it.
const base = `{
  "id": "t",
  "title": "T",
  "description": "D",
  "satisfies": ["s"],
  "install": {"none": true},
  "invoke": {"shell": "bin/t --x"},
  "io": {
    "inputs": [
      {"name": "text", "type": "Text", "required": true, "arg": {"stdin": true}}
    ],
    "outputs": [{"name": "out", "type": "RepoPath"}]
  }
}`

func edit(old, new string) string { return strings.Replace(base, old, new, 1) }

func TestParseFindings(t *testing.T) {
	iri := vocab.IRI("https://acme.example/h", "Count")
	cases := []struct {
		name, path, data string
		want             []got
	}{
		{"valid", "t.json", base, nil},
		{"json parse error", "t.json", "{\n  \"id\": \"t\",\n  \"title\": }", []got{{record.CodeParseError, record.Error, 3}}},
		{"json trailing comma", "t.json", "{\"id\": \"t\",\n}", []got{{record.CodeParseError, record.Error, 2}}},
		{"yaml parse error", "t.yaml", "id: t\ntitle: [\n", []got{{record.CodeParseError, record.Error, 2}}},
		{"empty file", "t.yaml", "", []got{{record.CodeToolInvalid, record.Error, 1}}},
		{"top-level list", "t.json", "[1]", []got{{record.CodeToolInvalid, record.Error, 1}}},
		{"missing title", "t.json", edit(`"title": "T",`, ``), []got{{record.CodeToolInvalid, record.Error, 1}}},
		{"bad id", "t.json", edit(`"id": "t"`, `"id": "T_1"`), []got{{record.CodeToolInvalid, record.Error, 2}}},
		{"empty satisfies", "t.json", edit(`["s"]`, `[]`), []got{{record.CodeToolInvalid, record.Error, 5}}},
		{"input without required", "t.json", edit(`"required": true, `, ``), []got{{record.CodeToolInvalid, record.Error, 10}}},
		{"type and schema", "t.json", edit(`"type": "Text",`, `"type": "Text", "schema": "x",`), []got{{record.CodeToolInvalid, record.Error, 10}}},
		{"arg with two keys", "t.json", edit(`{"stdin": true}`, `{"stdin": true, "flag": "--t"}`), []got{{record.CodeToolInvalid, record.Error, 10}}},
		{"repeated on stdin", "t.json", edit(`"required": true,`, `"required": true, "repeated": true,`), []got{{record.CodeToolInvalid, record.Error, 10}}},
		{"render as bad", "t.json", edit(`"type": "RepoPath"}`, `"type": "RepoPath", "render": {"as": "html"}}`), []got{{record.CodeToolInvalid, record.Error, 12}}},
		{"shell wrong type", "t.json", edit(`"bin/t --x"`, `42`), []got{{record.CodeToolInvalid, record.Error, 7}}},
		{"empty invoke", "t.json", edit(`{"shell": "bin/t --x"}`, `{}`), []got{{record.CodeToolInvalid, record.Error, 7}}},
		{"remedy tool and none", "t.json", edit(`"install"`, `"remedies": [{"host": "h", "tool": "x", "none": true}], "install"`), []got{{record.CodeToolInvalid, record.Error, 6}}},
		{"unknown top-level field", "t.json", edit(`"id": "t",`, `"id": "t", "alternativeTo": ["x"],`), []got{{record.CodeToolUnknownField, record.Warning, 2}}},
		{"unknown nested field", "t.json", edit(`{"none": true}`, `{"none": true, "brew": "t"}`), []got{{record.CodeToolUnknownField, record.Warning, 6}}},
		{"invoke mcp only", "t.json", edit(`{"shell": "bin/t --x"}`, `{"mcp": {"tool": "x"}}`), []got{{record.CodeInvokeMCPOnly, record.Error, 7}}},
		{"selection partial", "t.json", edit(`"install"`, `"selection": {"when": "w", "limits": " "}, "install"`), []got{{record.CodeSelectionPartial, record.Error, 6}}},
		{"selection not an object", "t.json", edit(`"install"`, `"selection": "soon", "install"`), []got{{record.CodeToolInvalid, record.Error, 6}}},
		{"network without remedies", "t.json", edit(`"install"`, "\"requires\": {\n\"network\": true}, \"install\""), []got{{record.CodeNetworkWithoutRemedies, record.Error, 7}}},
		{"network with remedy none", "t.json", edit(`"install"`, `"requires": {"network": true}, "remedies": [{"host": "h", "none": "no way"}], "install"`), nil},
		{"type unknown", "t.json", edit(`"Text"`, `"Sentence"`), []got{{record.CodePortTypeUnknown, record.Error, 10}}},
		{"schema iri without defs", "t.json", edit(`"type": "Text"`, `"schema": "https://x.example/t.json"`), []got{{record.CodePortTypeUnknown, record.Error, 10}}},
		{"schema iri naming no type", "t.json", edit(`"type": "Text"`, `"schema": "https://acme.example/h/tool-types.schema.json#/$defs/Nope"`), []got{{record.CodePortTypeUnknown, record.Error, 10}}},
		{"schema iri resolves", "t.json", edit(`"type": "Text"`, `"schema": "`+iri+`"`), nil},
		{"unsafe on flag", "t.json", edit(`{"stdin": true}`, `{"flag": "--text"}`), []got{{record.CodeInputUnsafeOnArgv, record.Error, 10}}},
		{"unsafe positional", "t.json", edit(`{"stdin": true}`, `{"positional": 0}`), []got{{record.CodeInputUnsafeOnArgv, record.Error, 10}}},
		{"safe on flag", "t.json", edit(`"Text", "required": true, "arg": {"stdin": true}`, `"Count", "required": true, "arg": {"flag": "--n"}`), nil},
		{"ts module without tools", "tools/index.ts", "export const x = 1", nil},
		{"mts module empty", "tools/a.mts", "", nil},
		{"cts module", "tools/a.cts", "module.exports = []", []got{{record.CodeToolModuleNotEvaluated, record.Info, 1}}},
		{"ts module dynamic id", "tools/b.ts", "import { n } from './n.js';\nexport const tools = [defineTool({\n  id: n(),\n  title: 'T'})];\n", []got{{record.CodeToolModuleDynamic, record.Warning, 3}}},
		{"ts module does not parse", "tools/c.ts", "export const = ;", []got{{record.CodeParseError, record.Error, 1}}},
		{"wrapper with bad entry", "t.json", "{\"tools\": [\n" + base + ",\n 7]}", []got{{record.CodeToolInvalid, record.Error, 16}}},
		{"wrapper not a list", "t.yaml", "tools: x\n", []got{{record.CodeToolInvalid, record.Error, 1}}},
		{"yaml alias", "t.yaml", "id: t\ntitle: &a T\ndescription: *a\nsatisfies: [s]\ninstall: {none: true}\ninvoke: {manual: true}\n", nil},
	}
	voc := vocab.Default("https://acme.example/h")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.path, []byte(c.data), voc)
			if f.Parser != ParserName || f.Path != c.path {
				t.Errorf("Parser/Path = %q/%q", f.Parser, f.Path)
			}
			want := c.want
			if want == nil {
				want = []got{}
			}
			if g := summary(f.Findings); !reflect.DeepEqual(g, want) {
				t.Errorf("findings = %v, want %v", g, want)
				for _, fi := range f.Findings {
					t.Logf("  %s:%d %s %s", fi.File, fi.Line, fi.Code, fi.Message)
				}
			}
			for _, fi := range f.Findings {
				if fi.File != c.path || fi.Message == "" {
					t.Errorf("finding %+v: want File %q and a message", fi, c.path)
				}
			}
		})
	}
}

func TestToolInvalidMessageHasPath(t *testing.T) {
	f := Parse("t.json", []byte(edit(`"required": true, `, ``)), nil)
	if len(f.Findings) != 1 || !strings.Contains(f.Findings[0].Message, "$.io.inputs[0]") {
		t.Fatalf("findings = %+v", f.Findings)
	}
	f = Parse("t.json", []byte("{\"tools\": [{}]}"), nil)
	if len(f.Findings) == 0 || !strings.Contains(f.Findings[0].Message, "$.tools[0]") {
		t.Fatalf("findings = %+v", f.Findings)
	}
	if len(f.Tools) != 1 {
		t.Fatalf("a Tool with findings must still be returned, got %d", len(f.Tools))
	}
}

func TestParseMapping(t *testing.T) {
	data := `
id: full
title: Full
description: Every field.
satisfies: [a, b]
install: {cli: make install}
invoke:
  shell: [bin/full, run]
  container: img:1
  mcp: {server: srv, tool: full_tool}
  inProcess: {module: pkg/full}
  manual: true
io:
  inputs:
    - name: id
      type: BeanId
      required: true
      repeated: true
      arg: {positional: 1}
      description: the bean
    - {name: n, type: Count, required: false, arg: {flag: --n}}
    - {name: body, type: Markdown, required: false, arg: {stdin: true}}
  outputs:
    - {name: link, type: Url, render: {as: url, reason: clickable}}
selection: {when: w, limits: l, cost: c}
requires: {os: [linux], runtime: [go], network: true}
remedies:
  - {host: a.example, tool: other}
  - {host: b.example, none: true}
  - {host: c.example, none: no fallback}
maintains: [{source: src, artefact: out.json, format: json}]
renders: [processes]
subprocesses: [proc-a]
readOnly: false
`
	f := Parse("tools/full.yaml", []byte(data), vocab.Default(""))
	if len(f.Findings) != 0 || len(f.Tools) != 1 {
		t.Fatalf("findings %+v tools %d", f.Findings, len(f.Tools))
	}
	tl := f.Tools[0]
	no := false
	yes := true
	want := record.Tool{
		ID: "full", Origin: "authored", Title: "Full", Description: "Every field.", Line: 2,
		Satisfies: []string{"a", "b"},
		Install:   map[string]any{"cli": "make install"},
		Invoke: record.Invoke{Shell: []string{"bin/full", "run"}, Container: "img:1", McpServer: "srv",
			McpTool: "full_tool", InProcess: "pkg/full", Manual: true},
		Inputs: []record.Port{
			{Name: "id", TypeIRI: vocab.DefaultCanonicalURL + "/tool-types.schema.json#/$defs/BeanId", JSONType: "string",
				Required: true, Repeated: true, Arg: "positional:1", Description: "the bean", Line: 15},
			{Name: "n", TypeIRI: vocab.IRI("", "Count"), JSONType: "integer", Arg: "flag:--n", Line: 21},
			{Name: "body", TypeIRI: vocab.IRI("", "Markdown"), JSONType: "string", Arg: "stdin", Line: 22},
		},
		Outputs:   []record.Port{{Name: "link", TypeIRI: vocab.IRI("", "Url"), JSONType: "string", Render: "url", Line: 24}},
		Selection: &record.Selection{When: "w", Limits: "l", Cost: "c"},
		Requires:  &record.Requires{OS: []string{"linux"}, Runtime: []string{"go"}, Network: &yes},
		Remedies: []record.Remedy{{Host: "a.example", Tool: "other"}, {Host: "b.example", None: "true"},
			{Host: "c.example", None: "no fallback"}},
		Maintains:    []record.Maintained{{Source: "src", Artefact: "out.json", Format: "json"}},
		Renders:      []string{"processes"},
		Subprocesses: []string{"proc-a"},
		ReadOnly:     &no,
		// Each reference keeps its own line (SPEC §4).
		Refs: record.RefLinesOf(map[string]map[string]int{"satisfies": {"a": 5, "b": 5}, "subprocesses": {"proc-a": 33}, "remedies.tool": {"other": 28}}),
	}
	if !reflect.DeepEqual(tl, want) {
		t.Errorf("tool =\n%+v\nwant\n%+v", tl, want)
	}
}

func TestShellStringSplit(t *testing.T) {
	f := Parse("t.json", []byte(base), nil)
	if g := f.Tools[0].Invoke.Shell; !reflect.DeepEqual(g, []string{"bin/t", "--x"}) {
		t.Errorf("shell = %q", g)
	}
	if f.Tools[0].Selection != nil || f.Tools[0].ReadOnly != nil {
		t.Errorf("unstated selection/readOnly must stay nil")
	}
}

func TestPartialSelectionDropped(t *testing.T) {
	f := Parse("t.json", []byte(edit(`"install"`, `"selection": {"when": "w"}, "install"`)), nil)
	if f.Tools[0].Selection != nil {
		t.Errorf("partial selection kept: %+v", f.Tools[0].Selection)
	}
}

func TestUnknownTypeKeepsName(t *testing.T) {
	f := Parse("t.json", []byte(edit(`"Text"`, `"Sentence"`)), nil)
	p := f.Tools[0].Inputs[0]
	if p.TypeIRI != "Sentence" || p.JSONType != "" {
		t.Errorf("port = %+v", p)
	}
}

func TestExtraKept(t *testing.T) {
	f := Parse("t.json", []byte(edit(`"id": "t",`, `"id": "t", "alternativeTo": ["x"],`)), nil)
	if g := f.Tools[0].Extra["alternativeTo"]; !reflect.DeepEqual(g, []any{"x"}) {
		t.Errorf("Extra = %#v", f.Tools[0].Extra)
	}
}

// TestFixtures runs the reference-corpus files copied into testdata.
func TestFixtures(t *testing.T) {
	want := map[string][]got{
		"beans-cli.json":        {{record.CodeInputUnsafeOnArgv, record.Error, 12}},
		"beans-manual.json":     {},
		"gates.json":            {},
		"gitlab-mr-create.yaml": {},
		"index.ts":              {},
		"orphan-tool.json":      {{record.CodePortTypeUnknown, record.Error, 9}, {record.CodeToolUnknownField, record.Warning, 12}},
		"pages-publish.json":    {{record.CodeNetworkWithoutRemedies, record.Error, 12}},
		"viewers.json":          {},
	}
	tools := map[string]int{"viewers.json": 2, "index.ts": 0}
	voc := vocab.Default("https://acme.example/harness")
	for name, w := range want {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f := Parse("tools/"+name, data, voc)
		if g := summary(f.Findings); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: findings = %v, want %v", name, g, w)
		}
		n, ok := tools[name]
		if !ok {
			n = 1
		}
		if len(f.Tools) != n {
			t.Errorf("%s: %d tools, want %d", name, len(f.Tools), n)
		}
	}
}

func TestSchemaCompiles(t *testing.T) {
	if _, err := Schema(); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"beans-cli.json", "orphan-tool.json", "pages-publish.json", "gitlab-mr-create.yaml", "viewers.json", "gates.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(name, data)
		}
	}
	f.Add("t.json", []byte(base))
	f.Add("t.yaml", []byte("id: t\ntitle: &a T\ndescription: *a\nsatisfies: [s]\ninstall: {none: true}\ninvoke: {mcp: {tool: x}}\nselection: {when: w}\nio: {inputs: [{name: a, schema: 'x#/$defs/Y', required: true, repeated: true, arg: {stdin: true}}]}\n"))
	f.Add("t.yml", []byte("tools:\n  - id: a\n  - 3\n  - {io: {inputs: [{arg: {positional: -1, flag: x}}]}}\n"))
	f.Add("t.json", []byte(`{"tools": {"id": 1}}`))
	voc := vocab.Default("https://acme.example/harness")
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		p := "tools/" + filepath.Base(name)
		out := Parse(p, data, voc)
		for _, fi := range out.Findings {
			if fi.Line < 1 || fi.Code == "" || fi.File != p || fi.Severity.Rank() == 0 {
				t.Fatalf("bad finding %+v", fi)
			}
			// A file that is not read has no Tools; a value problem the
			// parser recovers from (a key given twice, a number too big
			// for a float: ynode.Problems) keeps them.
			recovered := strings.Contains(fi.Message, "is given twice") || strings.Contains(fi.Message, "does not fit a 64-bit float")
			if fi.Code == record.CodeParseError && len(out.Tools) > 0 && !recovered {
				t.Fatalf("parse-error with tools: %+v", fi)
			}
		}
		for _, tl := range out.Tools {
			if tl.Origin != "authored" || tl.Line < 1 {
				t.Fatalf("bad tool %+v", tl)
			}
		}
	})
}

// TestDuplicateIDInOneFile: two Tools of one id in one file would mint one
// IRI in one graph and merge into one node (two titles, two invocations);
// the first is kept and the second is tool-duplicate-id at its own line
// (issue 23.2).
func TestDuplicateIDInOneFile(t *testing.T) {
	tool := func(title, cmd string) string {
		return `{"id": "t", "title": "` + title + `", "description": "d", "satisfies": ["s"], "install": {"none": true}, "invoke": {"shell": "` + cmd + `"}}`
	}
	ts := func(title string) string {
		return "defineTool({\n  id: 't',\n  title: '" + title + "',\n  description: 'd',\n  satisfies: ['s'],\n  install: { none: true },\n  invoke: { manual: true },\n})"
	}
	cases := []struct {
		name, path, data string
		line             int // of the finding: the second Tool's
	}{
		{"json list", "tools/t.json", "{\"tools\": [\n" + tool("First", "bin/a") + ",\n" + tool("Second", "bin/b") + "\n]}", 3},
		{"yaml list", "tools/t.yaml", "tools:\n  - " + tool("First", "bin/a") + "\n  - id: t\n    title: Second\n    description: d\n    satisfies: [s]\n    install: {none: true}\n    invoke: {shell: bin/b}\n", 3},
		{"ts module", "tools/index.ts", "export const tools = [\n" + ts("First") + ",\n" + ts("Second") + ",\n];\n", 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.path, []byte(c.data), nil)
			if len(f.Tools) != 1 || f.Tools[0].Title != "First" {
				var titles []string
				for _, x := range f.Tools {
					titles = append(titles, x.Title)
				}
				t.Fatalf("Tools %v: want the first only", titles)
			}
			var dups []record.Finding
			for _, fi := range f.Findings {
				if fi.Code == record.CodeToolDuplicateID {
					dups = append(dups, fi)
				} else {
					t.Errorf("unexpected %s:%d %s %s", fi.File, fi.Line, fi.Code, fi.Message)
				}
			}
			if len(dups) != 1 || dups[0].Line != c.line || dups[0].Subject != "t" || !strings.Contains(dups[0].Message, "line") {
				t.Fatalf("tool-duplicate-id findings %+v, want one at line %d", dups, c.line)
			}
		})
	}
}

// TestClosedSchemaUnknownKeysStayWarnings (issue 25.3): the Tool schema is
// closed so editors flag a typo'd key, but the parser keeps SPEC §2.2's
// rule: an unknown key is a tool-unknown-field warning at its line, never
// tool-invalid; an input's arg stays the schema's to check (exactly one of
// flag, positional, stdin).
func TestClosedSchemaUnknownKeysStayWarnings(t *testing.T) {
	base := "id: t\ntitle: T\ndescription: D.\nsatisfies: [s]\ninstall: {none: true}\ninvoke: {shell: [t]}\n"
	tests := []struct {
		name, extra  string
		unknown      int
		invalid      bool
		invalidMatch string
	}{
		{"top-level typo", "titel: T\n", 1, false, ""},
		{"in an input port", "io:\n  inputs:\n    - {name: a, type: Text, required: true, descripton: x}\n", 1, false, ""},
		{"in a remedy", "remedies:\n  - {host: h, none: true, hots: x}\n", 1, false, ""},
		{"in a render", "io:\n  outputs:\n    - {name: o, type: Text, render: {as: text, resaon: x}}\n", 1, false, ""},
		{"in arg: the schema's", "io:\n  inputs:\n    - {name: a, type: Slug, required: true, arg: {flag: --a, flg: x}}\n", 0, true, "arg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("tools/t.yaml", []byte(base+tc.extra), vocab.Default(""))
			unknown, invalid := 0, false
			for _, fd := range f.Findings {
				switch fd.Code {
				case record.CodeToolUnknownField:
					unknown++
				case record.CodeToolInvalid:
					invalid = true
					if !strings.Contains(fd.Message, tc.invalidMatch) {
						t.Errorf("tool-invalid %q does not name %q", fd.Message, tc.invalidMatch)
					}
					if !tc.invalid {
						t.Errorf("unexpected tool-invalid: %s", fd.Message)
					}
				}
			}
			if unknown != tc.unknown || invalid != tc.invalid {
				t.Errorf("tool-unknown-field %d (want %d), tool-invalid %v (want %v): %+v", unknown, tc.unknown, invalid, tc.invalid, f.Findings)
			}
		})
	}
}
