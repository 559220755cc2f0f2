package bolt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/graphtest"
)

// stepHooks make a first ingest of graphtest.Versioned(40, 100, …) take
// several steps.
func stepHooks() *graph.Hooks { return &graph.Hooks{StepDeltas: 500} }

// TestFirstWriterMatchesApply: a first ingest written while it is handed
// over in parts (FirstWriter, the changes as they are or packed) stores
// exactly what one Apply stores — quads, subject registry, stamps and
// checkpoint — at version 1.
func TestFirstWriterMatchesApply(t *testing.T) {
	ctx := context.Background()
	changes := graphtest.Versioned(40, 100, 1)
	for i := range changes {
		changes[i].Stamp = []byte(fmt.Sprintf("stamp %d", i))
	}
	// A quad handed over twice is stored once (and counted once).
	changes[3].Quads = append(changes[3].Quads, changes[3].Quads[0])
	ref := graphtest.Open(t, harness.URL(t))
	if _, err := ref.Apply(ctx, changes); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		add  func(w *graph.FirstWriter, part []graph.Change) error
	}{
		{"Add", func(w *graph.FirstWriter, part []graph.Change) error { return w.Add(ctx, part) }},
		{"AddPacked", func(w *graph.FirstWriter, part []graph.Change) error {
			var ps []graph.Packed
			for _, c := range part {
				p, err := graph.Pack(c)
				if err != nil {
					return err
				}
				if p.Graph() != c.Graph {
					return fmt.Errorf("packed %s names %s", c.Graph, p.Graph())
				}
				ps = append(ps, p)
			}
			return w.AddPacked(ctx, ps)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := graphtest.OpenWith(t, harness.URL(t), stepHooks())
			w, err := s.BeginFirst(ctx)
			if err != nil || w == nil {
				t.Fatalf("BeginFirst on an empty bbolt store: %v, %v", w, err)
			}
			for part := range slices.Chunk(changes, 7) {
				if err := tt.add(w, part); err != nil {
					t.Fatal(err)
				}
			}
			if w.Steps() == 0 {
				t.Fatal("nothing was committed while the changes were handed over")
			}
			if v, err := w.Commit(ctx); err != nil || v != 1 {
				t.Fatalf("Commit: version %d, %v", v, err)
			}
			for _, ckpt := range []bool{false, true} {
				_, want := graphtest.ReadAll(t, ref, ckpt)
				_, got := graphtest.ReadAll(t, s, ckpt)
				if !slices.Equal(got, want) {
					t.Fatalf("checkpoint %t: %d quads, Apply stored %d", ckpt, len(got), len(want))
				}
			}
			if !s.CheckpointCurrent(ctx) {
				t.Fatal("the checkpoint is not current after the first ingest")
			}
			for _, label := range []string{"urn:g:0", "urn:g:3", "urn:g:39"} {
				a, _ := ref.GraphQuads(ctx, label)
				b, _ := s.GraphQuads(ctx, label)
				if len(a) != len(b) || len(a) != 100 {
					t.Fatalf("graph %s: %d quads, Apply stored %d", label, len(b), len(a))
				}
			}
			want, err := ref.Stamps(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Stamps(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(changes) || !maps.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("stamps: %d, Apply stored %d", len(got), len(want))
			}
		})
	}
}

