package jsonld_test

import (
	"slices"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/jsonld"
)

// TestTriageDocument: a triage decision converts to the quads the server
// wrote by hand before it was a document (type, skill, graph, verdict,
// time, and the note only when there is one).
func TestTriageDocument(t *testing.T) {
	const (
		skill = "https://example.org/c/acme#skill/core/review"
		graph = "urn:skillgraph:triage"
		at    = "2026-12-02T03:00:00.5Z"
	)
	node := quad.IRI(skill + "/triage")
	sg := func(name string) quad.IRI { return quad.IRI(jsonld.NS + name) }
	base := func(verdict string) []quad.Quad {
		return []quad.Quad{
			{Subject: node, Predicate: quad.IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), Object: sg("TriageDecision")},
			{Subject: node, Predicate: sg("triageOf"), Object: quad.IRI(skill)},
			{Subject: node, Predicate: quad.IRI("http://www.w3.org/ns/prov#wasDerivedFrom"), Object: quad.IRI(graph)},
			{Subject: node, Predicate: sg("verdict"), Object: quad.String(verdict)},
			{Subject: node, Predicate: sg("recordedAt"), Object: quad.String(at)},
		}
	}
	cases := []struct {
		name, verdict, note string
		want                []quad.Quad
	}{
		{"no note", "mechanism", "", base("mechanism")},
		{"a note", "judgement", "a person \"reads\" it\nwhole",
			append(base("judgement"), quad.Quad{Subject: node, Predicate: sg("note"), Object: quad.String("a person \"reads\" it\nwhole")})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := jsonld.ToQuads(jsonld.TriageDocument(skill, graph, c.verdict, c.note, at), graph)
			if err != nil {
				t.Fatal(err)
			}
			var have, want []string
			for _, q := range got {
				if q.Label != quad.IRI(graph) {
					t.Errorf("quad %v not in %s", q, graph)
				}
				q.Label = nil
				have = append(have, q.String())
			}
			for _, q := range c.want {
				want = append(want, q.String())
			}
			slices.Sort(have)
			slices.Sort(want)
			if !slices.Equal(have, want) {
				t.Fatalf("quads:\n%v\nwant:\n%v", have, want)
			}
		})
	}
}
