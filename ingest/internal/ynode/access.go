package ynode

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// MaxNodes bounds how many nodes ToAny visits (aliases make YAML documents
// expand; this keeps a small file from becoming a huge value).
const MaxNodes = 1 << 18

// ErrTooLarge is returned by ToAny when a document expands beyond MaxNodes.
var ErrTooLarge = errors.New("document expands to too many values")

// Deref follows aliases (at most a few hops) and returns the target node.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// IsMap reports whether n is a mapping.
func IsMap(n *yaml.Node) bool { n = Deref(n); return n != nil && n.Kind == yaml.MappingNode }

// IsSeq reports whether n is a sequence.
func IsSeq(n *yaml.Node) bool { n = Deref(n); return n != nil && n.Kind == yaml.SequenceNode }

// IsNull reports whether n is absent or an explicit null.
func IsNull(n *yaml.Node) bool {
	n = Deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// Pair is one key/value of a mapping.
type Pair struct{ Key, Value *yaml.Node }

// Pairs lists the entries of a mapping in document order (nil otherwise).
// A merge key (`<<: *base`, or a list of such aliases) is replaced by the
// entries of the mappings it names that the mapping does not set itself,
// after its own entries, as YAML 1.1 merges and yaml.v3 decodes them.
func Pairs(n *yaml.Node) []Pair {
	n = Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]Pair, 0, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k != nil && k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, n.Content[i+1])
			continue
		}
		out = append(out, Pair{Key: n.Content[i], Value: n.Content[i+1]})
	}
	if merges == nil {
		return out
	}
	set := make(map[string]bool, len(out))
	for _, p := range out {
		set[Str(p.Key)] = true
	}
	for _, m := range merges {
		sources := []*yaml.Node{m}
		if IsSeq(m) {
			sources = Items(m)
		}
		for _, src := range sources {
			src = Deref(src)
			if src == nil || src.Kind != yaml.MappingNode || src == n {
				continue
			}
			// Merged mappings may merge others: bounded by the alias check
			// made when the document was parsed, and by the depth of Deref.
			for _, p := range pairsOnce(src) {
				if k := Str(p.Key); !set[k] {
					set[k] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// pairsOnce lists a merged mapping's own entries (its merge keys are not
// followed again: one level of merging, as in practice).
func pairsOnce(n *yaml.Node) []Pair {
	out := make([]Pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k != nil && k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			continue
		}
		out = append(out, Pair{Key: n.Content[i], Value: n.Content[i+1]})
	}
	return out
}

// Get returns the value of key in mapping n (the last one if repeated), or nil.
func Get(n *yaml.Node, key string) *yaml.Node {
	var found *yaml.Node
	for _, p := range Pairs(n) {
		if p.Key != nil && p.Key.Value == key {
			found = p.Value
		}
	}
	return Deref(found)
}

// KeyNode returns the key node of key in mapping n (the last one), or nil.
func KeyNode(n *yaml.Node, key string) *yaml.Node {
	var found *yaml.Node
	for _, p := range Pairs(n) {
		if p.Key != nil && p.Key.Value == key {
			found = p.Key
		}
	}
	return found
}

// Items returns the elements of a sequence (nil otherwise), aliases followed.
func Items(n *yaml.Node) []*yaml.Node {
	n = Deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		if c = Deref(c); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// Scalar returns the text of a non-null scalar and whether n is one.
func Scalar(n *yaml.Node) (string, bool) {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// Str returns a scalar's text ("" for null, a collection or nil).
func Str(n *yaml.Node) string {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// Strings returns the scalar texts of a sequence, skipping non-scalars.
func Strings(n *yaml.Node) []string {
	var out []string
	for _, c := range Items(n) {
		if c.Kind == yaml.ScalarNode && c.Tag != "!!null" {
			out = append(out, c.Value)
		}
	}
	return out
}

// Bool returns the boolean value of a !!bool scalar and whether it is one.
func Bool(n *yaml.Node) (value, ok bool) {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(n.Value))
	return b, err == nil
}

// Int returns the value of an integer scalar and whether it is one.
func Int(n *yaml.Node) (int64, bool) {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		return 0, false
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		return 0, false
	}
	return v, true
}

// Line returns n's 1-based line (1 when unknown).
func Line(n *yaml.Node) int {
	if n == nil || n.Line < 1 {
		return 1
	}
	return n.Line
}

// ToAny converts n into plain Go values as encoding/json would produce them
// (map[string]any, []any, string, bool, nil, and json.Number, int64 or
// float64 for numbers). Aliases are expanded up to MaxNodes values.
func ToAny(n *yaml.Node) (any, error) {
	budget := MaxNodes
	return toAny(n, &budget, 0)
}

func toAny(n *yaml.Node, budget *int, depth int) (any, error) {
	*budget--
	if *budget < 0 || depth > MaxDepth {
		return nil, ErrTooLarge
	}
	n = Deref(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for _, p := range Pairs(n) {
			v, err := toAny(p.Value, budget, depth+1)
			if err != nil {
				return nil, err
			}
			m[Str(p.Key)] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := toAny(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return toAny(n.Content[0], budget, depth+1)
	}
	return scalar(n), nil
}

func scalar(n *yaml.Node) any {
	if !numberFits(n) {
		return n.Value // Problems reports it; a reader gets the text as written
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		if b, ok := Bool(n); ok {
			return b
		}
	case "!!int", "!!float":
		if isJSONNumber(n.Value) {
			return json.Number(n.Value)
		}
		if i, ok := Int(n); ok {
			return i
		}
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return n.Value
}

func isJSONNumber(s string) bool {
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return false
	}
	var num json.Number
	return json.Unmarshal([]byte(s), &num) == nil
}

// SchemaType reads a JSON Schema "type" value: a string, or the first entry
// of a list that is not "null"; "" otherwise.
func SchemaType(n *yaml.Node) string {
	if IsSeq(n) {
		for _, s := range Strings(n) {
			if s != "null" {
				return s
			}
		}
		return ""
	}
	return Str(n)
}
