package backend

import (
	"testing"

	"github.com/cayleygraph/quad"
)

// TestKeyIsNQuad: Key, built by hand, is the quad's N-Quads line.
func TestKeyIsNQuad(t *testing.T) {
	for _, q := range []quad.Quad{
		quad.MakeIRI("urn:s", "urn:p", "urn:o", ""),
		quad.MakeIRI("urn:s", "urn:p", "urn:o", "urn:g"),
		{Subject: quad.BNode("b0"), Predicate: quad.IRI("urn:p"), Object: quad.String("a \"quoted\"\nline\t\\"), Label: quad.IRI("urn:g")},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.TypedString{Value: "7", Type: "http://www.w3.org/2001/XMLSchema#integer"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.LangString{Value: "hé", Lang: "fr"}, Label: quad.BNode("g")},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.Int(-3), Label: quad.IRI("")},
		{Subject: quad.IRI(""), Predicate: quad.IRI("urn:p"), Object: quad.Bool(true)},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p")},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.IRI("urn:o"), Label: quad.String("")},
	} {
		if got, want := Key(q), q.NQuad(); got != want {
			t.Errorf("Key = %q, want %q", got, want)
		}
	}
}
