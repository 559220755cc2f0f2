package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// answers is what a snapshot answers, as JSON: its version, every skill,
// tool and bean by id, the findings and the number of source files.
func answers(t *testing.T, s *queries.Snapshot) string {
	t.Helper()
	var ids []string
	for _, sk := range s.Skills {
		ids = append(ids, "skill "+sk.ID+"|"+sk.Description)
	}
	for _, tl := range s.Tools {
		ids = append(ids, "tool "+tl.ID)
	}
	for _, bn := range s.Beans {
		ids = append(ids, "bean "+bn.ID)
	}
	b, err := json.Marshal(struct {
		Version  int64
		IDs      []string
		Findings []queries.Finding
		Sources  int
	}{s.Version, ids, s.Findings, len(s.Sources)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReplicaStartsWhileWriterIngests starts a read-only replica on a
// shared PostgreSQL store while the writer is in the middle of an ingest
// (issue 14: replicas still hold with the checkpoint): the replica first
// serves the version committed before, with the writer's answers for it,
// then follows the writer to the new version, whose checkpoint the writer
// writes after its commit, and serves exactly the writer's answers again.
func TestReplicaStartsWhileWriterIngests(t *testing.T) {
	dsn := "postgres:" + pgtest.Scratch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open := opener(ctx, t, dsn)
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 40, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	// The writer's second ingest stops at its first converted file until
	// the replica has built its first snapshot.
	var (
		midIngest   = make(chan struct{})
		replicaUp   = make(chan struct{})
		second      bool
		pauseOnce   sync.Once
		writerStore = open()
	)
	opt := ingest.Options{Progress: func(done, total int) {
		if second {
			pauseOnce.Do(func() { close(midIngest); <-replicaUp })
		}
	}}
	writer := server.NewService(writerStore, []string{root}, opt, nil, nil)
	if _, err := writer.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	v1 := answers(t, writer.Snapshot())

	for i := range 10 {
		p := filepath.Join(root, "skills", "late", fmt.Sprintf("late-%d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "---\nname: late-%d\ndescription: added while a replica starts\n---\n\nUse `skill-1`.\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	second = true
	done := make(chan error, 1)
	var res ingest.Result
	go func() {
		var err error
		res, err = writer.Ingest(ctx)
		done <- err
	}()
	<-midIngest
	replica := server.NewService(open(), nil, ingest.Options{}, nil, nil)
	snap, err := replica.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	close(replicaUp)
	if got := answers(t, snap); got != v1 {
		t.Fatalf("the replica started mid-ingest at version %d; it does not answer as the writer did at version 1", snap.Version)
	}
	go replica.Poll(ctx, 20*time.Millisecond)
	if err := <-done; err != nil {
		t.Fatalf("second ingest: %v", err)
	}
	want := writer.Snapshot()
	if want.Version != res.Version || res.Version != 2 {
		t.Fatalf("the writer serves version %d after committing %d", want.Version, res.Version)
	}
	if err := replica.WaitFor(ctx, func(s *queries.Snapshot, _ server.Readiness) bool { return s.Version == res.Version }); err != nil {
		t.Fatalf("the replica stayed at version %d (writer %d): %v", replica.Snapshot().Version, res.Version, err)
	}
	if got, want := answers(t, replica.Snapshot()), answers(t, want); got != want {
		t.Fatalf("at version %d the replica answers\n%s\nthe writer\n%s", res.Version, got, want)
	}
	// A replica started now reads the checkpoint the writer wrote after
	// its commit, and answers the same.
	if !writerStore.CheckpointCurrent(ctx) {
		t.Fatal("the writer left no current checkpoint")
	}
	late, err := server.NewService(open(), nil, ingest.Options{}, nil, nil).Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := answers(t, late); got != answers(t, want) {
		t.Fatalf("a replica started after the ingest answers differently at version %d", late.Version)
	}
}
