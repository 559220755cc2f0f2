package queries

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
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
				xs = append(xs, &item{id: string(rune('a' + r.IntN(tt.ids)%26)) + strings.Repeat("x", r.IntN(tt.ids)/26), tag: string(rune(i))})
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
