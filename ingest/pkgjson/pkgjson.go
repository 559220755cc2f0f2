// Package pkgjson reads the scripts of a corpus's package.json: a script
// named after a skill, or running `/<skill>.ts`, is tier-C evidence that the
// skill may already be automated (SPEC §5.1). Scripts are data; nothing is
// ever run.
package pkgjson

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Parse returns the package.json's scripts, or a parse-error finding.
func Parse(path string, data []byte) record.File {
	f := record.File{Path: path, Parser: "package"}
	root, err := ynode.ParseJSON(data)
	if err != nil {
		f.Findings = append(f.Findings, record.Finding{Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError),
			Message: fmt.Sprintf("package.json: %v", err), File: path, Line: 1})
		return f
	}
	for _, pr := range ynode.Problems(root) {
		f.Findings = append(f.Findings, record.New(record.CodeParseError, path, pr.Line, "", "package.json: "+pr.Msg))
	}
	for _, p := range ynode.Pairs(ynode.Get(root, "scripts")) {
		key, cmd := ynode.Str(p.Key), ynode.Str(p.Value)
		if key == "" || cmd == "" {
			continue
		}
		f.Scripts = append(f.Scripts, record.Script{Key: key, Command: cmd, Line: ynode.Line(p.Key)})
	}
	return f
}
