package tsmodule

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Tool is one `defineTool({...})` of a module, as the YAML node tree a JSON
// Tool file of the same content would parse to, with the module's lines.
type Tool struct {
	ID   string // "" when the id is not known
	Line int    // the line of the defineTool call
	Node *yaml.Node
}

// Dynamic is a value of a Tool that is known only at run time.
type Dynamic struct {
	Tool  string // the Tool's id, "" if not known
	Field string // JSON path inside the Tool, e.g. maintains[0].artefact
	Line  int
	Why   string
}

// Tools evaluates a module's exports and returns the Tools whose
// defineTool call is written in this module (a Tool made by a sibling
// module belongs to that module's file), in source order, with the values
// it cannot know.
//
// A module nested too deeply to parse safely (ErrTooDeep) is not an error:
// it has no Tools that can be read, and Exhausted says why.
func (p *Program) Tools(rel string, src []byte) ([]Tool, []Dynamic, error) {
	env, err := p.Module(rel, src)
	if errors.Is(err, ErrTooDeep) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	c := &collector{prog: p, mod: env.mod, seen: map[string]bool{}, walked: map[Value]bool{}}
	for _, name := range env.Exports() {
		v := p.Export(env, name)
		if f, ok := v.(*Func); ok {
			v = p.apply(f, nil, 0, f.origin)
		}
		c.walk(v, 0, false)
	}
	return c.tools, c.dynamic, nil
}

// MaxToolValues bounds how many values (scalars, lists, objects) the Tools
// of one module hold once the constants they share are expanded. A value
// is evaluated once and shared wherever it is named, so a 1 KB module of
// `const a1 = {k: a0, j: a0}` … 22 levels names 4 million values; each
// Tool becomes a tree of its own, as a Tool file would be. The largest
// real Tool holds ~150.
const MaxToolValues = 100_000

type collector struct {
	prog    *Program
	mod     *Module
	seen    map[string]bool
	walked  map[Value]bool // values already searched for Tools: each once
	values  int            // values built into Tools so far (MaxToolValues)
	tools   []Tool
	dynamic []Dynamic
}

// walk finds ToolCalls in an exported value: directly, in arrays, or in
// object values (a table of Tools).
func (c *collector) walk(v Value, depth int, inToolList bool) {
	if depth > 32 {
		return
	}
	switch v.(type) {
	case *Array, *Object:
		// A shared value is searched once, not once per name of it.
		if c.walked[v] {
			return
		}
		c.walked[v] = true
	}
	switch x := v.(type) {
	case *ToolCall:
		c.tool(x)
	case *Array:
		holds := false
		for _, it := range x.Items {
			if _, ok := it.(*ToolCall); ok {
				holds = true
				break
			}
		}
		for _, it := range x.Items {
			if u, ok := it.(*Unknown); ok && holds && u.mod == c.mod {
				c.note(Dynamic{Field: "(Tool list)", Line: u.Line(), Why: u.Why})
				continue
			}
			c.walk(it, depth+1, holds)
		}
	case *Object:
		for _, k := range x.Keys {
			c.walk(x.Vals[k], depth+1, false)
		}
	}
}

func (c *collector) note(d Dynamic) {
	key := fmt.Sprintf("%s\x00%s\x00%d", d.Tool, d.Field, d.Line)
	if c.seen["d"+key] {
		return
	}
	c.seen["d"+key] = true
	c.dynamic = append(c.dynamic, d)
}

func (c *collector) tool(t *ToolCall) {
	if t.mod != c.mod {
		return // written in a sibling module: read with that file
	}
	obj, ok := t.Arg.(*Object)
	if !ok {
		c.note(Dynamic{Field: "(the Tool)", Line: t.Line(), Why: "the argument of defineTool is not an object literal"})
		return
	}
	id := ""
	if s, ok := obj.Vals["id"].(*String); ok {
		id = s.V
	}
	b := &builder{c: c, tool: id}
	node := b.node(obj, "")
	if b.over {
		if c.prog.Exhausted == "" {
			c.prog.Exhausted = fmt.Sprintf("size limit (the Tools of %s hold more than %d values once shared constants are expanded)", t.mod.Path, MaxToolValues)
		}
		c.note(Dynamic{Tool: id, Field: "(the Tool)", Line: t.Line(),
			Why: fmt.Sprintf("the module's Tools hold more than %d values once their shared constants are expanded", MaxToolValues)})
		return
	}
	if id == "" {
		line, why := t.Line(), "the id is not a string"
		if v, ok := obj.Vals["id"]; ok {
			line = v.orig().Line()
			if u, ok := v.(*Unknown); ok {
				why = u.Why
			}
		} else if len(obj.Spreads) > 0 {
			why = "the id may come from a spread known only at run time"
		} else {
			why = "there is no id"
		}
		c.note(Dynamic{Field: "id", Line: line, Why: why})
		return
	}
	key := fmt.Sprintf("%d\x00%s", t.idx, canonical(node))
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	for _, d := range b.dynamic {
		c.note(d)
	}
	c.tools = append(c.tools, Tool{ID: id, Line: t.Line(), Node: node})
}

