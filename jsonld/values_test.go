package jsonld

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// TestDatasetQuadsBoxesEachIRIOnce: the quads of a document are held
// until they are written (and by a cold `serve` beside its early
// snapshot), so datasetQuads (quadsOf, before its sort) boxes each IRI
// once per document instead of once per quad, and sizes its result once;
// the quads are the same.
func TestDatasetQuadsBoxesEachIRIOnce(t *testing.T) {
	const subjects, predicates = 10, 10
	var qs []*ld.Quad
	var want []quad.Quad
	for s := range subjects {
		for p := range predicates {
			subj, pred, obj := fmt.Sprintf("urn:s:%d", s), fmt.Sprintf("urn:p:%d", p), fmt.Sprintf("urn:s:%d", (s+p)%subjects)
			qs = append(qs, ld.NewQuad(ld.NewIRI(subj), ld.NewIRI(pred), ld.NewIRI(obj), "@default"))
			want = append(want, quad.Quad{Subject: quad.IRI(subj), Predicate: quad.IRI(pred), Object: quad.IRI(obj), Label: quad.IRI("urn:g")})
		}
	}
	graphs := map[string][]*ld.Quad{"@default": qs}
	got, err := datasetQuads(graphs, "urn:g")
	if err != nil {
		t.Fatal(err)
	}
	SortQuads(want)
	if !slices.Equal(got, want) {
		t.Fatalf("quads differ:\n got %v\nwant %v", got, want)
	}
	// Boxing every IRI of every quad is 3 allocations per quad; once per
	// distinct IRI (20 here), plus the result and the map, far fewer.
	n := len(qs)
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := quadsOf(graphs, "urn:g"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > float64(n/2) {
		t.Fatalf("%.0f allocations for %d quads of %d distinct IRIs: the IRIs are boxed per quad", allocs, n, subjects+predicates)
	}
}
