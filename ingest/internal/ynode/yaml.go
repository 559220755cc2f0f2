package ynode

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// MaxAliasExpansion bounds how many values following a YAML document's
// aliases may add to it (SPEC §1.2, yaml-alias-limit). Real files reuse a
// few anchors; a "billion laughs" document of a few hundred bytes adds
// billions. Checking the bound when parsing lets every reader follow
// aliases freely (a description or tags written as an alias are read, not
// dropped) without any reader being able to blow up.
const MaxAliasExpansion = 100_000

// ErrAliasLimit is the cause of an *Error for a document whose alias
// expansion exceeds MaxAliasExpansion (or whose aliases form a cycle).
var ErrAliasLimit = errors.New("YAML aliases expand beyond the limit")

// Code is the finding code of a parse error: yaml-alias-limit for a
// document refused for its aliases, otherwise the parser's own code.
func Code(err error, otherwise string) string {
	if errors.Is(err, ErrAliasLimit) {
		return record.CodeYamlAliasLimit
	}
	return otherwise
}

// ParseYAML parses the first YAML document of data and returns its root node
// (nil for an empty document). The *Error of a failure carries the 1-based
// line within data. Documents nested deeper than MaxDepth, or whose aliases
// would expand beyond MaxAliasExpansion values (errors.Is ErrAliasLimit),
// are refused.
func ParseYAML(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{Line: 1, Msg: fmt.Sprintf("yaml parser failed: %v", r)}
		}
	}()
	var doc yaml.Node
	if uerr := yaml.Unmarshal(data, &doc); uerr != nil {
		return nil, &Error{Line: errLine(uerr, string(data)), Msg: errText(uerr)}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root == nil {
		return nil, nil
	}
	if depth(root, 0) > MaxDepth {
		return nil, &Error{Line: 1, Msg: fmt.Sprintf("nesting deeper than %d", MaxDepth)}
	}
	if line, over := aliasesOverLimit(root); over {
		return nil, &Error{Line: line, Err: ErrAliasLimit,
			Msg: fmt.Sprintf("aliases expand to more than %d values (or refer to themselves); the document is refused", MaxAliasExpansion)}
	}
	return root, nil
}

// aliasesOverLimit reports whether following root's aliases adds more than
// MaxAliasExpansion values, and the line of the alias that crosses the
// bound. It runs in one pass over the document as written: an alias always
// refers to an anchor earlier in the document, whose expanded size is
// already known, or to a node still open around it — a cycle, which
// expands forever.
func aliasesOverLimit(root *yaml.Node) (line int, over bool) {
	const limit = MaxAliasExpansion
	size := map[*yaml.Node]int{} // expanded size of each finished node, capped
	open := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node) (expanded, extra int, line int, over bool)
	// walk returns n's expanded size and how much of it aliases added.
	walk = func(n *yaml.Node) (int, int, int, bool) {
		open[n] = true
		expanded, extra := 1, 0
		for _, c := range n.Content {
			if c == nil {
				continue
			}
			var cs int
			if c.Kind == yaml.AliasNode {
				t := c.Alias
				if t == nil || open[t] {
					return 0, 0, Line(c), true // a cycle
				}
				cs = max(size[t], 1)
				extra += cs
			} else {
				s, e, l, o := walk(c)
				if o {
					return 0, 0, l, true
				}
				cs, extra = s, extra+e
			}
			expanded += cs
			if extra > limit {
				return 0, 0, Line(c), true
			}
		}
		delete(open, n)
		size[n] = min(expanded, limit+1)
		return expanded, extra, 0, false
	}
	_, _, line, over = walk(root)
	return line, over
}

// depth returns the nesting depth of n without following aliases.
func depth(n *yaml.Node, d int) int {
	if d > MaxDepth {
		return d
	}
	max := d
	for _, c := range n.Content {
		if c == nil {
			continue
		}
		if cd := depth(c, d+1); cd > max {
			max = cd
		}
		if max > MaxDepth {
			break
		}
	}
	return max
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// parserProblems are the problems yaml.v3 reports from its parser (as
// opposed to its scanner or reader). The parser reports a 0-based line (and
// none at all for line 0); the scanner a 1-based one; the reader none.
var parserProblems = []string{
	"did not find expected", "found duplicate %", "found incompatible YAML", "found undefined tag handle",
}

// readerProblems are the problems yaml.v3 reports from its input reader,
// without a line.
var readerProblems = []string{
	"control characters are not allowed", "UTF-8", "UTF-16", "surrogate", "invalid Unicode character", "input error",
}

// errLine maps a yaml.v3 error on text to a 1-based line of text, kept
// inside it (an error at the end of the stream points past the last line).
func errLine(err error, text string) int {
	msg := err.Error()
	lines := yamlLines(text)
	for _, p := range readerProblems {
		if strings.Contains(msg, p) {
			return min(badCharLine(text), lines)
		}
	}
	n := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if v, e := strconv.Atoi(m[1]); e == nil && v > 0 && v < 1<<30 {
			n = v
		}
	}
	for _, p := range parserProblems {
		if strings.Contains(msg, p) {
			n++
			break
		}
	}
	return max(1, min(n, lines))
}

// yamlLines counts the lines of text as YAML breaks them (LF, CR, CRLF,
// NEL, LS, PS); a final break ends the last line, it starts none.
func yamlLines(text string) int {
	n := 1
	for i, r := range text {
		switch r {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				continue
			}
			n++
		case '\n', 0x85, 0x2028, 0x2029:
			n++
		}
	}
	if last, _ := utf8.DecodeLastRuneInString(text); n > 1 && strings.ContainsRune("\r\n\u0085\u2028\u2029", last) {
		n--
	}
	return n
}

// badCharLine returns the 1-based line of the first character YAML does not
// accept (invalid UTF-8, a control character other than tab/CR/LF, or a
// non-printable code point); 1 when none is found.
func badCharLine(text string) int {
	line := 1
	for i, r := range text {
		switch {
		case r == '\n':
			line++
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(text[i:]); size <= 1 {
				return line
			}
		case r == '\t' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0 && r != 0x85) || r == 0xfffe || r == 0xffff:
			return line
		}
	}
	return 1
}

// errText strips the "yaml: " prefix and the line from a yaml.v3 message.
func errText(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	s = yamlLineRE.ReplaceAllString(s, "")
	s = strings.TrimLeft(s, ": ")
	if s == "" {
		s = "invalid YAML"
	}
	return s
}

// KindName names a YAML node kind for messages.
func KindName(k yaml.Kind) string {
	switch k {
	case yaml.DocumentNode:
		return "document"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}
