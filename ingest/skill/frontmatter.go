package skill

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// maxAliasHops bounds how many alias indirections deref follows.
const maxAliasHops = 16

// entry is one key of a YAML mapping with its position in the file.
type entry struct {
	Name string
	Key  *yaml.Node
	Val  *yaml.Node
	Line int // 1-based file line of the key
}

// mapping is the ordered keys of a YAML mapping (first occurrence wins).
type mapping struct {
	Entries []entry
	byName  map[string]int
}

// get returns the entry named name.
func (m mapping) get(name string) (entry, bool) {
	i, ok := m.byName[name]
	if !ok {
		return entry{}, false
	}
	return m.Entries[i], true
}

// has reports whether the mapping holds name.
func (m mapping) has(name string) bool {
	_, ok := m.byName[name]
	return ok
}

// frontMatter is the YAML header of a markdown file.
type frontMatter struct {
	Present bool    // the file starts with a --- line
	Closed  bool    // a closing --- line was found
	Err     error   // YAML syntax error, if any
	ErrLine int     // file line of Err
	Root    mapping // top-level keys (empty when absent or invalid)
	Dups    []entry // duplicate top-level keys (the later occurrences)
	NotMap  bool    // the YAML parsed but is not a mapping
	Lines   lineMap // YAML line → file line
	Raw     string  // the YAML text
	BodyIdx int     // 0-based index into the file lines of the first body line
}

// splitFrontMatter finds the front matter in lines (already BOM-stripped and
// LF-normalised) and parses it.
func splitFrontMatter(lines []string) frontMatter {
	var fm frontMatter
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return fm
	}
	fm.Present = true
	end := -1
	for i := 1; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], " \t")
		if t == "---" || t == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		fm.Err = fmt.Errorf("front matter is not closed by a --- line")
		fm.ErrLine = 1
		fm.BodyIdx = 0 // not front matter after all: the whole file is body
		return fm
	}
	fm.Closed = true
	fm.BodyIdx = end + 1
	fm.Raw = strings.Join(lines[1:end], "\n")
	fm.Lines = newLineMap(fm.Raw, 2)
	root, err := parseYAML(fm.Raw)
	if err != nil {
		fm.Err = err
		fm.ErrLine = yamlErrLine(err, fm.Raw, fm.Lines)
		return fm
	}
	if root == nil {
		return fm
	}
	if root.Kind != yaml.MappingNode {
		fm.NotMap = true
		fm.Err = fmt.Errorf("front matter is a YAML %s, not a mapping", kindName(root.Kind))
		fm.ErrLine = fm.Lines.at(root.Line)
		return fm
	}
	fm.Root, fm.Dups = entries(root, fm.Lines)
	return fm
}

// parseYAML parses one YAML document into its root node (nil when empty).
// A panic inside the YAML library is turned into an error.
func parseYAML(text string) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml: parser failure: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// parserProblems are the problems yaml.v3 reports from its parser (as
// opposed to its scanner or reader). The parser reports a 0-based line (and
// none at all for line 0); the scanner a 1-based one; the reader none.
var parserProblems = []string{
	"did not find expected", "found duplicate %", "found incompatible YAML", "found undefined tag handle",
}

// readerProblems are the problems yaml.v3 reports from its input reader.
var readerProblems = []string{
	"control characters are not allowed", "UTF-8", "UTF-16", "surrogate", "invalid Unicode character", "input error",
}

// yamlErrLine maps a yaml error on text to a file line.
func yamlErrLine(err error, text string, lm lineMap) int {
	msg := err.Error()
	for _, p := range readerProblems {
		if strings.Contains(msg, p) {
			return lm.first + badCharLine(text) - 1
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
	// An error at the end of the stream points past the last line; keep it
	// inside the YAML text.
	return lm.at(n)
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
		case r == utf8.RuneError && isInvalidAt(text, i):
			return line
		case r == '\t' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0 && r != 0x85) || r == 0xfffe || r == 0xffff:
			return line
		}
	}
	return 1
}

// isInvalidAt reports whether text holds an invalid UTF-8 sequence at i.
func isInvalidAt(text string, i int) bool {
	_, size := utf8.DecodeRuneInString(text[i:])
	return size <= 1
}

// yamlErrText strips the "yaml: " prefix and the line from an error message.
func yamlErrText(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	s = yamlLineRE.ReplaceAllString(s, "")
	s = strings.TrimLeft(s, ": ")
	if s == "" {
		s = "invalid YAML"
	}
	return s
}

// entries lists the keys of mapping node n (after alias resolution).
// Keys that are not scalars are skipped. Later duplicates go to dups.
func entries(n *yaml.Node, lm lineMap) (m mapping, dups []entry) {
	m.byName = map[string]int{}
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return m, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		e := entry{Name: k.Value, Key: k, Val: v, Line: lm.at(k.Line)}
		if _, dup := m.byName[k.Value]; dup {
			dups = append(dups, e)
			continue
		}
		m.byName[k.Value] = len(m.Entries)
		m.Entries = append(m.Entries, e)
	}
	return m, dups
}

// deref follows alias nodes (bounded) and returns the target.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// isNull reports whether n is absent or a YAML null.
func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// scalar returns the text of a non-null scalar node.
func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// scalarOf returns the scalar text of key name in m ("" when absent or not
// a scalar) and its line.
func scalarOf(m mapping, name string) (string, int) {
	e, ok := m.get(name)
	if !ok {
		return "", 0
	}
	s, _ := scalar(e.Val)
	return s, e.Line
}

// kindName names a YAML node kind for messages.
func kindName(k yaml.Kind) string {
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

// sniffKeys lists top-level keys of YAML text that failed to parse, by a
// line scan, for classification only.
func sniffKeys(raw string) map[string]string {
	keys := map[string]string{}
	for _, l := range strings.Split(raw, "\n") {
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue
		}
		i := strings.Index(l, ":")
		if i <= 0 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(l[:i]), `"'`)
		if _, seen := keys[k]; !seen {
			keys[k] = strings.Trim(strings.TrimSpace(l[i+1:]), `"'`)
		}
	}
	return keys
}

// lineMap maps the 1-based lines of a YAML text to file lines. YAML also
// breaks lines at NEL, LS and PS, which markdown does not; m holds the map
// only when the text has such characters.
type lineMap struct {
	first int   // file line of YAML line 1
	n     int   // number of YAML lines
	m     []int // m[i] = file line of YAML line i+1, or nil
}

// newLineMap maps text whose first line is file line first.
func newLineMap(text string, first int) lineMap {
	lm := lineMap{first: first, n: strings.Count(text, "\n") + 1}
	if !strings.ContainsAny(text, "\u0085\u2028\u2029") {
		return lm
	}
	lm.m = []int{first}
	fl := first
	for _, r := range text {
		switch r {
		case '\n':
			fl++
			lm.m = append(lm.m, fl)
		case 0x85, 0x2028, 0x2029:
			lm.m = append(lm.m, fl)
		}
	}
	lm.n = len(lm.m)
	return lm
}

// at returns the file line of YAML line yl, clamped to the text (an error
// at the end of the stream points past the last line).
func (lm lineMap) at(yl int) int {
	if lm.first == 0 {
		return 1 // no YAML text
	}
	yl = max(1, min(yl, lm.n))
	if lm.m != nil {
		return lm.m[yl-1]
	}
	return lm.first + yl - 1
}
