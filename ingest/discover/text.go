package discover

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// mustBeText reports whether files of a kind are read as UTF-8 text. BPMN
// files are XML, which declares its own encoding (UTF-16 has NUL bytes);
// the declaration was parsed by discovery already.
func mustBeText(kind string) bool {
	return kind != KindBPMN && kind != KindDeclaration
}

// NotText is the file-not-text finding (error) of a file that is not text —
// a NUL byte or invalid UTF-8 anywhere in it, not only in its front matter
// — on the line of the first such byte (SPEC §1.2). Such a file yields no
// records: a binary file named .md is not a skill with 129 body lines.
// ok is false for a text file, or a kind that is not read as UTF-8 text.
func NotText(rel, kind string, data []byte) (f record.Finding, ok bool) {
	if !mustBeText(kind) {
		return record.Finding{}, false
	}
	nul := bytes.IndexByte(data, 0)
	if nul < 0 && utf8.Valid(data) {
		return record.Finding{}, false
	}
	at, why := len(data), ""
	if nul >= 0 {
		at, why = nul, "a NUL byte"
	}
	for i := 0; i < at; {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			at, why = i, "invalid UTF-8"
			break
		}
		i += size
	}
	line := bytes.Count(data[:at], []byte("\n")) + 1
	return record.Finding{Code: record.CodeFileNotText, Severity: record.SeverityOf(record.CodeFileNotText), File: rel, Line: line,
		Message: fmt.Sprintf("not a text file: %s at byte %d (line %d); nothing in it is read", why, at, line)}, true
}
