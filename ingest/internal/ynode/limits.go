package ynode

import yaml "go.yaml.in/yaml/v3"

// MaxItems bounds a list whose entries become values of one node of the
// graph (a Tool's satisfies or ports, an MCP server's tools, a port list):
// the JSON-LD conversion (json-gold's node map) compares each new value of
// a property with every value it already has, so its time grows with the
// square of the list (issue #16.6: 20 000 ports took 20 s, 50 000 over
// 120 s). Real files stay far below (the longest such list in the real
// corpora has 67 entries); a longer list refuses its record with a finding.
const MaxItems = 1000

// MaxItemsPerFile bounds the entries of such lists over a whole file, so
// that many records each just under MaxItems cannot add up: the
// conversion's work per file stays below MaxItems × MaxItemsPerFile
// comparisons (about a second).
const MaxItemsPerFile = 10 * MaxItems

// TooMany reports whether n is a sequence (or mapping) of more than
// MaxItems entries, and how many it has.
func TooMany(n *yaml.Node) (int, bool) {
	n = Deref(n)
	if n == nil {
		return 0, false
	}
	count := len(n.Content)
	if n.Kind == yaml.MappingNode {
		count /= 2
	} else if n.Kind != yaml.SequenceNode {
		return 0, false
	}
	return count, count > MaxItems
}

// OverItems reports a list of a record that holds more entries than
// MaxItems; the caller drops the list with a finding.
func OverItems(n int) bool { return n > MaxItems }

// Unique returns ss without repeats, in first-seen order.
func Unique(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
