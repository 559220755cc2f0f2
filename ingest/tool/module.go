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
// asked for anything outside the corpus. Read lists the modules read,
// the entry module first, so a caller can tell what the result depends on.
func ParseModule(p string, data []byte, voc *vocab.Vocabulary, load tsmodule.Loader) (out record.File, read []string) {
	out = record.File{Path: p, Parser: ParserName}
	defer func() {
		if r := recover(); r != nil {
			out.Findings = append(out.Findings, record.Finding{
				Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError), File: p, Line: 1,
				Message: fmt.Sprintf("%s: internal error while reading the Tool module: %v", p, r),
			})
		}
	}()
	if voc == nil {
		voc = vocab.Default("")
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".cts", ".cjs", ".tsx":
		out.Findings = append(out.Findings, record.Finding{
			Code: record.CodeToolModuleNotEvaluated, Severity: record.SeverityOf(record.CodeToolModuleNotEvaluated), File: p, Line: 1,
			Message: fmt.Sprintf("%s: CommonJS and TSX Tool modules are not read; only .ts, .mts, .js and .mjs modules are", p),
		})
		return out, []string{p}
	}
	prog := tsmodule.NewProgram(load, tsmodule.Limits{})
	tools, dyn, err := prog.Tools(p, data)
	read = prog.Loaded
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
		return out, read
	}
	f := &fileParser{path: p, voc: voc}
	for i, t := range tools {
		base := fmt.Sprintf("defineTool#%d", i+1)
		before := len(f.findings)
		f.tool(t.Node, base)
		f.findings = append(f.findings[:before], withoutDynamicMissing(f.findings[before:], base, t.ID, dyn)...)
	}
	for _, d := range dyn {
		f.add(record.CodeToolModuleDynamic, d.Line, d.Tool, "%s: %s", p, d)
	}
	if prog.Exhausted != "" {
		f.add(record.CodeToolModuleDynamic, 1, "",
			"%s: the static reader stopped at its %s; values past it are not known", p, prog.Exhausted)
	}
	out.Tools = f.tools
	sort.SliceStable(f.findings, func(i, j int) bool { return f.findings[i].Line < f.findings[j].Line })
	out.Findings = append(out.Findings, f.findings...)
	return out, read
}

// withoutDynamicMissing drops the "missing property" a dynamic field leaves
// behind: the value exists at run time, only its content is unknown, and
// tool-module-dynamic already says so.
func withoutDynamicMissing(fs []record.Finding, base, id string, dyn []tsmodule.Dynamic) []record.Finding {
	missing := map[string]bool{}
	for _, d := range dyn {
		if d.Tool != id || d.Field == "" {
			continue
		}
		parent, leaf := "", d.Field
		if i := strings.LastIndex(d.Field, "."); i >= 0 {
			parent, leaf = "."+d.Field[:i], d.Field[i+1:]
		}
		missing[fmt.Sprintf("%s%s: missing property '%s'", base, parent, leaf)] = true
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Code == record.CodeToolInvalid && missingMatch(f.Message, missing) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func missingMatch(msg string, missing map[string]bool) bool {
	for m := range missing {
		if strings.HasSuffix(msg, m) {
			return true
		}
	}
	return false
}
