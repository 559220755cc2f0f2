package tool

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/tsmodule"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// IsModule reports whether a Tool file is a TypeScript or JavaScript module.
func IsModule(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".js", ".mjs", ".cts", ".cjs", ".tsx":
		return true
	}
	return false
}

// ParseModule reads the Tools of a TypeScript or JavaScript module
// statically (SPEC §2.8): each defineTool call written in the module that
// evaluates becomes a Tool with exactly the rules of a JSON Tool file.
// load hands over sibling modules of the corpus (nil: none); it is never
// asked for anything outside the corpus; what a module's Tools depend on is
// what load was asked for.
func ParseModule(p string, data []byte, voc *vocab.Vocabulary, load tsmodule.Loader) (out record.File) {
	out = record.File{Path: p, Parser: ParserName}
	defer recoverAsFinding(&out, "Tool module")
	if voc == nil {
		voc = vocab.Default("")
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".cts", ".cjs", ".tsx":
		out.Findings = append(out.Findings, record.Finding{
			Code: record.CodeToolModuleNotEvaluated, Severity: record.SeverityOf(record.CodeToolModuleNotEvaluated), File: p, Line: 1,
			Message: fmt.Sprintf("%s: CommonJS and TSX Tool modules are not read; only .ts, .mts, .js and .mjs modules are", p),
		})
		return out
	}
	prog := tsmodule.NewProgram(load, tsmodule.Limits{})
	tools, dyn, err := prog.Tools(p, data)
	if err != nil {
		line := 1
		var se *tsmodule.SyntaxError
		if errors.As(err, &se) {
			line = se.Line
		}
		out.Findings = append(out.Findings, record.Finding{
			Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError), File: p, Line: line,
			Message: fmt.Sprintf("%s does not parse as a module: %v", p, err),
		})
		return out
	}
	f := &fileParser{path: p, voc: voc}
	for i, t := range tools {
		base := fmt.Sprintf("defineTool#%d", i+1)
		f.dynamic = map[string]bool{}
		for _, d := range dyn {
			if d.Tool == t.ID {
				f.dynamic["."+d.Field] = true
			}
		}
		f.tool(t.Node, base)
	}
	f.dynamic = nil
	for _, d := range dyn {
		f.add(record.CodeToolModuleDynamic, d.Line, d.Tool, "%s: %s", p, d)
	}
	if prog.Exhausted != "" {
		f.add(record.CodeToolModuleDynamic, 1, "",
			"%s: the static reader stopped at its %s; values past it are not known", p, prog.Exhausted)
	}
	out.Tools = f.firstOfEachID()
	sort.SliceStable(f.findings, func(i, j int) bool { return f.findings[i].Line < f.findings[j].Line })
	out.Findings = append(out.Findings, f.findings...)
	return out
}
