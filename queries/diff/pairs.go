package diff

import (
	"strings"

	"github.com/skillgraph/skillgraph/queries"
)

// name is what a skill or a Tool is called on one side of a diff, in
// parts: key joins them as Report names it. Keeping the parts apart lets
// two sides that hold the same entities in the same order pair by place
// without building a key string for each (eachPair).
type name struct {
	multi bool   // a multi-instance graph: the key starts with the instance
	inst  string // the instance's name, renamed (keyer)
	pkg   string // a skill's package, "" for Tools
	id    string
}

// Name is a skill's or a Tool's name in a diff, its parts kept until
// String joins them (most names of an edit's diff are never shown).
type Name struct{ n name }

// String is the name as Report lists it.
func (n Name) String() string { return n.n.key() }

// key is the name as Report gives it: package/id (a Tool: id), prefixed
// with the instance and ":" in a multi-instance graph.
func (n name) key() string {
	k := n.id
	if n.pkg != "" {
		k = n.pkg + "/" + k
	}
	if n.multi {
		k = n.inst + ":" + k
	}
	return k
}

// same reports whether n and o have the same key, part by part (the
// instance is part of it only in a multi-instance graph).
func (n name) same(o name) bool {
	return n.multi == o.multi && n.pkg == o.pkg && n.id == o.id && (!n.multi || n.inst == o.inst)
}

// plain reports whether key is one-to-one on this name: no "/" in the id
// and no ":" in the instance, so no other parts join to the same key
// ("a" + "b/c" and "a/b" + "c" would). Only then does pairing by parts
// pair exactly what pairing by key does.
func (n name) plain() bool {
	return !strings.Contains(n.id, "/") && (!n.multi || !strings.Contains(n.inst, ":"))
}

func (k keyer) skillName(s *queries.Skill, multi bool) name {
	return name{multi: multi, inst: k.instance(s.Instance), pkg: s.Package, id: s.ID}
}

func (k keyer) toolName(t *queries.Tool, multi bool) name {
	return name{multi: multi, inst: k.instance(t.Instance), id: t.ID}
}

// eachPair calls fn once for each name the base's nb entities or the
// head's nh entities have, with the place of the first entity of each side
// under it (-1: that side has none) — the pairing Compare's lists are made
// of, in no particular order. The sides' names are bn(i) and hn(i).
//
// When both sides name the same entities in the same places (every edit
// that adds, removes or renames nothing: a watched edit, most commits of a
// history), they pair by place: one pass of field comparisons instead of
// two maps of 100 000 key strings per kind at 100k skills, which cost ≈ 1
// CPU-s of every edit's change record (issue #27). Otherwise, by key.
func eachPair(nb, nh int, bn, hn func(int) name, fn func(n name, b, h int)) {
	if samePlaces(nb, nh, bn, hn) {
		pairByPlace(nh, hn, fn)
		return
	}
	pairByKey(nb, nh, bn, hn, fn)
}

// pairByPlace is eachPair of two sides with the same names in the same
// places (samePlaces): the first entity of each name pairs with itself.
func pairByPlace(n int, at func(int) name, fn func(n name, b, h int)) {
	run := 0 // the first place of the current id
	var first name
	for i := range n {
		nm := at(i)
		if i == 0 || nm.id != first.id {
			run, first = i, nm
		}
		if i == run || !namedBefore(nm, run, i, at) {
			fn(nm, i, i)
		}
	}
}

// pairByKey is eachPair by the names' keys.
func pairByKey(nb, nh int, bn, hn func(int) name, fn func(n name, b, h int)) {
	bm, bo := firstByKey(nb, bn)
	hm, ho := firstByKey(nh, hn)
	for _, k := range ho {
		h := hm[k]
		b, ok := bm[k]
		if !ok {
			b = -1
		}
		fn(hn(h), b, h)
	}
	for _, k := range bo {
		if _, ok := hm[k]; !ok {
			b := bm[k]
			fn(bn(b), b, -1)
		}
	}
}

// samePlaces reports whether both sides have the same names in the same
// places, each plain, in id order (as snapshots list them: the entities
// of one id are then adjacent, which pairByPlace's duplicate rule needs).
func samePlaces(nb, nh int, bn, hn func(int) name) bool {
	if nb != nh {
		return false
	}
	prev := ""
	for i := range nh {
		b, h := bn(i), hn(i)
		if !b.same(h) || !h.plain() || (i > 0 && h.id < prev) {
			return false
		}
		prev = h.id
	}
	return true
}

// namedBefore reports whether an entity at a place in [from, i) has the
// name n (the first of a duplicate is the one diffed: duplicate-node
// reports the others).
func namedBefore(n name, from, i int, at func(int) name) bool {
	for j := from; j < i; j++ {
		if at(j).same(n) {
			return true
		}
	}
	return false
}

// firstByKey is the place of the first entity of each key, and the keys
// in the order of their first entities.
func firstByKey(n int, at func(int) name) (map[string]int, []string) {
	m := make(map[string]int, n)
	order := make([]string, 0, n)
	for i := range n {
		k := at(i).key()
		if _, dup := m[k]; !dup {
			m[k] = i
			order = append(order, k)
		}
	}
	return m, order
}

// pairEntities pairs two lists of entities by their names (eachPair), fn
// getting the entities (nil: that side has none).
func pairEntities[T any](bs, hs []*T, bn, hn func(*T) name, fn func(n name, b, h *T)) {
	eachPair(len(bs), len(hs),
		func(i int) name { return bn(bs[i]) },
		func(i int) name { return hn(hs[i]) },
		func(n name, b, h int) { fn(n, at(bs, b), at(hs, h)) })
}

// eachSkill pairs base's and head's skills (pairEntities).
func eachSkill(base, head *queries.Snapshot, bk, hk keyer, fn func(n name, b, h *queries.Skill)) {
	bm, hm := len(base.Instances) > 1, len(head.Instances) > 1
	pairEntities(base.Skills, head.Skills,
		func(s *queries.Skill) name { return bk.skillName(s, bm) },
		func(s *queries.Skill) name { return hk.skillName(s, hm) }, fn)
}

// eachTool pairs base's and head's Tools (pairEntities).
func eachTool(base, head *queries.Snapshot, bk, hk keyer, fn func(n name, b, h *queries.Tool)) {
	bm, hm := len(base.Instances) > 1, len(head.Instances) > 1
	pairEntities(base.Tools, head.Tools,
		func(t *queries.Tool) name { return bk.toolName(t, bm) },
		func(t *queries.Tool) name { return hk.toolName(t, hm) }, fn)
}

// at is xs[i], nil for i < 0.
func at[T any](xs []*T, i int) *T {
	if i < 0 {
		return nil
	}
	return xs[i]
}
