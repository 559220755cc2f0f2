package bean

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
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

// readFrontMatter fills b from the front matter and returns its relations.
// Aliases and merge keys are followed (ynode's one alias policy: the
// expansion was bounded when the YAML was parsed).
func readFrontMatter(c *collector, b *record.Bean, fm ynode.FrontMatter) links {
	root, err := ynode.ParseYAML([]byte(fm.YAML))
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = fm.Lines.At(pe.Line), pe.Msg
		}
		if code := ynode.Code(err, record.CodeBeanInvalid); code != record.CodeBeanInvalid {
			c.add(code, line, "front matter refused: "+msg)
			return links{}
		}
		c.add(record.CodeBeanInvalid, line, "front matter is not valid YAML: "+msg)
		return links{}
	}
	if root == nil {
		return links{}
	}
	if root = ynode.Deref(root); root == nil || root.Kind != yaml.MappingNode {
		c.add(record.CodeBeanInvalid, fm.Lines.At(ynode.Line(root)), "front matter is not a YAML mapping of fields")
		return links{}
	}
	at := func(n *yaml.Node) int { return fm.Lines.At(ynode.Line(n)) }
	var lk links
	for _, p := range ynode.Pairs(root) {
		key, val := deref(p.Key), deref(p.Value)
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
		for _, p := range ynode.Pairs(m) {
			key, v := deref(p.Key), deref(p.Value)
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

// deref follows aliases; a missing node reads as an empty one, so that
// fields of the wrong shape are skipped without nil checks.
func deref(n *yaml.Node) *yaml.Node {
	if n = ynode.Deref(n); n == nil {
		return &yaml.Node{}
	}
	return n
}

// scalar returns a scalar's text; null is "" (an empty field, not a
// field of the wrong shape).
func scalar(n *yaml.Node) (string, bool) {
	if ynode.IsNull(n) {
		return "", deref(n).Kind == yaml.ScalarNode
	}
	return ynode.Scalar(n)
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
