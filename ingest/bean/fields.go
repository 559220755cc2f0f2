package bean

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/ingest/record"
	"go.yaml.in/yaml/v3"
)

// ref is one bean id named in the front matter, with its file line.
type ref struct {
	id   string
	line int
}

// links are the relations read from the front matter before self-links
// are taken out.
type links struct {
	parent    ref
	blocking  []ref
	blockedBy []ref
}

var (
	yamlLineRE   = regexp.MustCompile(`line (\d+)`)
	yamlPrefixRE = regexp.MustCompile(`^yaml: (line \d+: )?`)
)

// parseYAML parses the front matter into a node; errors carry the file line.
func parseYAML(src string, firstLine int) (root *yaml.Node, line int, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, line, err = nil, firstLine-1, fmt.Errorf("YAML parser failure: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		line := firstLine + badByteLine(src) // firstLine-1 (the fence) if none
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			if n, convErr := strconv.Atoi(m[1]); convErr == nil {
				line = n + firstLine - 1
			}
		}
		// YAML counts a lone CR as a line break; editors and findings count
		// LF only. Never point past the front matter.
		line = min(line, firstLine+strings.Count(src, "\n"))
		return nil, line, err
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], 0, nil
	}
	return nil, 0, nil // empty front matter
}

// badByteLine returns the 0-based line of the first byte YAML refuses
// without saying where (invalid UTF-8, a control character), or -1.
func badByteLine(src string) int {
	for i, r := range src {
		if r == utf8.RuneError || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return strings.Count(src[:i], "\n")
		}
	}
	return -1
}

// readFrontMatter fills b from the front matter and returns its relations.
func readFrontMatter(c *collector, b *record.Bean, fm frontMatter) links {
	const first = 2 // the YAML starts on the line after the opening fence
	root, line, err := parseYAML(fm.yaml, first)
	if err != nil {
		msg := yamlPrefixRE.ReplaceAllString(err.Error(), "")
		c.add(record.CodeBeanInvalid, line, "front matter is not valid YAML: "+msg)
		return links{}
	}
	if root == nil {
		return links{}
	}
	root = deref(root)
	if root.Kind != yaml.MappingNode {
		c.add(record.CodeBeanInvalid, root.Line+first-1, "front matter is not a YAML mapping of fields")
		return links{}
	}
	var lk links
	at := func(n *yaml.Node) int { return n.Line + first - 1 }
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := deref(root.Content[i]), deref(root.Content[i+1])
		switch key.Value {
		case "title":
			b.Title, _ = scalar(val)
		case "status":
			b.Status = enum(c, val, at(val), "status", Statuses)
		case "type":
			b.Type = enum(c, val, at(val), "type", Types)
		case "priority":
			b.Priority = enum(c, val, at(val), "priority", Priorities)
		case "tags":
			b.Tags = append(b.Tags, ids(val, at)...)
		case "created_at":
			b.CreatedAt, _ = scalar(val)
		case "updated_at":
			b.UpdatedAt, _ = scalar(val)
		case "parent":
			if s, ok := scalar(val); ok && s != "" {
				lk.parent, b.ParentLine = ref{s, at(val)}, at(key)
			}
		case "blocking", "blocks":
			lk.blocking = append(lk.blocking, refs(val, at)...)
			b.BlockingLine = firstLine(b.BlockingLine, at(key))
		case "blocked_by":
			lk.blockedBy = append(lk.blockedBy, refs(val, at)...)
		case "links":
			readLinks(b, &lk, val, at)
		}
	}
	return lk
}

// readLinks reads the legacy links field: a list of one-key mappings
// ({blocks: id}, {parent: id}, …) or one mapping of lists. Only blocking
// and parent links are relations here; related and duplicates are not.
func readLinks(b *record.Bean, lk *links, val *yaml.Node, at func(*yaml.Node) int) {
	var maps []*yaml.Node
	switch val.Kind {
	case yaml.SequenceNode:
		for _, m := range val.Content {
			if m = deref(m); m.Kind == yaml.MappingNode {
				maps = append(maps, m)
			}
		}
	case yaml.MappingNode:
		maps = append(maps, val)
	}
	for _, m := range maps {
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, v := deref(m.Content[i]), deref(m.Content[i+1])
			switch key.Value {
			case "blocks", "blocking":
				if r := refs(v, at); len(r) > 0 {
					lk.blocking = append(lk.blocking, r...)
					b.BlockingLine = firstLine(b.BlockingLine, at(key))
				}
			case "blocked_by", "blocked-by":
				lk.blockedBy = append(lk.blockedBy, refs(v, at)...)
			case "parent":
				if s, ok := scalar(v); ok && s != "" && lk.parent.id == "" {
					lk.parent, b.ParentLine = ref{s, at(v)}, at(key)
				}
			}
		}
	}
}

func firstLine(cur, line int) int {
	if cur == 0 {
		return line
	}
	return cur
}

// deref follows one alias (aliases are never expanded further).
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	if n == nil {
		return &yaml.Node{}
	}
	return n
}

// scalar returns a scalar's text; null is "".
func scalar(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	return n.Value, true
}

// refs reads a list of ids (or one id) with their lines.
func refs(n *yaml.Node, at func(*yaml.Node) int) []ref {
	var out []ref
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, it := range items {
		it = deref(it)
		if s, ok := scalar(it); ok && s != "" {
			out = append(out, ref{s, at(it)})
		}
	}
	return out
}

// ids reads a list of strings (or one string).
func ids(n *yaml.Node, at func(*yaml.Node) int) []string {
	var out []string
	for _, r := range refs(n, at) {
		out = append(out, r.id)
	}
	return out
}

// enum reads an enumerated field, warning on values outside known.
func enum(c *collector, n *yaml.Node, line int, field string, known []string) string {
	s, ok := scalar(n)
	if !ok {
		c.add(record.CodeBeanUnknownValue, line, fmt.Sprintf("%s is not a single value", field))
		return ""
	}
	if s != "" && !slices.Contains(known, s) {
		c.add(record.CodeBeanUnknownValue, line, fmt.Sprintf("unknown %s %q (known: %v); kept as written", field, s, known))
	}
	return s
}

// applyLinks copies the relations into b, reporting and dropping every
// entry that names the bean itself; duplicates are dropped too.
func applyLinks(c *collector, b *record.Bean, lk links) {
	self := func(r ref, field string) bool {
		if r.id != b.ID {
			return false
		}
		c.add(record.CodeBeanSelfLink, r.line, fmt.Sprintf("%s names the bean itself (%s)", field, b.ID))
		return true
	}
	if lk.parent.id != "" && !self(lk.parent, "parent") {
		b.Parent = lk.parent.id
		b.Refs.Set("parent", lk.parent.id, lk.parent.line)
	}
	for _, r := range lk.blocking {
		if !self(r, "blocking") && !slices.Contains(b.Blocking, r.id) {
			b.Blocking = append(b.Blocking, r.id)
			b.Refs.Set("blocking", r.id, r.line)
		}
	}
	for _, r := range lk.blockedBy {
		if !self(r, "blocked_by") && !slices.Contains(b.BlockedBy, r.id) {
			b.BlockedBy = append(b.BlockedBy, r.id)
			b.Refs.Set("blocked_by", r.id, r.line)
		}
	}
}
