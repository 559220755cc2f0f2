package diff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestEachPairIsPairByKey: on random sides — duplicates, several
// instances, ids and instances whose parts join to another name's key,
// sides out of id order, an edit that keeps every place and one that does
// not — eachPair pairs exactly the entities pairing by key does, and both
// of its ways are taken.
func TestEachPairIsPairByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	randName := func(multi bool) name {
		return name{multi: multi, inst: pick("i", "j", "i:p"), pkg: pick("", "p", "p/a", "q"), id: pick("a", "b", "a/b", "p", "c")}
	}
	byPlace := 0
	for round := range 3000 {
		multi := r.IntN(2) == 0
		base := make([]name, r.IntN(8))
		for i := range base {
			base[i] = randName(multi)
		}
		if r.IntN(4) > 0 {
			slices.SortStableFunc(base, func(a, b name) int { return strings.Compare(a.id, b.id) })
		}
		head := slices.Clone(base)
		switch r.IntN(4) {
		case 0: // a name changed in its place
			if len(head) > 0 {
				head[r.IntN(len(head))] = randName(multi)
			}
		case 1: // one more
			head = append(head, randName(multi))
		case 2: // the other kind of graph
			for i := range head {
				head[i].multi = !multi
			}
		}
		bn := func(i int) name { return base[i] }
		hn := func(i int) name { return head[i] }
		if samePlaces(len(base), len(head), bn, hn) {
			byPlace++
		}
		got, want := pairsOf(func(fn func(name, int, int)) { eachPair(len(base), len(head), bn, hn, fn) }),
			pairsOf(func(fn func(name, int, int)) { pairByKey(len(base), len(head), bn, hn, fn) })
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: base %v head %v\neachPair %v\npairByKey %v", round, base, head, got, want)
		}
	}
	if byPlace < 300 {
		t.Fatalf("only %d of 3000 rounds paired by place: the fast way is barely tested", byPlace)
	}
}

// pairsOf is what a pairing calls its function with, one line per call,
// sorted.
func pairsOf(pairing func(fn func(name, int, int))) []string {
	var out []string
	pairing(func(n name, b, h int) { out = append(out, fmt.Sprintf("%q %d %d", n.key(), b, h)) })
	slices.Sort(out)
	return out
}
