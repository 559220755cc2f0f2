package jsonld

import (
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func TestDocumentToQuads(t *testing.T) {
	in := record.Instance{Name: "acme", IRIBase: "https://acme.example/h/"}
	f := record.File{Path: "tools/x.json", Parser: "tool", Tools: []record.Tool{{
		ID: "x", Origin: "authored", Title: "X", Line: 3, Satisfies: []string{"do-it"},
		Invoke: record.Invoke{Shell: []string{"bin/x", "--y"}},
		Inputs: []record.Port{{Name: "in 1", TypeIRI: "https://t/tool-types.schema.json#/$defs/Text", JSONType: "string", Required: true, Arg: "stdin"}},
	}}}
	qs, err := ToQuads(Document(in, f, SourceMeta{Path: f.Path, SHA256: "ab"}), SourceIRI(in.DocIRI(), f.Path))
	if err != nil {
		t.Fatal(err)
	}
	var nq []string
	for _, q := range qs {
		if q.Label != quad.IRI("https://acme.example/h/acme.jsonld#source/tools/x.json") {
			t.Errorf("quad outside its source graph: %v", q)
		}
		nq = append(nq, q.NQuad())
	}
	all := strings.Join(nq, "\n")
	for _, want := range []string{
		`<https://acme.example/h/acme.jsonld#tool/x> <https://w3id.org/skillgraph/ns#satisfies> <https://acme.example/h/acme.jsonld#skill/do-it>`,
		`<https://acme.example/h/acme.jsonld#tool/x> <https://w3id.org/skillgraph/ns#line> "3"^^<http://www.w3.org/2001/XMLSchema#integer>`,
		`<https://acme.example/h/acme.jsonld#tool/x> <https://w3id.org/skillgraph/ns#hasInput> <https://acme.example/h/acme.jsonld#tool/x/in/in%201>`,
		`<https://acme.example/h/acme.jsonld#tool/x/in/in%201> <https://w3id.org/skillgraph/ns#required> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>`,
		`<https://acme.example/h/acme.jsonld#tool/x> <https://w3id.org/skillgraph/ns#invokeShell> "[\"bin/x\",\"--y\"]"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON>`,
		`<https://acme.example/h/acme.jsonld#tool/x> <http://purl.org/dc/terms/title> "X"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing quad %s\n in:\n%s", want, all)
		}
	}
	// Same input, same quads.
	qs2, _ := ToQuads(Document(in, f, SourceMeta{Path: f.Path, SHA256: "ab"}), SourceIRI(in.DocIRI(), f.Path))
	if len(qs2) != len(qs) {
		t.Fatalf("not deterministic: %d vs %d quads", len(qs), len(qs2))
	}
	for i := range qs {
		if qs[i] != qs2[i] {
			t.Fatalf("not deterministic at %d: %v vs %v", i, qs[i], qs2[i])
		}
	}
}

func TestRemoteContextRefused(t *testing.T) {
	doc := map[string]any{"@context": "https://example.org/ctx.jsonld", "@id": "urn:x", "urn:p": "v"}
	if _, err := ToQuads(doc, "urn:g"); err == nil || !strings.Contains(err.Error(), "remote JSON-LD context refused") {
		t.Fatalf("want refusal, got %v", err)
	}
}

func TestEscapeSplit(t *testing.T) {
	iri := Mint("urn:skillgraph:a", "skill", "x y#1?%")
	if iri != "urn:skillgraph:a#skill/x%20y%231%3F%25" {
		t.Fatalf("got %s", iri)
	}
	doc, kind, id, ok := Split(iri)
	if !ok || doc != "urn:skillgraph:a" || kind != "skill" || id != "x y#1?%" {
		t.Fatalf("split: %q %q %q %v", doc, kind, id, ok)
	}
}
