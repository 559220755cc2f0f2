// Package ynode parses JSON and YAML documents into yaml.Node trees (which
// carry line numbers) and reads values out of them without ever panicking.
// JSON is parsed strictly with encoding/json and converted into the same
// node shape YAML produces, so that callers handle one representation.
package ynode

import (
	"fmt"
	"regexp"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// MaxDepth bounds the nesting of a parsed document.
const MaxDepth = 2000

// Error is a parse failure with the 1-based line it was found on.
type Error struct {
	Line int
	Msg  string
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

var yamlLine = regexp.MustCompile(`line (\d+)`)

// ParseYAML parses the first YAML document of data and returns its root node
// (nil for an empty document).
func ParseYAML(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{Line: 1, Msg: fmt.Sprintf("yaml parser failed: %v", r)}
		}
	}()
	var doc yaml.Node
	if uerr := yaml.Unmarshal(data, &doc); uerr != nil {
		line := 1
		if m := yamlLine.FindStringSubmatch(uerr.Error()); m != nil {
			if n, cerr := strconv.Atoi(m[1]); cerr == nil && n > 0 {
				line = n
			}
		}
		return nil, &Error{Line: line, Msg: uerr.Error()}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root != nil && depth(root, 0) > MaxDepth {
		return nil, &Error{Line: 1, Msg: fmt.Sprintf("nesting deeper than %d", MaxDepth)}
	}
	return root, nil
}

// depth returns the nesting depth of n without following aliases.
func depth(n *yaml.Node, d int) int {
	if d > MaxDepth {
		return d
	}
	max := d
	for _, c := range n.Content {
		if c == nil {
			continue
		}
		if cd := depth(c, d+1); cd > max {
			max = cd
		}
		if max > MaxDepth {
			break
		}
	}
	return max
}

// Parse parses data as strict JSON when isJSON is set, else as YAML.
func Parse(data []byte, isJSON bool) (*yaml.Node, error) {
	if isJSON {
		return ParseJSON(data)
	}
	return ParseYAML(data)
}
