// Package tool parses authored Tool nodes (SPEC §2.2) from JSON and YAML
// files into record.Tool values, with per-file integrity findings.
// Cross-file checks (duplicate ids, unknown skills, remedy tools and
// subprocesses) belong to later stages.
package tool

import (
	"fmt"
	"path"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// MaxValues is the most values (nodes of the document) a JSON or YAML Tool
// file is read with; past it the file is tool-invalid (docs/security.md).
const MaxValues = ynode.MaxNodes

// ParserName is the record.File.Parser value of this package.
const ParserName = "tool"

// Parse reads one Tool file. JSON (.json) and YAML (.yaml, .yml) files hold
// one Tool object or {"tools": [...]}; a TypeScript/JavaScript module is read
// statically without its sibling modules (ParseModule reads them too). voc resolves port types; nil
// means the built-in default vocabulary. Parse never panics and never drops
// a Tool because of a finding.
func Parse(p string, data []byte, voc *vocab.Vocabulary) (out record.File) {
	if IsModule(p) {
		return ParseModule(p, data, voc, nil)
	}
	out = record.File{Path: p, Parser: ParserName}
	defer recoverAsFinding(&out, "Tool file")
	if voc == nil {
		voc = vocab.Default("")
	}
	ext := strings.ToLower(path.Ext(p))
	root, err := ynode.Parse(data, ext == ".json")
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		out.Findings = append(out.Findings, record.Finding{
			Code: ynode.Code(err, record.CodeParseError), Severity: record.SeverityOf(ynode.Code(err, record.CodeParseError)), File: p, Line: line,
			Message: fmt.Sprintf("%s does not parse (line %d): %s", p, line, msg),
		})
		return out
	}
	f := &fileParser{path: p, voc: voc}
	for _, pr := range ynode.Problems(root) {
		f.findings = append(f.findings, record.New(record.CodeParseError, p, pr.Line, "", p+": "+pr.Msg))
	}
	f.file(root)
	out.Tools = f.firstOfEachID()
	sort.SliceStable(f.findings, func(i, j int) bool { return f.findings[i].Line < f.findings[j].Line })
	out.Findings = append(out.Findings, f.findings...)
	return out
}

// fileParser accumulates the tools and findings of one file.
type fileParser struct {
	path     string
	voc      *vocab.Vocabulary
	tools    []record.Tool
	findings []record.Finding
	items    int  // list entries read so far (bounded by ynode.MaxItemsPerFile)
	overflow bool // the file went over MaxItemsPerFile: the rest is not read
	// dynamic holds the JSON paths (maintains[0].artefact) of the Tool being
	// read whose values a module computes at run time.
	dynamic map[string]bool
}

// add appends a finding of a registered code; its severity comes from the
// finding registry.
func (f *fileParser) add(code string, line int, subject, format string, args ...any) {
	f.findings = append(f.findings, record.New(code, f.path, line, subject, fmt.Sprintf(format, args...)))
}

// file dispatches between one Tool object and a {"tools": [...]} wrapper.
func (f *fileParser) file(root *yaml.Node) {
	root = ynode.Deref(root)
	if !ynode.IsMap(root) {
		f.add(record.CodeToolInvalid, ynode.Line(root), "",
			"%s: $: expected a Tool object or {\"tools\": [...]}", f.path)
		return
	}
	list := ynode.Get(root, "tools")
	if list == nil || ynode.Get(root, "id") != nil {
		f.tool(root, "$")
		return
	}
	for _, pr := range ynode.Pairs(root) {
		if k := pr.Key.Value; k != "tools" && k != "$schema" && k != "$comment" {
			f.add(record.CodeToolUnknownField, ynode.Line(pr.Key), "",
				"%s: unknown field %s beside \"tools\" (ignored)", f.path, jsonPath("$", k))
		}
	}
	if !ynode.IsSeq(list) {
		f.add(record.CodeToolInvalid, ynode.Line(list), "",
			"%s: $.tools: expected a list of Tool objects", f.path)
		return
	}
	if count, over := ynode.TooMany(list); over {
		f.add(record.CodeToolInvalid, ynode.Line(list), "",
			"%s: $.tools: %d Tools in one file, over the limit of %d; the file is not read", f.path, count, ynode.MaxItems)
		return
	}
	for i, n := range ynode.Items(list) {
		base := fmt.Sprintf("$.tools[%d]", i)
		if !ynode.IsMap(n) {
			f.add(record.CodeToolInvalid, ynode.Line(n), "",
				"%s: %s: expected a Tool object", f.path, base)
			continue
		}
		f.tool(n, base)
	}
}

// firstOfEachID is the file's Tools with the first of each id kept: two
// Tools of one id in one file mint one IRI in one graph, so stored they
// would be one node with two titles and two invocations (issue 23.2). The
// later one is tool-duplicate-id at its own line and is not stored; its
// other findings stay (they are about lines of the file). Across files
// both are kept, each in its own graph, and the snapshot reports them.
func (f *fileParser) firstOfEachID() []record.Tool {
	first := map[string]int{}
	kept := f.tools[:0:0]
	for _, t := range f.tools {
		if t.ID == "" {
			kept = append(kept, t)
			continue
		}
		if l, ok := first[t.ID]; ok {
			f.add(record.CodeToolDuplicateID, t.Line, t.ID,
				"tool id %q is defined twice in %s (lines %d and %d); the Tool on line %d is not read", t.ID, f.path, l, t.Line, t.Line)
			continue
		}
		first[t.ID] = t.Line
		kept = append(kept, t)
	}
	return kept
}

// recoverAsFinding turns a panic while reading a file into a parse-error on
// it, so one bad file never stops an ingest. Deferred by Parse and
// ParseModule.
func recoverAsFinding(out *record.File, what string) {
	if r := recover(); r != nil {
		out.Findings = append(out.Findings, record.Finding{
			Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError), File: out.Path, Line: 1,
			Message: fmt.Sprintf("%s: internal error while reading the %s: %v", out.Path, what, r),
		})
	}
}
