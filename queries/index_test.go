package queries

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/jsonld"
)

// TestSortStableEqualsStdlib holds sortStable (an unstable sort keyed by
// position) to slices.SortStableFunc: ties keep their order.
func TestSortStableEqualsStdlib(t *testing.T) {
	type item struct{ id, tag string }
	r := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		n    int
		ids  int // distinct ids: few means many ties
	}{
		{"empty", 0, 1},
		{"sorted", 50, 1000},
		{"many ties", 500, 3},
		{"few ties", 2000, 1500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var xs []*item
			for i := range tt.n {
				xs = append(xs, &item{id: string(rune('a'+r.IntN(tt.ids)%26)) + strings.Repeat("x", r.IntN(tt.ids)/26), tag: string(rune(i))})
			}
			if tt.name == "sorted" {
				slices.SortStableFunc(xs, func(a, b *item) int { return strings.Compare(a.id, b.id) })
			}
			want := slices.Clone(xs)
			slices.SortStableFunc(want, func(a, b *item) int { return strings.Compare(a.id, b.id) })
			got := slices.Clone(xs)
			sortStable(got, func(x *item) string { return x.id })
			if !slices.Equal(got, want) {
				t.Errorf("sortStable differs from SortStableFunc")
			}
		})
	}
}

// TestMintOther: a candidate is skipped only when it is exactly the IRI
// already looked up.
func TestMintOther(t *testing.T) {
	const doc = "urn:skillgraph:a"
	tests := []struct {
		name, iri, doc, kind, id string
		want                     bool // whether the candidate is to be looked up
	}{
		{"own mint", doc + "#skill/x", doc, "skill", "x", false},
		{"own mint, escaped id", jsonld.Mint(doc, "skill", "a b"), doc, "skill", "a b", false},
		{"other instance", doc + "#skill/x", "urn:skillgraph:b", "skill", "x", true},
		{"other kind", doc + "#tool/x", doc, "skill", "x", true},
		{"longer doc", doc + "b#skill/x", doc, "skill", "x", true},
		{"escape not canonical", doc + "#skill/%41", doc, "skill", "A", true},
		{"no fragment", doc, doc, "skill", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := mintOther(tt.iri, tt.doc, tt.kind, tt.id)
			if ok != tt.want {
				t.Fatalf("mintOther(%q, %q, %q, %q) looks up = %v, want %v", tt.iri, tt.doc, tt.kind, tt.id, ok, tt.want)
			}
			if ok && c != jsonld.Mint(tt.doc, tt.kind, tt.id) {
				t.Errorf("candidate %q, want %q", c, jsonld.Mint(tt.doc, tt.kind, tt.id))
			}
			if !ok && tt.iri != jsonld.Mint(tt.doc, tt.kind, tt.id) {
				t.Errorf("skipped %q though the candidate is %q", tt.iri, jsonld.Mint(tt.doc, tt.kind, tt.id))
			}
		})
	}
}
