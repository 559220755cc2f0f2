// Package ynode parses JSON and YAML documents into yaml.Node trees (which
// carry line numbers) and reads values out of them without ever panicking.
// JSON is parsed strictly with encoding/json and converted into the same
// node shape YAML produces, so that callers handle one representation.
package ynode

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// MaxDepth bounds the nesting of a parsed document.
const MaxDepth = 2000

// Error is a parse failure with the 1-based line it was found on.
type Error struct {
	Line int
	Msg  string
	Err  error // the cause a caller may test with errors.Is (ErrAliasLimit), or nil
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Parse parses data as strict JSON when isJSON is set, else as YAML.
func Parse(data []byte, isJSON bool) (*yaml.Node, error) {
	if isJSON {
		return ParseJSON(data)
	}
	return ParseYAML(data)
}
