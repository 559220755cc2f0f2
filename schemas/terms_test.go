package schemas

import "testing"

func TestTerms(t *testing.T) {
	for _, c := range []struct{ name, iri, kind string }{
		{"key", "https://w3id.org/skillgraph/ns#key", KindLiteral},
		{"title", "http://purl.org/dc/terms/title", KindLiteral},
		{"position", "https://schema.org/position", KindInteger},
		{"satisfies", "https://w3id.org/skillgraph/ns#satisfies", KindIRI},
		{"required", "https://w3id.org/skillgraph/ns#required", KindBoolean},
		{"install", "https://w3id.org/skillgraph/ns#install", KindJSON},
		{"Skill", "https://w3id.org/skillgraph/ns#Skill", KindClass},
		{"sameAs", "http://www.w3.org/2002/07/owl#sameAs", KindIRI},
	} {
		got, ok := LookupTerm(c.name)
		if !ok || got.IRI != c.iri || got.Kind != c.kind {
			t.Errorf("%s: %+v %v, want %s %s", c.name, got, ok, c.iri, c.kind)
		}
	}
	for _, k := range []string{"id", "type", "sg", "xsd", "@version", "nope"} {
		if _, ok := LookupTerm(k); ok {
			t.Errorf("%s is no term", k)
		}
	}
	ts, err := Terms()
	if err != nil || len(ts) < 100 {
		t.Fatalf("%d terms, %v", len(ts), err)
	}
}

func TestParseTermsRejects(t *testing.T) {
	for _, doc := range []string{
		`{"@context": 3}`,
		`{"@context": {"x": 3}}`,
		`{"@context": {"x": {"@id": "sg:x", "@type": "xsd:date"}}}`,
	} {
		if _, err := parseTerms([]byte(doc)); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}
