package backend_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// emptyStored is a store that holds nothing.
type emptyStored struct{}

func (emptyStored) Scan(context.Context, quad.Direction, quad.Value, func(quad.Quad) error) error {
	return nil
}
func (emptyStored) GraphQuads(context.Context, string) ([]quad.Quad, error) { return nil, nil }

// TestPlanRegistersEachSubjectBesideIt: in a plan's adds every
// subject-registry quad comes right after the first quad of its subject,
// so Cayley writes both in one ApplyDeltas call and skips the duplicate
// check that made one large graph into a non-empty bbolt store quadratic
// (issue 28.10: 8 000 subjects 52 s, 16 000 249 s).
func TestPlanRegistersEachSubjectBesideIt(t *testing.T) {
	const label = "urn:g:big"
	var qs []quad.Quad
	for i := range 500 {
		s := fmt.Sprintf("urn:big#task/%d", i)
		qs = append(qs, quad.MakeIRI(s, "urn:type", "urn:Task", ""), quad.MakeIRI(s, "urn:next", fmt.Sprintf("urn:big#task/%d", i+1), ""))
	}
	index := func(_ context.Context, l string, want map[string]quad.Quad) ([]graph.Delta, error) {
		seen := map[string]bool{}
		var out []graph.Delta
		for _, q := range want {
			if k := quad.ToString(q.Subject); !seen[k] {
				seen[k] = true
				out = append(out, graph.Delta{Quad: backend.RegistryQuad(l, q.Subject), Action: graph.Add})
			}
		}
		return out, nil
	}
	p, err := backend.PlanApply(context.Background(), emptyStored{}, index, []backend.Change{{Graph: label, Quads: qs}})
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]int{} // subject → index of its first data quad
	registered := 0
	for i, d := range p.Adds {
		if d.Quad.Predicate == quad.IRI(backend.RegistryPredicate) {
			registered++
			subj := quad.ToString(d.Quad.Object)
			if at, ok := first[subj]; !ok || at != i-1 {
				t.Fatalf("the registry quad of %s is at %d, its subject's first quad at %d (ok %v)", subj, i, at, ok)
			}
			continue
		}
		if _, ok := first[quad.ToString(d.Quad.Subject)]; !ok {
			first[quad.ToString(d.Quad.Subject)] = i
		}
	}
	if registered != 500 || len(p.Adds) != 2*500+500+1 {
		t.Fatalf("%d registry quads, %d adds", registered, len(p.Adds))
	}
}

// TestPlanKeepsEveryGraphsRegistry: one subject written in two graphs (a
// blank node spelled alike in two documents) keeps its registry quad in
// each (the reordering once kept one of them).
func TestPlanKeepsEveryGraphsRegistry(t *testing.T) {
	b0 := quad.Quad{Subject: quad.BNode("b0"), Predicate: quad.IRI("urn:p"), Object: quad.IRI("urn:o")}
	index := func(_ context.Context, l string, _ map[string]quad.Quad) ([]graph.Delta, error) {
		return []graph.Delta{{Quad: backend.RegistryQuad(l, quad.BNode("b0")), Action: graph.Add}}, nil
	}
	p, err := backend.PlanApply(context.Background(), emptyStored{}, index,
		[]backend.Change{{Graph: "urn:g:a", Quads: []quad.Quad{b0}}, {Graph: "urn:g:b", Quads: []quad.Quad{b0}}})
	if err != nil {
		t.Fatal(err)
	}
	graphs := map[string]bool{}
	for _, d := range p.Adds {
		if d.Quad.Predicate == quad.IRI(backend.RegistryPredicate) {
			graphs[quad.ToString(d.Quad.Subject)] = true
		}
	}
	if len(graphs) != 2 || len(p.Adds) != 5 {
		t.Fatalf("registry quads in %v, %d adds; want both graphs, 5 adds", graphs, len(p.Adds))
	}
}
