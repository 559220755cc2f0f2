package jsonld

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// literalQuads converts one node whose install is the rdf:JSON literal
// text lit, as json-gold stores it.
func literalQuads(t *testing.T, lit string) []string {
	t.Helper()
	doc := map[string]any{"@context": ContextURL, "@id": "urn:x", "install": lit}
	qs, err := ToQuads(doc, "urn:g")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, q := range qs {
		out = append(out, q.String())
	}
	return out
}

// TestJSONLiteralSameQuads: the rdf:JSON literals jsonLiteral reorders are
// the literals json-gold canonicalises from encoding/json's bytes, for
// keys that sort differently by bytes and by UTF-16 units, escapes,
// numbers and nesting.
func TestJSONLiteralSameQuads(t *testing.T) {
	wide := map[string]any{}
	for i := range 2000 {
		wide[fmt.Sprintf("k%05d", i)] = i
	}
	for name, v := range map[string]any{
		"wide":   wide,
		"nested": map[string]any{"b": []any{map[string]any{"z": 1, "a": "x"}, 2.5, nil, true}, "a": wide},
		"keys": map[string]any{"\U0001F600": 1, "\uE000": 2, "\uFFFD": 3, "a": 4, "<&>": 5, "\u2028": 6,
			"é": 7, "": 8, "pad": strings.Repeat("x", minReorder)},
		"numbers": map[string]any{"big": json.Number("1e21"), "small": json.Number("0.000001"), "neg": json.Number("-0"),
			"int": json.Number("12345678901234567890"), "pad": strings.Repeat("y", minReorder)},
	} {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			re := jsonLiteral(b)
			if string(re) == string(b) {
				t.Fatalf("%d bytes were not reordered", len(b))
			}
			if got, want := literalQuads(t, string(re)), literalQuads(t, string(b)); !slices.Equal(got, want) {
				t.Fatalf("quads differ:\n got %.300v\nwant %.300v", got, want)
			}
		})
	}
}

// TestWideJSONLiteralLinear (issue #28 row 9): an object of 100 000 keys
// in an rdf:JSON field converts in about a second (ten under -race);
// json-gold's insertion sort took 12 s on 50 000 keys in ascending order
// and about 50 s on 100 000. The keys are handed over in descending order,
// which is what makes each insertion constant.
func TestWideJSONLiteralLinear(t *testing.T) {
	const n = 100_000
	wide := map[string]any{}
	for i := range n {
		wide[fmt.Sprintf("k%d", i)] = 0
	}
	lit, _ := jsonValue(wide).(string)
	var obj struct{ keys []string }
	dec := json.NewDecoder(strings.NewReader(lit))
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		obj.keys = append(obj.keys, k.(string))
		var v any
		dec.Decode(&v)
	}
	if len(obj.keys) != n || !slices.IsSortedFunc(obj.keys, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Fatalf("%d keys, not in descending order: %.80v", len(obj.keys), obj.keys)
	}
	doc := map[string]any{"@context": ContextURL, "@id": "urn:x", "install": lit}
	start := time.Now()
	qs, err := ToQuads(doc, "urn:g")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("%d keys took %v", n, d)
	}
	if len(qs) != 1 || !strings.Contains(qs[0].Object.String(), fmt.Sprintf("k%d", n-1)) {
		t.Fatalf("quads %.200v", qs)
	}
}
