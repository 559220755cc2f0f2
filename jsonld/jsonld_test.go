package jsonld

import (
	"errors"
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

// TestSkillIRIPerPackage: skills/grp/alpha/deploy.md and
// skills/grp/beta/deploy.md are two nodes, and `satisfies: [beta/deploy]`
// points at the beta node itself in the stored quads (issue #11).
func TestSkillIRIPerPackage(t *testing.T) {
	in := record.Instance{Name: "h"}
	doc := in.DocIRI()
	subjects := map[string]map[string]bool{} // subject → titles
	var edges []string
	for _, f := range []record.File{
		{Path: "skills/grp/alpha/deploy.md", Parser: "skill", Skills: []record.Skill{{ID: "deploy", Flavour: "harness", Package: "alpha", Title: "Deploy A", Line: 1}}},
		{Path: "skills/grp/beta/deploy.md", Parser: "skill", Skills: []record.Skill{{ID: "deploy", Flavour: "harness", Package: "beta", Title: "Deploy B", Line: 1}}},
		{Path: "tools/t.json", Parser: "tool", Tools: []record.Tool{{ID: "t", Origin: "authored", Line: 1, Satisfies: []string{"beta/deploy"}}}},
	} {
		qs, err := ToQuads(Document(in, f, SourceMeta{Path: f.Path}), SourceIRI(doc, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			s, p := string(q.Subject.(quad.IRI)), string(q.Predicate.(quad.IRI))
			if p == "http://purl.org/dc/terms/title" {
				if subjects[s] == nil {
					subjects[s] = map[string]bool{}
				}
				subjects[s][string(q.Object.(quad.String))] = true
			}
			if p == NS+"satisfies" {
				edges = append(edges, string(q.Object.(quad.IRI)))
			}
		}
	}
	alpha, beta := SkillIRI(doc, "alpha", "deploy"), SkillIRI(doc, "beta", "deploy")
	if alpha == beta {
		t.Fatalf("both packages mint %s", alpha)
	}
	for iri, title := range map[string]string{alpha: "Deploy A", beta: "Deploy B"} {
		if len(subjects[iri]) != 1 || !subjects[iri][title] {
			t.Errorf("%s has titles %v, want only %q", iri, subjects[iri], title)
		}
	}
	if len(edges) != 1 || edges[0] != beta {
		t.Errorf("satisfies beta/deploy points at %v, want %s", edges, beta)
	}
	if beta != "urn:skillgraph:h#skill/beta/deploy" {
		t.Errorf("beta IRI %s: /id/skill/beta/deploy would not find it", beta)
	}
}

// TestIllTypedDocumentIsAnError: json-gold reads the type of a node from
// the key "" when no key of the node maps to @type, and panics when that
// value is not a string; ToQuads (what reading an export back calls on
// any file) reports an error instead.
func TestIllTypedDocumentIsAnError(t *testing.T) {
	for _, doc := range []map[string]any{
		{"@context": ContextURL, "@graph": []any{map[string]any{"": 0.0}}},
		{"@id": "urn:a", "": []any{true}},
	} {
		for _, convert := range []func(any, string) ([]quad.Quad, error){ToQuads, ReferenceQuads} {
			if _, err := convert(doc, "urn:g"); !errors.Is(err, ErrProcessor) {
				t.Errorf("%v: want ErrProcessor, got %v", doc, err)
			}
		}
	}
}
