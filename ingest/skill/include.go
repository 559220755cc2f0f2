package skill

import (
	"fmt"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

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
