// Package contract parses JSON Schema skill I/O contracts (SPEC §2.7),
// draft-07 or 2020-12, into record.Contract values.
package contract

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// ParserName is the record.File.Parser value of this package.
const ParserName = "contract"

// Parse reads one contract: its top-level "required" names and each
// top-level property's JSON type ("" when not stated; for a type list the
// first entry that is not "null"). Parse never panics.
func Parse(path string, data []byte) (out record.File) {
	out = record.File{Path: path, Parser: ParserName}
	defer func() {
		if r := recover(); r != nil {
			out.Contracts = nil
			out.Findings = append(out.Findings, parseError(path, 1, fmt.Sprintf("internal error: %v", r)))
		}
	}()
	root, err := ynode.ParseJSON(data)
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		out.Findings = append(out.Findings, parseError(path, line, fmt.Sprintf("not valid JSON (line %d): %s", line, msg)))
		return out
	}
	for _, pr := range ynode.Problems(root) {
		out.Findings = append(out.Findings, parseError(path, pr.Line, pr.Msg))
	}
	if !ynode.IsMap(root) {
		out.Findings = append(out.Findings, parseError(path, ynode.Line(root), "not a JSON Schema object"))
		return out
	}
	c := record.Contract{Path: path, Properties: map[string]string{}}
	c.Required = ynode.Strings(ynode.Get(root, "required"))
	for _, pr := range ynode.Pairs(ynode.Get(root, "properties")) {
		c.Properties[pr.Key.Value] = ynode.SchemaType(ynode.Get(pr.Value, "type"))
	}
	out.Contracts = []record.Contract{c}
	return out
}

func parseError(path string, line int, msg string) record.Finding {
	if line < 1 {
		line = 1
	}
	return record.Finding{Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError), File: path, Line: line,
		Message: fmt.Sprintf("%s: %s", path, msg)}
}
