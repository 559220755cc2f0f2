package api

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"weak"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

var skillOrder = graphql.NewEnum(graphql.EnumConfig{Name: "SkillOrder", Values: graphql.EnumValueConfigMap{
	"ID": {Value: "id"}, "PACKAGE": {Value: "package"}, "TIER": {Value: "tier"},
}})

// orderSkills sorts skills stably by the order orderBy names.
func orderSkills(all []any, by string, desc bool) {
	key := func(s *queries.Skill) string { return s.ID }
	switch by {
	case "package":
		key = func(s *queries.Skill) string { return s.Package + "\x00" + s.ID }
	case "tier":
		key = func(s *queries.Skill) string { return string(rune('0'+queries.TriageRank(s.Tier))) + s.ID }
	}
	keys := make(map[any]string, len(all))
	for _, x := range all {
		keys[x] = key(x.(*queries.Skill))
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := keys[all[i]], keys[all[j]]
		if desc {
			return strings.Compare(a, b) > 0
		}
		return a < b
	})
}

// snapMemo holds lists computed once per snapshot (issue #14: a 10k
// triage queue sorted on every request was most of its cost).
type snapMemo struct {
	mu    sync.Mutex
	lists map[string]any // of []T
	// filters counts the filtered lists held (memoFiltered): their keys
	// are combinations of flags and orders a client chooses, so they are
	// capped.
	filters int
}

// maxFilteredLists caps the filtered lists one snapshot's memo holds:
// a dashboard pages through a few (reachable, covered, contradicted);
// past the cap a filter is applied per request, as before.
const maxFilteredLists = 16

// memoFiltered is memoList for a filtered list: computed once while the
// memo holds fewer than maxFilteredLists of them, else per call.
func memoFiltered[T any](m *snapMemo, key string, compute func() []T) []T {
	m.mu.Lock()
	l, ok := m.lists[key]
	room := m.filters < maxFilteredLists
	m.mu.Unlock()
	if ok {
		return l.([]T)
	}
	v := compute()
	if !room {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if prev, ok := m.lists[key]; ok {
		return prev.([]T)
	}
	if m.filters < maxFilteredLists {
		m.filters++
		m.lists[key] = v
	}
	return v
}

// memos maps a snapshot, held weakly, to its snapMemo; an entry goes
// when its snapshot is collected (the lists hold the snapshot's
// entities, never the snapshot), so a new graph version starts empty and
// an old one is not kept alive.
var memos sync.Map // weak.Pointer[queries.Snapshot] → *snapMemo

func memoOf(s *queries.Snapshot) *snapMemo {
	wp := weak.Make(s)
	if m, ok := memos.Load(wp); ok {
		return m.(*snapMemo)
	}
	m, loaded := memos.LoadOrStore(wp, &snapMemo{lists: map[string]any{}})
	if !loaded {
		runtime.AddCleanup(s, func(wp weak.Pointer[queries.Snapshot]) { memos.Delete(wp) }, wp)
	}
	return m.(*snapMemo)
}

// memoList returns the list named key of m's snapshot, computing it
// once; keys name a fixed set of lists (never user text), so a memo stays
// small. Callers must not change the list.
func memoList[T any](m *snapMemo, key string, compute func() []T) []T {
	m.mu.Lock()
	l, ok := m.lists[key]
	m.mu.Unlock()
	if ok {
		return l.([]T)
	}
	v := compute() // outside the lock: two first callers may both compute
	m.mu.Lock()
	defer m.mu.Unlock()
	if prev, ok := m.lists[key]; ok {
		return prev.([]T)
	}
	m.lists[key] = v
	return v
}

// skillOrderKey names the order of the skills connection's arguments in
// a snapshot's memo.
func skillOrderKey(args map[string]any) string {
	by, _ := args["orderBy"].(string)
	key := "skills/" + by
	if desc, _ := args["desc"].(bool); desc {
		key += "/desc"
	}
	return key
}

// orderedSkills is every skill of s in the order of the connection
// arguments orderBy and desc, sorted once per snapshot. Filtering keeps
// the order, so a filtered page is the same as sorting the filtered
// skills (the sort is stable).
func orderedSkills(s *queries.Snapshot, args map[string]any) []any {
	by, _ := args["orderBy"].(string)
	desc, _ := args["desc"].(bool)
	return memoList(memoOf(s), skillOrderKey(args), func() []any {
		all := anyList(s.Skills)
		orderSkills(all, by, desc)
		return all
	})
}
