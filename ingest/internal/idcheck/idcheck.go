// Package idcheck tells the parsers whether an id read from a corpus is one
// a user can read and an IRI can carry unchanged (issue #16.5): ids become
// IRIs, witness keys, GraphQL answers and page text, so a quote, an angle
// bracket, a control character or a bidi override in one is a finding at
// its line, never silently accepted.
package idcheck

import (
	"fmt"
	"regexp"
	"unicode"
	"unicode/utf8"
)

// Name is SPEC's id pattern for harness skills, Tools and instances.
var Name = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// Unsafe describes the first character of id that has no place in an id
// (invalid UTF-8, a control or other non-printing character, whitespace, a
// bidi formatting character, ", <, > or a backslash), or returns "" when
// there is none. Letters of every script are fine.
func Unsafe(id string) string {
	if !utf8.ValidString(id) {
		return "bytes that are not UTF-8"
	}
	for _, r := range id {
		switch {
		case r == '"' || r == '<' || r == '>' || r == '\\' || r == '`':
			return fmt.Sprintf("the character %q", r)
		case unicode.IsSpace(r):
			return fmt.Sprintf("whitespace (%U)", r)
		case unicode.Is(unicode.Bidi_Control, r):
			return fmt.Sprintf("the bidi formatting character %U", r)
		case !unicode.IsPrint(r):
			return fmt.Sprintf("the non-printing character %U", r)
		}
	}
	return ""
}