// builder turns a Tool's value into a YAML node tree, dropping what is
// unknown and noting it.
type builder struct {
	c       *collector
	tool    string
	dynamic []Dynamic
	over    bool // past MaxToolValues: the tree is incomplete and is dropped
}

func (b *builder) drop(field string, u Value, why string) {
	if x, ok := u.(*Unknown); ok {
		why = x.Why
	}
	b.dynamic = append(b.dynamic, Dynamic{Tool: b.tool, Field: field, Line: u.orig().Line(), Why: why})
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func (b *builder) node(v Value, field string) *yaml.Node {
	// Each value counts as it is expanded, so a shared one counts every
	// time it is named: the work stops at the bound, not after it.
	if b.c.values++; b.c.values > MaxToolValues {
		b.over = true
	}
	if b.over {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	line := v.orig().Line()
	switch x := v.(type) {
	case *String:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x.V, Line: line, Style: yaml.DoubleQuotedStyle}
	case *TypeRef:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x.Name, Line: line, Style: yaml.DoubleQuotedStyle}
	case *Number:
		tag := "!!float"
		if x.V == float64(int64(x.V)) {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: numberString(x.V), Line: line}
	case *Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x.V), Line: line}
	case *Null:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}
	case *Array:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Style: yaml.FlowStyle}
		i := 0
		for _, it := range x.Items {
			if b.over {
				break
			}
			f := fmt.Sprintf("%s[%d]", field, i)
			if !known(it) {
				b.drop(f, it, "a value known only at run time")
				continue
			}
			n.Content = append(n.Content, b.node(it, f))
			i++
		}
		return n
	case *Object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line, Style: yaml.FlowStyle}
		for _, sp := range x.Spreads {
			b.drop(join(field, "..."), sp, "a spread known only at run time")
		}
		for _, k := range x.Keys {
			if b.over {
				break
			}
			val := x.Vals[k]
			if _, ok := val.(*Undefined); ok {
				continue // JSON drops undefined keys
			}
			f := join(field, k)
			if !known(val) {
				b.drop(f, val, "a value known only at run time")
				continue
			}
			key := k
			if _, ok := val.(*TypeRef); ok && k == "schema" {
				key = "type" // schema: t("Name") names the port's type
			}
			kp := x.KeyPos[k]
			n.Content = append(n.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: kp.Line(), Style: yaml.DoubleQuotedStyle},
				b.node(val, f))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}
}

// known reports whether a value can stand in a Tool file.
func known(v Value) bool {
	switch v.(type) {
	case *String, *TypeRef, *Number, *Bool, *Null, *Array, *Object, *Undefined:
		return true
	}
	return false
}

// canonical is a node tree's JSON form, to tell repeated evaluations of one
// call apart from distinct Tools. The tree is turned into plain values in
// one pass: yaml.v3's Decode checks each mapping key against every key
// before it, so decoding an object of 20 000 keys took 5.5 s (issue #28
// row 9).
func canonical(n *yaml.Node) string {
	b, err := json.Marshal(plain(n))
	if err != nil {
		return ""
	}
	return string(b)
}

// plain is n as the values yaml.v3 decodes it to (a later key wins, as
// there), built without its quadratic check for repeated keys. The trees
// a module builds nest at most MaxDepth levels.
func plain(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return plain(n.Content[0])
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = plain(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = plain(c)
		}
		return l
	case yaml.AliasNode:
		return plain(n.Alias)
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	return v
}

// String gives the Dynamic's message.
func (d Dynamic) String() string {
	what := d.Field
	if d.Tool != "" {
		what = "Tool " + d.Tool + ": " + d.Field
	}
	return strings.TrimSpace(what + " is known only at run time (" + d.Why + ")")
}
