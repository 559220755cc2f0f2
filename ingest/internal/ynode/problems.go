package ynode

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Problem is something a parsed document holds that would silently change
// its data if read without a word (issue #16.7): a key given twice in one
// object, or a number no reader can hold.
type Problem struct {
	Line int
	Msg  string
}

// MaxNumberDigits bounds the text of a number: a longer one is kept as the
// text it is (a string), with a problem. float64 holds 17 significant
// digits; a 100 000-digit number is an attack on whoever parses it next.
const MaxNumberDigits = 100

// Problems walks root as written (aliases are not followed: each node is
// seen once, in linear time) and reports duplicate keys of a mapping (the
// later one, which JSON readers keep) and numbers that do not fit a float64
// or are over MaxNumberDigits long. ToAny turns such a number into its text.
func Problems(root *yaml.Node) []Problem {
	var out []Problem
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > MaxDepth {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			var seen map[string]int
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k != nil && k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
					if seen == nil {
						seen = make(map[string]int, len(n.Content)/2)
					}
					if first, dup := seen[k.Value]; dup {
						out = append(out, Problem{Line: Line(k), Msg: fmt.Sprintf(
							"key %q is given twice in one object (first on line %d); the later value is used", truncate(k.Value, 80), first)})
					} else {
						seen[k.Value] = Line(k)
					}
				}
				walk(n.Content[i+1], depth+1)
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		case yaml.ScalarNode:
			if !numberFits(n) {
				out = append(out, Problem{Line: Line(n), Msg: fmt.Sprintf(
					"number %s (%d characters) does not fit a 64-bit float; it is kept as text", truncate(n.Value, 24), len(n.Value))})
			}
		}
	}
	walk(root, 0)
	return out
}

// numberFits reports whether a scalar that is not a number, or a number
// that a float64 holds (finite, at most MaxNumberDigits long).
func numberFits(n *yaml.Node) bool {
	if n.Tag != "!!int" && n.Tag != "!!float" {
		return true
	}
	if strings.HasPrefix(n.Value, ".") || strings.Contains(strings.ToLower(n.Value), "inf") || strings.Contains(strings.ToLower(n.Value), "nan") {
		return true // YAML's .inf and .nan are values of their own
	}
	if len(n.Value) > MaxNumberDigits {
		return false
	}
	if n.Tag == "!!int" {
		if _, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return true
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil {
		// Hex, octal or binary integers too large for int64, or a form
		// ParseFloat does not read: judged by size only.
		return n.Tag == "!!int" && !strings.ContainsAny(n.Value, ".eE") && len(n.Value) <= 20
	}
	return !math.IsInf(f, 0)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
