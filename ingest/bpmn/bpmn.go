// Package bpmn reads BPMN 2.0 process files (SPEC §2.4) into records.
//
// The file is read as an encoding/xml token stream in strict mode. No DTD is
// processed, no entity is expanded and nothing is ever fetched: a DOCTYPE or
// any other markup declaration makes the file bpmn-invalid. Elements are
// matched by namespace URI, so the BPMN model namespace may be bound to any
// prefix or be the default namespace; elements in other namespaces are
// extensions.
//
// A file that is not well-formed XML, is not a BPMN document (its root is not
// a definitions element in the BPMN model namespace), or holds a process
// without an id yields a single bpmn-invalid finding and no processes at all:
// a partial document is not trusted, so nothing read before the error is
// returned and no other finding is reported for that file.
//
// Checks that need other files (call-unknown-process, skill-ref-unknown,
// duplicate process ids across files) are made later against the graph.
package bpmn

import (
	"path"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Parser is the record.File Parser name of this package.
const Parser = "bpmn"

// Namespace is the BPMN 2.0 model namespace.
const Namespace = "http://www.omg.org/spec/BPMN/20100524/MODEL"

// Namespaces of the Camunda extensions that name a skill or a call target.
const (
	ZeebeNamespace   = "http://camunda.org/schema/zeebe/1.0"
	CamundaNamespace = "http://camunda.org/schema/1.0/bpmn"
)

// Parse reads one BPMN file. path is the corpus-relative, slash-separated
// path; it is copied into the result and into every finding, and its stem
// (base name without extension) becomes each Process.Stem.
//
// Every process of the file is returned in document order. Two processes
// with one id are both returned, with a process-duplicate-id finding on the
// later one. Parse never panics and never reads anything but data.
func Parse(path string, data []byte) record.File {
	p := newParser(path, data)
	procs, err := p.run()
	out := record.File{Path: path, Parser: Parser}
	if err != nil {
		out.Findings = []record.Finding{{
			Code:     record.CodeBPMNInvalid,
			Severity: record.SeverityOf(record.CodeBPMNInvalid),
			Message:  err.msg,
			File:     path,
			Line:     max(err.line, 1),
		}}
		return out
	}
	out.Processes = procs
	out.Findings = p.findings
	return out
}

// Stem returns the file stem of a slash-separated path: its base name
// without the last extension.
func Stem(p string) string {
	b := path.Base(p)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}
