package skill

import (
	"fmt"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// includes reads includes: (comma-separated or a list, relative to the skill
// folder) and reports entries that escape the folder or do not exist.
func (p *parser) includes(id string) []string {
	e, ok := p.fm.Root.Get("includes")
	if !ok || isNull(e.Val) {
		return nil
	}
	var raw []string
	v := deref(e.Val)
	// The cap is applied before any entry is looked at: each is checked
	// against the corpus (a stat) and may be a finding, and 300 000
	// entries made 300 000 findings, 90 s and 5.46 GB before the list was
	// dropped (issue #28 row 12). One finding says how many were dropped.
	if n := includeCount(v); ynode.OverItems(n) {
		p.add(record.CodeParseError, e.Line, id, fmt.Sprintf("%d includes, over the limit of %d one record may hold; none of them is read", n, ynode.MaxItems))
		return nil
	}
	switch {
	case v == nil:
	case v.Kind == yaml.ScalarNode:
		raw = strings.Split(v.Value, ",")
	case v.Kind == yaml.SequenceNode:
		for _, c := range v.Content {
			s, _ := scalar(c)
			raw = append(raw, s)
		}
	default:
		p.add(record.CodeParseError, e.Line, id, "includes must be a comma-separated string or a list")
		return nil
	}
	dir := path.Dir(p.path)
	var out []string
	for _, r := range raw {
		inc := strings.TrimSpace(r)
		if why := includeEscapes(inc); why != "" {
			p.add(record.CodeIncludeEscapes, e.Line, id, fmt.Sprintf("include %q %s", inc, why))
			if inc != "" {
				out = append(out, inc)
			}
			continue
		}
		out = append(out, inc)
		rel := path.Join(dir, strings.TrimSuffix(inc, "/"))
		if p.opt.Exists == nil || !p.opt.Exists(rel) {
			p.add(record.CodeIncludeMissing, e.Line, id, fmt.Sprintf("include %q (%s) does not exist", inc, rel))
		}
	}
	return out
}

// includeCount is the number of entries an includes: value lists, counted
// without splitting it.
func includeCount(v *yaml.Node) int {
	switch {
	case v == nil:
		return 0
	case v.Kind == yaml.ScalarNode:
		return strings.Count(v.Value, ",") + 1
	case v.Kind == yaml.SequenceNode:
		return len(v.Content)
	}
	return 0
}

// includeEscapes says why an include path leaves the skill folder, or "".
// One trailing slash (a directory written as "scripts/") is allowed.
func includeEscapes(inc string) string {
	switch {
	case inc == "":
		return "is empty"
	case inc[0] == '/' || inc[0] == '\\':
		return "is absolute"
	case len(inc) >= 2 && inc[1] == ':' && isLetter(inc[0]):
		return "is absolute (drive letter)"
	case inc[0] == '~':
		return "starts with ~"
	}
	trimmed := strings.TrimSuffix(inc, "/")
	for _, seg := range strings.Split(strings.ReplaceAll(trimmed, "\\", "/"), "/") {
		switch seg {
		case "":
			return "has an empty segment"
		case ".":
			return "has a . segment"
		case "..":
			return "has a .. segment"
		case "~":
			return "has a ~ segment"
		}
	}
	return ""
}

// isLetter reports an ASCII letter.
func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
