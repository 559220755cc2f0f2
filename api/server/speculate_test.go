package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/queries"
)

// TestUpdateWhileWriting: an ingest of changed files onto the version
// served (a --watch edit) updates the snapshot while its store write runs
// — here the write is let go only once the update has started, so it
// cannot run after it — and serves the update only once the write
// committed the next version. When another writer committed in between,
// the update is dropped and the store's own snapshot is served.
func TestUpdateWhileWriting(t *testing.T) {
	tests := []struct {
		name  string
		other bool // another writer removes open-change's graph before the write
	}{
		{"alone", false},
		{"another writer in between", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := start(t, "", nil)
			base := e.svc.Snapshot()
			other := base.Skill("open-change")
			if other == nil || other.Source == nil {
				t.Fatal("the test corpus has no open-change skill")
			}
			p := filepath.Join(e.root, "skills/core/review.md")
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Review a change.", "Edited while writing.", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			started := make(chan struct{})
			var once sync.Once
			server.SetUpdating(e.svc, func() { once.Do(func() { close(started) }) })
			server.SetBeforeWrite(e.svc, func() {
				<-started // the update does not wait for the write
				if s := e.svc.Snapshot(); s != base {
					t.Errorf("version %d served before the write committed", s.Version)
				}
				if tt.other {
					if _, err := e.store.Apply(ctx, []graph.Change{{Graph: other.Source.IRI, Delete: true}}); err != nil {
						t.Error(err)
					}
				}
			})
			res, err := e.svc.IngestPaths(ctx, []string{p})
			if err != nil {
				t.Fatal(err)
			}
			snap := e.svc.Snapshot()
			want := base.Version + 1
			if tt.other {
				want++
			}
			if res.Version != want || snap.Version != want {
				t.Fatalf("committed %d, served %d, want %d", res.Version, snap.Version, want)
			}
			if sk := snap.Skill("review"); sk == nil || sk.Description != "Edited while writing." {
				t.Fatalf("the edit is not served: %+v", sk)
			}
			built, err := queries.Build(ctx, e.store)
			if err != nil {
				t.Fatal(err)
			}
			if (built.Skill("open-change") == nil) != tt.other || (snap.Skill("open-change") == nil) != tt.other {
				t.Fatalf("open-change in the store's snapshot: %t, served: %t, want %t", built.Skill("open-change") != nil, snap.Skill("open-change") != nil, !tt.other)
			}
			if len(snap.Skills) != len(built.Skills) || len(snap.Findings) != len(built.Findings) {
				t.Fatalf("served %d skills, %d findings; the store's snapshot %d, %d", len(snap.Skills), len(snap.Findings), len(built.Skills), len(built.Findings))
			}
		})
	}
}
