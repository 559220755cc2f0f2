package ynode

import yaml "go.yaml.in/yaml/v3"

// Entry is one key of a YAML mapping with its position in the file.
type Entry struct {
	Name string
	Key  *yaml.Node
	Val  *yaml.Node
	Line int // 1-based file line of the key
}

// Mapping is the keys of a YAML mapping in document order; the first
// occurrence of a key wins and later ones are kept in Dups, so that a
// parser can report them.
type Mapping struct {
	Entries []Entry
	Dups    []Entry // later occurrences of a key
	byName  map[string]int
}

// Get returns the entry named name.
func (m Mapping) Get(name string) (Entry, bool) {
	i, ok := m.byName[name]
	if !ok {
		return Entry{}, false
	}
	return m.Entries[i], true
}

// Has reports whether the mapping holds name.
func (m Mapping) Has(name string) bool {
	_, ok := m.byName[name]
	return ok
}

// Scalar returns the text of key name ("" when absent or not a scalar) and
// the line of the key (0 when absent).
func (m Mapping) Scalar(name string) (string, int) {
	e, ok := m.Get(name)
	if !ok {
		return "", 0
	}
	s, _ := Scalar(e.Val)
	return s, e.Line
}

// Entries reads mapping n (aliases and merge keys followed, see Pairs) with
// file lines from lm. Keys that are not scalars are skipped.
func Entries(n *yaml.Node, lm LineMap) Mapping {
	m := Mapping{byName: map[string]int{}}
	for _, p := range Pairs(n) {
		k := Deref(p.Key)
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		e := Entry{Name: k.Value, Key: k, Val: p.Value, Line: lm.At(k.Line)}
		if _, dup := m.byName[k.Value]; dup {
			m.Dups = append(m.Dups, e)
			continue
		}
		m.byName[k.Value] = len(m.Entries)
		m.Entries = append(m.Entries, e)
	}
	return m
}
