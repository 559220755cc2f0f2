package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/backend"
	"github.com/skillgraph/skillgraph/graph/pgtest"
)

// graphsOf is every graph of the store's current version but the meta
// graph, each graph's quads as sorted keys: what a fresh reader sees.
func graphsOf(t *testing.T, st *graph.Store) (int64, map[string][]string) {
	t.Helper()
	var mu sync.Mutex
	out := map[string][]string{}
	v, err := st.ReadGraphs(context.Background(), func(label string, qs []quad.Quad) error {
		keys := keysOf(qs)
		mu.Lock()
		out[label] = keys
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v, out
}

func keysOf(qs []quad.Quad) []string {
	keys := make([]string, 0, len(qs))
	for _, q := range qs {
		keys = append(keys, backend.Key(q))
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// follower is a reader that read the store whole once and follows it by
// ChangesSince alone, as a replica's snapshot does.
type follower struct {
	v      int64
	graphs map[string][]string
}

// follow brings f to the store's version; ok false: the store could not
// say what changed.
func (f *follower) follow(t *testing.T, st *graph.Store) bool {
	t.Helper()
	v, changes, ok, err := st.ChangesSince(context.Background(), f.v)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return false
	}
	if !slices.IsSortedFunc(changes, func(a, b graph.Change) int { return strings.Compare(a.Graph, b.Graph) }) {
		t.Fatalf("changes not in graph order")
	}
	for _, c := range changes {
		if c.Delete {
			delete(f.graphs, c.Graph)
			continue
		}
		f.graphs[c.Graph] = keysOf(c.Quads)
	}
	f.v = v
	return true
}

func skillGraph(i, rev int) graph.Change {
	s := quad.IRI(fmt.Sprintf("https://example.org/skill/%d", i))
	return graph.Change{Graph: fmt.Sprintf("file:///corpus/skills/s%d.md", i), Quads: []quad.Quad{
		{Subject: s, Predicate: quad.IRI("https://example.org/name"), Object: quad.String(fmt.Sprintf("skill %d", i))},
		{Subject: s, Predicate: quad.IRI("https://example.org/description"), Object: quad.String(fmt.Sprintf("rev %d", rev))},
		{Subject: s, Predicate: quad.IRI("https://example.org/rank"), Object: quad.Int(rev)},
	}}
}

// TestChangesSinceFollowsEveryWrite: a follower that read the store at
// some version and then applied only what ChangesSince gave it — after
// every write, or after several at once — holds the graphs a fresh reader
// reads, quad for quad; after a checkpoint rebuild, or a write by a
// skillgraph that does not record versions (an older one), the store says
// it cannot tell instead of giving a partial delta, and tells again from
// the next write on.
func TestChangesSinceFollowsEveryWrite(t *testing.T) {
	ctx := context.Background()
	url := "postgres:" + pgtest.Scratch(t)
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	apply := func(changes ...graph.Change) {
		t.Helper()
		if _, err := st.Apply(ctx, changes); err != nil {
			t.Fatal(err)
		}
	}
	var first []graph.Change
	for i := range 8 {
		first = append(first, skillGraph(i, 0))
	}
	apply(first...)
	v0, g0 := graphsOf(t, st)
	if v, _, ok, err := st.ChangesSince(ctx, 0); err != nil || ok {
		t.Fatalf("ChangesSince(0) = v%d ok %v, %v: version 0 is read whole", v, ok, err)
	}
	f := &follower{v: v0, graphs: g0}
	check := func(step string) {
		t.Helper()
		v, want := graphsOf(t, st)
		if f.v != v {
			t.Fatalf("%s: follower at v%d, store at v%d", step, f.v, v)
		}
		if !maps.EqualFunc(f.graphs, want, slices.Equal) {
			t.Fatalf("%s: the follower's graphs differ from a fresh read\nfollower %v\nfresh    %v", step, f.graphs, want)
		}
	}
	steps := []struct {
		name   string
		writes [][]graph.Change // each one Apply; the follower follows after all
	}{
		{"edit one graph", [][]graph.Change{{skillGraph(1, 1)}}},
		{"delete one graph", [][]graph.Change{{{Graph: skillGraph(2, 0).Graph, Delete: true}}}},
		{"add, edit, delete over three writes", [][]graph.Change{
			{skillGraph(20, 0), skillGraph(3, 1)},
			{skillGraph(20, 1), {Graph: skillGraph(4, 0).Graph, Delete: true}},
			{{Graph: skillGraph(3, 0).Graph, Delete: true}},
		}},
		{"a deleted graph back, another emptied", [][]graph.Change{
			{skillGraph(2, 5)},
			{{Graph: skillGraph(5, 0).Graph}}, // no quads: gone as well
		}},
		{"deleted then back between two follows", [][]graph.Change{
			{{Graph: skillGraph(6, 0).Graph, Delete: true}},
			{skillGraph(6, 7)},
		}},
	}
	for _, s := range steps {
		for _, w := range s.writes {
			apply(w...)
		}
		if !f.follow(t, st) {
			t.Fatalf("%s: the store could not say what changed since v%d", s.name, f.v)
		}
		check(s.name)
	}
	if !f.follow(t, st) {
		t.Fatal("no write since: ChangesSince must still tell (nothing)")
	}

	// A checkpoint rebuilt after the follower's version: not a delta.
	apply(skillGraph(7, 1))
	rebuildCheckpoint(t, url)
	if f.follow(t, st) {
		t.Fatal("followed across a checkpoint rebuild")
	}
	f.v, f.graphs = graphsOf(t, st)
	apply(skillGraph(7, 2))
	if !f.follow(t, st) {
		t.Fatal("the write after a rebuild is not followed")
	}
	check("after a rebuild")

	// A write by a skillgraph that does not record versions: its stamp
	// moves, delta_at stays behind.
	apply(skillGraph(0, 3))
	olderWriter(t, url)
	if f.follow(t, st) {
		t.Fatal("followed across a write that recorded no versions")
	}
	f.v, f.graphs = graphsOf(t, st)
	apply(skillGraph(0, 4))
	if !f.follow(t, st) {
		// the next write starts the deltas again, from the version
		// before it: a follower at that version is covered.
		t.Fatal("the write after an older writer's is not followed")
	}
	check("after an older writer")
}

// rebuildCheckpoint stamps the checkpoint stale and rebuilds it, as an
// ingest that changes nothing does for a store whose checkpoint is not
// current.
func rebuildCheckpoint(t *testing.T, url string) {
	t.Helper()
	db := rawDB(t, url)
	if _, err := db.Exec(`UPDATE skillgraph_checkpoint_stamp SET version = version - 1`); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rebuilt, err := st.RefreshCheckpoint(context.Background()); err != nil || !rebuilt {
		t.Fatalf("RefreshCheckpoint = %v, %v", rebuilt, err)
	}
}

// olderWriter makes the last write look like one by a skillgraph that
// knows no delta columns: it moves the stamp alone.
func olderWriter(t *testing.T, url string) {
	t.Helper()
	if _, err := rawDB(t, url).Exec(`UPDATE skillgraph_checkpoint_stamp SET delta_at = delta_at - 1, delta_since = delta_since - 1`); err != nil {
		t.Fatal(err)
	}
}

func rawDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("postgres", strings.TrimPrefix(url, "postgres:"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkFollow: what a replica reads when the writer changed one graph
// of n: every graph (ReadGraphs, a rebuild's read) against the graphs
// changed since its version (ChangesSince, the follow's read).
func BenchmarkFollow(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{2000, 20000} {
		st, err := graph.Open(ctx, "postgres:"+pgtest.Scratch(b))
		if err != nil {
			b.Fatal(err)
		}
		var all []graph.Change
		for i := range n {
			all = append(all, skillGraph(i, 0))
		}
		if _, err := st.Apply(ctx, all); err != nil {
			b.Fatal(err)
		}
		for _, read := range []struct {
			name string
			fn   func(v int64) error
		}{
			{"whole", func(int64) error {
				_, err := st.ReadGraphs(ctx, func(string, []quad.Quad) error { return nil })
				return err
			}},
			{"since", func(v int64) error {
				_, changes, ok, err := st.ChangesSince(ctx, v-1)
				if err == nil && (!ok || len(changes) != 1) {
					err = fmt.Errorf("ChangesSince(%d): ok %v, %d changes, want 1", v-1, ok, len(changes))
				}
				return err
			}},
		} {
			b.Run(fmt.Sprintf("%s/graphs=%d", read.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					v, err := st.Apply(ctx, []graph.Change{skillGraph(i%n, i+1)})
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if err := read.fn(v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		st.Close()
	}
}
