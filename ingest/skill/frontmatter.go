package skill

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
)

// The YAML helpers of this package are ynode's: one alias policy (aliases
// followed, expansion bounded when parsing), one front-matter rule.
type (
	mapping = ynode.Mapping
	entry   = ynode.Entry
	lineMap = ynode.LineMap
)

var (
	newLineMap = ynode.NewLineMap
	deref      = ynode.Deref
	isNull     = ynode.IsNull
	scalar     = ynode.Scalar
	kindName   = ynode.KindName
)

// entries reads mapping n (aliases and merge keys followed); later
// duplicates of a key go to dups.
func entries(n *yaml.Node, lm lineMap) (m mapping, dups []entry) {
	m = ynode.Entries(n, lm)
	return m, m.Dups
}

// scalarOf returns the scalar text of key name in m ("" when absent or not
// a scalar) and its line.
func scalarOf(m mapping, name string) (string, int) { return m.Scalar(name) }

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

// splitFrontMatter finds the front matter in lines (as ynode.Lines returns
// them) and parses it.
func splitFrontMatter(lines []string) frontMatter {
	sp := ynode.SplitFrontMatter(lines)
	fm := frontMatter{Present: sp.Present, Closed: sp.Closed, Raw: sp.YAML, Lines: sp.Lines, BodyIdx: sp.BodyIdx}
	if !fm.Present {
		return fm
	}
	if !fm.Closed {
		fm.Err = fmt.Errorf("front matter is not closed by a --- line")
		fm.ErrLine = 1
		return fm // not front matter after all: the whole file is body
	}
	root, err := parseYAML(fm.Raw)
	if err != nil {
		fm.Err, fm.ErrLine = err, errLine(err, fm.Lines)
		return fm
	}
	if root == nil {
		return fm
	}
	if root.Kind != yaml.MappingNode {
		fm.NotMap = true
		fm.Err = fmt.Errorf("front matter is a YAML %s, not a mapping", kindName(root.Kind))
		fm.ErrLine = fm.Lines.At(root.Line)
		return fm
	}
	fm.Root = ynode.Entries(root, fm.Lines)
	fm.Dups = fm.Root.Dups
	return fm
}

// parseYAML parses one YAML document into its root node (nil when empty).
func parseYAML(text string) (*yaml.Node, error) { return ynode.ParseYAML([]byte(text)) }

// errLine maps a parse error on a YAML text to a file line.
func errLine(err error, lm lineMap) int {
	if pe, ok := err.(*ynode.Error); ok {
		return lm.At(pe.Line)
	}
	return lm.At(1)
}

// yamlErrText is the message of a parse error without its line.
func yamlErrText(err error) string {
	if pe, ok := err.(*ynode.Error); ok {
		return pe.Msg
	}
	return err.Error()
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
