package queries

import "sort"

// sccs returns the strongly connected components of the graph over nodes,
// each sorted by id, in a deterministic order (Tarjan).
func sccs[T interface{ comparable }](nodes []T, edges func(T) []T) [][]T {
	index := map[T]int{}
	low := map[T]int{}
	on := map[T]bool{}
	var stack []T
	var out [][]T
	n := 0
	var strong func(v T)
	strong = func(v T) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges(v) {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []T
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			strong(v)
		}
	}
	for _, c := range out {
		sort.Slice(c, func(i, j int) bool { return idOf(c[i]) < idOf(c[j]) })
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
