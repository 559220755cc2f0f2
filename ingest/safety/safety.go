// Package safety reads a corpus file for what it can do to the agent that
// reads it (issue #28): invisible or direction-changing Unicode, hidden
// instructions aimed at the model, secrets, over-broad tool permissions,
// and commands that fetch and run code. It is a parser-stage package: it
// sees a file's bytes (and the records its parser made) and returns
// findings with a file, a line and, in the message, the column, so each
// finding points at the characters concerned. The rules and their pattern
// lists are in docs/content-safety.md.
package safety

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Source kinds the rules tell apart (the kinds of ingest/format; not
// imported: format is a later user of this package's callers).
const (
	kindSkill     = "skill"
	kindTool      = "tool"
	kindMCP       = "mcp"
	kindBean      = "bean"
	kindBPMN      = "bpmn"
	kindCommand   = "command"
	kindAgent     = "agent"
	kindMcpConfig = "mcp-config"
)

// MaxPerRule bounds the findings one rule reports in one file: past it one
// more finding says how many were left out, so a file of ten thousand
// zero-width spaces costs a few dozen findings, not ten thousand.
const MaxPerRule = 20

// Scan runs every text rule over one file that its parser read as text.
// kind is the file's source kind (skill, tool, mcp, command, …); data is
// the whole file. The findings are in file order within each rule.
func Scan(kind, path string, data []byte) []record.Finding {
	t := newText(kind, path, data)
	var out []record.Finding
	out = append(out, t.invisible()...)
	out = append(out, t.instructions()...)
	out = append(out, t.secrets()...)
	out = append(out, t.permissions()...)
	return out
}

// text is one file being scanned: its bytes, where its lines start, and
// the byte span of its front matter (a markdown file's leading YAML).
type text struct {
	kind, path string
	data       []byte
	lines      []int // byte offset of each line's start
	fmStart    int   // front matter body: [fmStart, fmEnd); fmEnd 0 when none
	fmEnd      int
	lower      []byte // data lower-cased, made when first needed
}

func newText(kind, path string, data []byte) *text {
	t := &text{kind: kind, path: path, data: data, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	if t.markdown() {
		t.fmStart, t.fmEnd = frontMatter(data)
	}
	return t
}

// markdown reports whether the file is a markdown file with front matter
// conventions (skills, commands, agents, beans).
func (t *text) markdown() bool {
	switch t.kind {
	case kindSkill, kindCommand, kindAgent, kindBean:
		return true
	}
	return false
}

// frontMatter is the byte span of the YAML between a leading `---` line and
// the next `---` line; (0, 0) when the file has none.
func frontMatter(data []byte) (start, end int) {
	d := bytes.TrimPrefix(data, []byte("\ufeff"))
	off := len(data) - len(d)
	first, rest, ok := bytes.Cut(d, []byte("\n"))
	if !ok || string(bytes.TrimRight(first, " \t\r")) != "---" {
		return 0, 0
	}
	start = off + len(first) + 1
	pos := start
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return start, pos
		}
		pos += len(line) + 1
		rest = next
	}
	return 0, 0
}

// inFrontMatter reports whether the byte offset lies in the front matter.
func (t *text) inFrontMatter(off int) bool { return t.fmEnd > 0 && off >= t.fmStart && off < t.fmEnd }

// lineOf is the 1-based line of a byte offset.
func (t *text) lineOf(off int) int {
	return sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off })
}

// pos is the 1-based line and column (in characters) of a byte offset.
func (t *text) pos(off int) (line, col int) {
	i := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	start := t.lines[i]
	return i + 1, utf8.RuneCount(t.data[start:off]) + 1
}

// lineText is the text of the 1-based line, without its line break.
func (t *text) lineText(line int) []byte {
	start := t.lines[line-1]
	end := len(t.data)
	if line < len(t.lines) {
		end = t.lines[line] - 1
	}
	return bytes.TrimRight(t.data[start:end], "\r")
}

// lowered is the file with ASCII letters lower-cased (so offsets are
// the file's), made once.
func (t *text) lowered() []byte {
	if t.lower == nil {
		t.lower = make([]byte, len(t.data))
		for i, b := range t.data {
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			t.lower[i] = b
		}
	}
	return t.lower
}

// lowerLine is the lowered text of the 1-based line, aligned with lineText.
func (t *text) lowerLine(line int) []byte {
	start := t.lines[line-1]
	return t.lowered()[start : start+len(t.lineText(line))]
}

// capped keeps the first MaxPerRule findings of one rule and adds one that
// says how many more there were, at the line of the first one left out.
func capped(fs []record.Finding, code, path, what string) []record.Finding {
	if len(fs) <= MaxPerRule {
		return fs
	}
	rest := len(fs) - MaxPerRule
	more := record.New(code, path, fs[MaxPerRule].Line, "",
		fmt.Sprintf("%d more %s in this file from this line on are not listed (the first %d are)", rest, what, MaxPerRule))
	return append(fs[:MaxPerRule:MaxPerRule], more)
}

// quote is s shortened to at most n characters, quoted for a message.
func quote(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return fmt.Sprintf("%q…", string(r[:n]))
	}
	return fmt.Sprintf("%q", s)
}
