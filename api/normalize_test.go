package api

import "testing"

// TestNormalizeQuery: layout, commas and comments do not change the key;
// strings and separated names do.
func TestNormalizeQuery(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"{ skills(first: 2) { totalCount } }", "{skills(first:2){totalCount}}"},
		{"query Q {\n  a, b # comment\n}", "query Q{a b}"},
		{`{ search(text: "a  b,#c") { __typename } }`, `{search(text:"a  b,#c"){__typename}}`},
		{`{ search(text: """x "" y""") { __typename } }`, `{search(text:"""x "" y"""){__typename}}`},
		{"{ ... on Skill { id } }", "{...on Skill{id}}"},
	} {
		if got := NormalizeQuery(c.a); got != c.b {
			t.Errorf("NormalizeQuery(%q) = %q, want %q", c.a, got, c.b)
		}
	}
	for _, c := range []struct{ a, b string }{
		{`{ search(text: "a b") { id } }`, `{ search(text: "a  b") { id } }`},
		{"{ a b }", "{ ab }"},
	} {
		if NormalizeQuery(c.a) == NormalizeQuery(c.b) {
			t.Errorf("%q and %q share a key", c.a, c.b)
		}
	}
}