// TestFirstWriterAbortServesNothing: a first ingest stopped after some of
// its steps were committed (a conversion error, a cancel) leaves version
// 0 and serves nothing; the next ingest writes it all.
func TestFirstWriterAbortServesNothing(t *testing.T) {
	ctx := context.Background()
	changes := graphtest.Versioned(40, 100, 1)
	tests := []struct {
		name string
		stop func(w *graph.FirstWriter) error
	}{
		{"abort", func(w *graph.FirstWriter) error { w.Abort(); return nil }},
		{"cancelled commit", func(w *graph.FirstWriter) error {
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := w.Commit(c)
			if err == nil {
				return errors.New("a cancelled Commit succeeded")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := graphtest.OpenWith(t, harness.URL(t), stepHooks())
			w, err := s.BeginFirst(ctx)
			if err != nil || w == nil {
				t.Fatalf("BeginFirst: %v, %v", w, err)
			}
			if err := w.Add(ctx, changes[:30]); err != nil {
				t.Fatal(err)
			}
			if w.Steps() == 0 {
				t.Fatal("no step committed: the test covers nothing")
			}
			if err := tt.stop(w); err != nil {
				t.Fatal(err)
			}
			w.Abort() // after Commit or Abort: nothing
			if v, err := graphtest.CheckVersioned(ctx, s, 0); err != nil || v != 0 {
				t.Fatalf("after the stopped first ingest: version %d, %v", v, err)
			}
			if v, n := graphtest.ReadAll(t, s, false); v != 0 || len(n) != 0 {
				t.Fatalf("after the stopped first ingest: version %d, %d quads served", v, len(n))
			}
			// Version 0 is an empty store (issue 28.4): the steps in the
			// file are nothing to the lookups an ingest plans with, and the
			// next first write (of other graphs) clears them.
			for _, c := range changes[:30] {
				if qs, err := s.GraphQuads(ctx, c.Graph); err != nil || len(qs) != 0 {
					t.Fatalf("GraphQuads(%s) at version 0: %d quads, %v", c.Graph, len(qs), err)
				}
			}
			if st, err := s.Stamps(ctx); err != nil || len(st) != 0 {
				t.Fatalf("Stamps at version 0: %v, %v", st, err)
			}
			w2, err := s.BeginFirst(ctx)
			if err != nil || w2 == nil {
				t.Fatalf("BeginFirst over leftovers: %v, %v", w2, err)
			}
			w2.Abort()
			if v, err := s.Apply(ctx, changes[30:]); err != nil || v != 1 {
				t.Fatalf("next ingest: version %d, %v", v, err)
			}
			fresh := graphtest.Open(t, harness.URL(t))
			if _, err := fresh.Apply(ctx, changes[30:]); err != nil {
				t.Fatal(err)
			}
			_, want := graphtest.ReadAll(t, fresh, false)
			_, full := graphtest.ReadAll(t, s, false)
			_, ck := graphtest.ReadAll(t, s, true)
			if !slices.Equal(full, want) {
				t.Fatalf("the store (%d quads) is not a fresh write of the same graphs (%d quads)", len(full), len(want))
			}
			if !slices.Equal(full, ck) {
				t.Fatalf("the checkpoint (%d quads) is not the store (%d quads)", len(ck), len(full))
			}
		})
	}
}

// TestKilledFirstWriteLeavesNothing: a first write stopped after any of
// its steps (here a failed disk write at one of many points, as a kill
// would stop it) leaves nothing that a first write of other graphs then
// serves: the store holds exactly what a fresh store holds after the same
// write, quad for quad, and its stamps are that write's alone (issue
// 28.4: 16–253 quads of a killed corpus were served for good).
func TestKilledFirstWriteLeavesNothing(t *testing.T) {
	ctx := context.Background()
	killed := graphtest.Versioned(40, 100, 1)
	for i := range killed {
		killed[i].Stamp = []byte(fmt.Sprintf("killed %d", i))
	}
	next := graphtest.Versioned(12, 50, 2)
	for i := range next {
		next[i].Graph += "-next"
		next[i].Stamp = []byte(fmt.Sprintf("next %d", i))
	}
	fresh := graphtest.Open(t, harness.URL(t))
	if _, err := fresh.Apply(ctx, next); err != nil {
		t.Fatal(err)
	}
	_, want := graphtest.ReadAll(t, fresh, false)
	wantStamps, err := fresh.Stamps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{1, 500, 1500, 3000, 4500, 6000, 7500, 8200, 9000, 9900, 10500} {
		t.Run(fmt.Sprint("write-", at), func(t *testing.T) {
			hooks := stepHooks()
			s := graphtest.OpenWith(t, harness.URL(t), hooks)
			puts := 0
			hooks.FailWrite = func() error {
				if puts++; puts == at {
					return errors.New("killed (injected)")
				}
				return nil
			}
			_, err := s.Apply(ctx, killed)
			hooks.FailWrite = nil
			if err == nil {
				t.Skipf("the write ended before put %d", at)
			}
			if v, err := s.Apply(ctx, next); err != nil || v != 1 {
				t.Fatalf("next first write: version %d, %v", v, err)
			}
			for _, useCheckpoint := range []bool{false, true} {
				if _, got := graphtest.ReadAll(t, s, useCheckpoint); !slices.Equal(got, want) {
					t.Fatalf("checkpoint %v: %d quads served, a fresh write serves %d", useCheckpoint, len(got), len(want))
				}
			}
			stamps, err := s.Stamps(ctx)
			if err != nil || !maps.EqualFunc(stamps, wantStamps, bytes.Equal) {
				t.Fatalf("stamps: %d, want %d (%v)", len(stamps), len(wantStamps), err)
			}
		})
	}
}

// TestBeginFirstOnlyEmptyBolt: the streamed write is only for an empty
// bbolt store; anything else is written by Apply.
func TestBeginFirstOnlyEmptyBolt(t *testing.T) {
	ctx := context.Background()
	full := graphtest.Open(t, harness.URL(t))
	graphtest.ApplyVersioned(t, full, 2, 3)
	for name, s := range map[string]*graph.Store{"memory": graphtest.Open(t, "memory"), "bbolt at version 1": full} {
		if w, err := s.BeginFirst(ctx); err != nil || w != nil {
			t.Fatalf("%s: BeginFirst gave %v, %v", name, w, err)
		}
		if _, err := s.Version(ctx); err != nil { // the lock was released
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestFailedFirstIngestServesNothing: a first ingest is committed in steps;
// one that fails after some steps leaves version 0, and Read serves
// nothing of it — then the next ingest writes everything.
func TestFailedFirstIngestServesNothing(t *testing.T) {
	ctx := context.Background()
	hooks := stepHooks()
	s := graphtest.OpenWith(t, harness.URL(t), hooks)
	puts := 0
	hooks.FailWrite = func() error {
		if puts++; puts == 20000 {
			return errors.New("no space left on device (injected)")
		}
		return nil
	}
	if _, err := s.Apply(ctx, graphtest.Versioned(40, 100, 1)); err == nil {
		t.Fatal("the injected failure did not fail the first ingest")
	}
	hooks.FailWrite = nil
	n := 0
	v, err := s.Read(ctx, func(quad.Quad) error { n++; return nil })
	if err != nil || v != 0 || n != 0 {
		t.Fatalf("after a failed first ingest: version %d, %d quads served, %v", v, n, err)
	}
	// The next ingest changes only half of the graphs (the others were
	// written whole before the failure, as an ingest skipping unchanged
	// digests would find them): the checkpoint must still hold them all.
	if got, err := s.Apply(ctx, graphtest.Versioned(40, 100, 1)[:20]); err != nil || got != 1 {
		t.Fatalf("next ingest: version %d, %v", got, err)
	}
	_, full := graphtest.ReadAll(t, s, false)
	_, ck := graphtest.ReadAll(t, s, true)
	if !slices.Equal(full, ck) {
		t.Fatalf("the checkpoint (%d quads) is not the store (%d quads)", len(ck), len(full))
	}
	if got := graphtest.ApplyVersioned(t, s, 40, 100); got != 2 {
		t.Fatalf("next ingest: version %d", got)
	}
	if v, err := graphtest.CheckVersioned(ctx, s, 4000); err != nil || v != 2 {
		t.Fatalf("version %d, %v", v, err)
	}
	if !s.CheckpointCurrent(ctx) {
		t.Fatal("the checkpoint is not current after the first ingest")
	}
}
