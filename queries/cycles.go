package queries

import "sort"

// sccs returns the strongly connected components of the graph over nodes,
// each sorted by id, in a deterministic order (Tarjan). Each node's state
// is kept by its place (one map from node to place, not three), and the
// components are parts of one array: with every bean its own component
// at 100k skills, the per-node maps and slices were ≈ 20 MB of every
// snapshot.
func sccs[T interface{ comparable }](nodes []T, edges func(T) []T) [][]T {
	place := make(map[T]int, len(nodes))
	var (
		byPlace    []T
		index, low []int // index -1: not visited yet
		on         []bool
		stack      []int // places
		all        []T
		bounds     []int // component k is all[bounds[k]:bounds[k+1]]
	)
	// placeOf is v's place, the next one when it has none.
	placeOf := func(v T) int {
		if at, ok := place[v]; ok {
			return at
		}
		at := len(byPlace)
		place[v] = at
		byPlace, index, low, on = append(byPlace, v), append(index, -1), append(low, 0), append(on, false)
		return at
	}
	n := 0
	var strong func(at int)
	strong = func(at int) {
		index[at], low[at] = n, n
		n++
		stack = append(stack, at)
		on[at] = true
		for _, w := range edges(byPlace[at]) {
			wa := placeOf(w)
			if index[wa] < 0 {
				strong(wa)
				low[at] = min(low[at], low[wa])
			} else if on[wa] {
				low[at] = min(low[at], index[wa])
			}
		}
		if low[at] == index[at] {
			bounds = append(bounds, len(all))
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				all = append(all, byPlace[w])
				if w == at {
					break
				}
			}
		}
	}
	for _, v := range nodes {
		if at := placeOf(v); index[at] < 0 {
			strong(at)
		}
	}
	bounds = append(bounds, len(all))
	out := make([][]T, len(bounds)-1)
	for k := range out {
		c := all[bounds[k]:bounds[k+1]:bounds[k+1]]
		sort.Slice(c, func(i, j int) bool { return idOf(c[i]) < idOf(c[j]) })
		out[k] = c
	}
	return out
}

func idOf(v any) string {
	switch x := v.(type) {
	case *Bean:
		return x.ID
	case *Process:
		return x.ID
	}
	return ""
}
