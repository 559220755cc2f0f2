package api

import (
	"runtime"
	"testing"
	"weak"

	"github.com/skillgraph/skillgraph/queries"
)

// TestMemoPerSnapshot: a list is computed once per snapshot, another
// snapshot has its own, and a snapshot's memo goes with it.
func TestMemoPerSnapshot(t *testing.T) {
	s1 := &queries.Snapshot{Skills: []*queries.Skill{{ID: "b", Tier: "A"}, {ID: "a", Tier: "C"}}}
	s2 := &queries.Snapshot{Skills: []*queries.Skill{{ID: "c"}}}
	args := map[string]any{"orderBy": "tier"}
	a, b := orderedSkills(s1, args), orderedSkills(s1, args)
	if len(a) != 2 || &a[0] != &b[0] {
		t.Fatal("the ordered list was computed twice for one snapshot")
	}
	if a[0].(*queries.Skill).ID != "a" {
		t.Errorf("tier C is not first: %v", a[0])
	}
	if c := orderedSkills(s2, args); len(c) != 1 {
		t.Fatalf("another snapshot got %d skills", len(c))
	}
	w1, w2 := weak.Make(s1), weak.Make(s2)
	count := func() int {
		n := 0
		for _, w := range []weak.Pointer[queries.Snapshot]{w1, w2} {
			if _, ok := memos.Load(w); ok {
				n++
			}
		}
		return n
	}
	if count() != 2 {
		t.Fatalf("%d memos for two snapshots", count())
	}
	runtime.KeepAlive(s1)
	runtime.KeepAlive(s2)
	s1, s2 = nil, nil
	// cleanups run on their own goroutine after a collection: collect
	// until they have run (each round waits for a full GC, no timer)
	for i := 0; i < 100 && count() > 0; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if n := count(); n != 0 {
		t.Errorf("%d memos outlived their snapshots", n)
	}
}
