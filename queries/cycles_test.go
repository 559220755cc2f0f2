package queries

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSCCsAreMutualReachability: on random graphs of beans, sccs parts the
// nodes into components in which two beans are together exactly when each
// reaches the other, each component sorted by id, edges to beans outside
// the list included.
func TestSCCsAreMutualReachability(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 5))
	for round := range 300 {
		n := r.IntN(12) + 1
		beans := make([]*Bean, n+2) // the last two are reached only by edges
		for i := range beans {
			beans[i] = &Bean{ID: fmt.Sprintf("b%02d", r.IntN(100))}
		}
		edges := map[*Bean][]*Bean{}
		for range r.IntN(3 * n) {
			a, b := beans[r.IntN(n)], beans[r.IntN(len(beans))]
			edges[a] = append(edges[a], b)
		}
		reaches := func(a, b *Bean) bool {
			seen, todo := map[*Bean]bool{a: true}, []*Bean{a}
			for len(todo) > 0 {
				v := todo[0]
				todo = todo[1:]
				if v == b {
					return true
				}
				for _, w := range edges[v] {
					if !seen[w] {
						seen[w] = true
						todo = append(todo, w)
					}
				}
			}
			return false
		}
		comps := sccs(beans[:n], func(b *Bean) []*Bean { return edges[b] })
		compOf := map[*Bean]int{}
		for k, c := range comps {
			if !slices.IsSortedFunc(c, func(a, b *Bean) int { return strings.Compare(a.ID, b.ID) }) {
				t.Fatalf("round %d: component %d not sorted by id", round, k)
			}
			for _, b := range c {
				if _, dup := compOf[b]; dup {
					t.Fatalf("round %d: a bean in two components", round)
				}
				compOf[b] = k
			}
		}
		for i, a := range beans {
			_, in := compOf[a]
			if want := i < n || reachedFrom(beans[:n], a, reaches); in != want {
				t.Fatalf("round %d: bean %d in a component %v, want %v", round, i, in, want)
			}
			for _, b := range beans {
				ka, oka := compOf[a]
				kb, okb := compOf[b]
				if oka && okb && (ka == kb) != (reaches(a, b) && reaches(b, a)) {
					t.Fatalf("round %d: together %v, mutually reachable %v", round, ka == kb, reaches(a, b) && reaches(b, a))
				}
			}
		}
	}
}

func reachedFrom(from []*Bean, b *Bean, reaches func(a, b *Bean) bool) bool {
	for _, a := range from {
		if reaches(a, b) {
			return true
		}
	}
	return false
}
