package server_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/api/server"
)

// TestTriageStoredQuads holds the quads a triage decision is stored as:
// one node per skill (<skill>/triage) in the triage graph, replaced by the
// next decision, with its type, skill, graph, verdict, time and note (none
// when empty). They are the quads of before triage decisions became JSON-LD
// documents converted by jsonld (recordedAt is the time it was recorded,
// so it is compared by its predicate alone).
func TestTriageStoredQuads(t *testing.T) {
	const (
		sg      = "https://w3id.org/skillgraph/ns#"
		rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
		derived = "http://www.w3.org/ns/prov#wasDerivedFrom"
	)
	e := start(t, "", nil)
	ctx := context.Background()
	skillIRI := func(id string) string {
		sk := e.svc.Snapshot().Skill(id)
		if sk == nil {
			t.Fatalf("no skill %q in the test corpus", id)
		}
		return sk.IRI
	}
	decision := func(skill, verdict, note string) []string {
		node, of := skillIRI(skill)+"/triage", skillIRI(skill)
		qs := []string{
			quad.Quad{Subject: quad.IRI(node), Predicate: quad.IRI(rdfType), Object: quad.IRI(sg + "TriageDecision")}.String(),
			quad.Quad{Subject: quad.IRI(node), Predicate: quad.IRI(sg + "triageOf"), Object: quad.IRI(of)}.String(),
			quad.Quad{Subject: quad.IRI(node), Predicate: quad.IRI(derived), Object: quad.IRI(server.TriageGraph)}.String(),
			quad.Quad{Subject: quad.IRI(node), Predicate: quad.IRI(sg + "verdict"), Object: quad.String(verdict)}.String(),
			"<" + node + "> <" + sg + "recordedAt> (a time) .",
		}
		if note != "" {
			qs = append(qs, quad.Quad{Subject: quad.IRI(node), Predicate: quad.IRI(sg + "note"), Object: quad.String(note)}.String())
		}
		return qs
	}
	steps := []struct {
		name                 string
		skill, verdict, note string
		want                 [][]string
	}{
		{"a decision with a note", "review", "judgement", "a person \"reads\" it\nwhole", [][]string{decision("review", "judgement", "a person \"reads\" it\nwhole")}},
		{"a second skill, no note", "open-change", "mechanism", "", [][]string{decision("review", "judgement", "a person \"reads\" it\nwhole"), decision("open-change", "mechanism", "")}},
		{"the first one replaced", "review", "split", "", [][]string{decision("open-change", "mechanism", ""), decision("review", "split", "")}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if _, err := e.svc.RecordTriage(ctx, st.skill, st.verdict, st.note); err != nil {
				t.Fatal(err)
			}
			got, err := e.store.GraphQuads(ctx, server.TriageGraph)
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			for _, q := range got {
				if q.Label != quad.IRI(server.TriageGraph) {
					t.Errorf("quad %v outside the triage graph", q)
				}
				q.Label = nil
				s := q.String()
				if q.Predicate == quad.IRI(sg+"recordedAt") {
					if _, ok := q.Object.(quad.String); !ok {
						t.Errorf("recordedAt is %T, want a plain string", q.Object)
					}
					s = "<" + string(q.Subject.(quad.IRI)) + "> <" + sg + "recordedAt> (a time) ."
				}
				have = append(have, s)
			}
			var want []string
			for _, d := range st.want {
				want = append(want, d...)
			}
			slices.Sort(have)
			slices.Sort(want)
			if !slices.Equal(have, want) {
				t.Fatalf("triage graph:\n%s\nwant:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
