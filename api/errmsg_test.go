package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/queries/querytest"
)

func TestBoundMessage(t *testing.T) {
	at := strings.Repeat("x", MaxQuoted)
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{"a " + at + " b", "a " + at + " b"},
		{"a " + at + "y b", "a " + at + "…(65 bytes) b"},
		{"\"" + strings.Repeat("é", 40) + "\"\nnext", "\"" + strings.Repeat("é", 31) + "…(82 bytes)\nnext"},
		{at + "yy " + at + "zz", at + "…(66 bytes) " + at + "…(66 bytes)"},
	} {
		got := boundMessage(c.in)
		if got != c.want {
			t.Errorf("boundMessage(%.30q…) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%q is not UTF-8", got)
		}
	}
}

// TestErrorsQuoteBoundedLiterals (issue #28 row 15): an error quotes at
// most MaxQuoted bytes of a literal, and says how long it was. A
// 100 000-digit Int was echoed twice: a 200 KB answer to a 100 KB request.
func TestErrorsQuoteBoundedLiterals(t *testing.T) {
	snap := querytest.Build(t, "../ingest/testdata/mini")
	schema, err := NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("9", 100_000)
	for name, q := range map[string]string{
		"int":    "{ skills(first: " + big + ") { totalCount } }",
		"string": "{ skills(first: \"" + big + "\") { totalCount } }",
		"float":  "{ skills(first: 1." + big + ") { totalCount } }",
		"field":  "{ " + strings.Repeat("a", 100_000) + " }",
		"syntax": "{ skills(first: 1) { totalCount } } " + big,
	} {
		t.Run(name, func(t *testing.T) {
			res := schema.Execute(context.Background(), snap, Request{Query: q}, DefaultLimits())
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) == 0 || len(b) > 1024 {
				t.Fatalf("%d bytes of answer: %.300s", len(b), b)
			}
			if !strings.Contains(res.Errors[0].Message, " bytes)") {
				t.Errorf("message %q does not say how long the literal was", res.Errors[0].Message)
			}
		})
	}
}
