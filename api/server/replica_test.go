package server_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
	"github.com/skillgraph/skillgraph/queries"
)

func skillIDs(s *queries.Snapshot) []string {
	var ids []string
	for _, sk := range s.Skills {
		ids = append(ids, sk.ID+"|"+sk.Description)
	}
	slices.Sort(ids)
	return ids
}

// opener opens a new connection to the store at dsn per call, each
// closed when the test ends: one per process of a writer and its replicas.
func opener(ctx context.Context, t *testing.T, dsn string) func() *graph.Store {
	return func() *graph.Store {
		t.Helper()
		st, err := graph.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
}

// TestReplicasFollowWriter runs one writer and two read-only replicas, each
// with its own connection to one PostgreSQL database, as three processes
// would: every ingest by the writer reaches each replica's snapshot through
// Poll within a bounded time.
func TestReplicasFollowWriter(t *testing.T) {
	dsn := "postgres:" + pgtest.Scratch(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := opener(ctx, t, dsn)
	root := copyTree(t, testCorpus)
	writer := server.NewService(open(), []string{root}, ingest.Options{}, nil, nil)
	if _, err := writer.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	replicas := []*server.Service{
		server.NewService(open(), nil, ingest.Options{}, nil, nil),
		server.NewService(open(), nil, ingest.Options{}, nil, nil),
	}
	for i, r := range replicas {
		start := time.Now()
		snap, err := r.Refresh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := writer.Snapshot(); snap.Version != want.Version || !slices.Equal(skillIDs(snap), skillIDs(want)) {
			t.Fatalf("replica %d starts at version %d %v, writer serves %d %v", i, snap.Version, skillIDs(snap), want.Version, skillIDs(want))
		}
		t.Logf("replica %d: initial snapshot v%d in %v", i, snap.Version, time.Since(start).Round(time.Millisecond))
		if _, err := r.Ingest(ctx); err == nil {
			t.Fatalf("replica %d ingested: a read-only replica must refuse", i)
		}
		go r.Poll(ctx, 100*time.Millisecond)
	}

	edits := []struct {
		name string
		edit func()
	}{
		{"edit and add a skill", func() {
			p := filepath.Join(root, "skills", "core", "review.md")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), "Review a change.", "Review a change with replicas watching.", 1))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ship := "---\nname: ship\ndescription: Ship a reviewed change.\n---\n\n# Ship\n"
			if err := os.WriteFile(filepath.Join(root, "skills", "core", "ship.md"), []byte(ship), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"remove a skill", func() {
			if err := os.Remove(filepath.Join(root, "skills", "core", "open-change.md")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, e := range edits {
		before := skillIDs(writer.Snapshot())
		e.edit()
		res, err := writer.Ingest(ctx)
		if err != nil {
			t.Fatalf("%s: ingest: %v", e.name, err)
		}
		committed := time.Now()
		want := writer.Snapshot()
		if slices.Equal(skillIDs(want), before) {
			t.Fatalf("%s: the writer's snapshot did not change: %v", e.name, before)
		}
		for i, r := range replicas {
			wait, stop := context.WithTimeout(ctx, 3*time.Second)
			err := r.WaitFor(wait, func(s *queries.Snapshot, _ server.Readiness) bool { return s.Version == res.Version })
			stop()
			if err != nil {
				t.Fatalf("%s: replica %d still at version %d %v after 3s (writer v%d)", e.name, i, r.Snapshot().Version, skillIDs(r.Snapshot()), res.Version)
			}
			if got := skillIDs(r.Snapshot()); !slices.Equal(got, skillIDs(want)) {
				t.Fatalf("%s: replica %d at v%d serves %v, writer %v", e.name, i, res.Version, got, skillIDs(want))
			}
			t.Logf("%s: replica %d at v%d after %v", e.name, i, res.Version, time.Since(committed).Round(time.Millisecond))
		}
	}
}
