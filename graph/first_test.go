package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestFirstWriterMatchesApply: a first ingest written while it is handed
// over in parts (FirstWriter, the changes as they are or packed) stores
// exactly what one Apply stores — quads, subject registry, stamps and
// checkpoint — at version 1.
func TestFirstWriterMatchesApply(t *testing.T) {
	ctx := context.Background()
	defer func(n int) { coldCommit = n }(coldCommit)
	coldCommit = 500
	changes := versioned(40, 100, 1)
	for i := range changes {
		changes[i].Stamp = []byte(fmt.Sprintf("stamp %d", i))
	}
	// A quad handed over twice is stored once (and counted once).
	changes[3].Quads = append(changes[3].Quads, changes[3].Quads[0])
	ref := open(t, "bbolt:"+t.TempDir()+"/ref.db")
	if _, err := ref.Apply(ctx, changes); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		add  func(w *FirstWriter, part []Change) error
	}{
		{"Add", func(w *FirstWriter, part []Change) error { return w.Add(ctx, part) }},
		{"AddPacked", func(w *FirstWriter, part []Change) error {
			var ps []Packed
			for _, c := range part {
				p, err := Pack(c)
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
			s := open(t, "bbolt:"+t.TempDir()+"/g.db")
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
			// The checkpoint blocks went with the steps (not held to the
			// end), unserved: no stamp yet, version 0.
			tx, err := s.kv.Tx(ctx, false)
			if err != nil {
				t.Fatal(err)
			}
			stored, ok := kvBlocks(ctx, tx)
			stamp := kvStamp(ctx, tx)
			tx.Close()
			if !ok || len(stored) == 0 || stamp != -1 {
				w.Abort() // else the store's Close waits for it
				t.Fatalf("before Commit: %d checkpoint blocks stored (ok %t), stamp %d; want some, no stamp", len(stored), ok, stamp)
			}
			if v, err := w.Commit(ctx); err != nil || v != 1 {
				t.Fatalf("Commit: version %d, %v", v, err)
			}
			for _, ckpt := range []bool{false, true} {
				_, want := readAll(t, ref, ckpt)
				_, got := readAll(t, s, ckpt)
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
	defer func(n int) { coldCommit = n }(coldCommit)
	coldCommit = 500
	changes := versioned(40, 100, 1)
	tests := []struct {
		name string
		stop func(w *FirstWriter) error
	}{
		{"abort", func(w *FirstWriter) error { w.Abort(); return nil }},
		{"cancelled commit", func(w *FirstWriter) error {
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
			s := open(t, "bbolt:"+t.TempDir()+"/g.db")
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
			if v, err := checkVersioned(ctx, s, 0); err != nil || v != 0 {
				t.Fatalf("after the stopped first ingest: version %d, %v", v, err)
			}
			if v, n := readAll(t, s, false); v != 0 || len(n) != 0 {
				t.Fatalf("after the stopped first ingest: version %d, %d quads served", v, len(n))
			}
			// Not empty any more (the steps are in the file): no second
			// FirstWriter; Apply writes the difference.
			if w2, err := s.BeginFirst(ctx); err != nil || w2 != nil {
				t.Fatalf("BeginFirst over leftovers: %v, %v", w2, err)
			}
			if v, err := s.Apply(ctx, changes); err != nil || v != 1 {
				t.Fatalf("next ingest: version %d, %v", v, err)
			}
			if v, err := checkVersioned(ctx, s, 4000); err != nil || v != 1 {
				t.Fatalf("version %d, %v", v, err)
			}
			_, full := readAll(t, s, false)
			_, ck := readAll(t, s, true)
			if !slices.Equal(full, ck) {
				t.Fatalf("the checkpoint (%d quads) is not the store (%d quads)", len(ck), len(full))
			}
		})
	}
}

// TestBeginFirstOnlyEmptyBolt: the streamed write is only for an empty
// bbolt store; anything else is written by Apply.
func TestBeginFirstOnlyEmptyBolt(t *testing.T) {
	ctx := context.Background()
	full := open(t, "bbolt:"+t.TempDir()+"/g.db")
	applyVersioned(t, full, 2, 3)
	for name, s := range map[string]*Store{"memory": open(t, "memory"), "bbolt at version 1": full} {
		if w, err := s.BeginFirst(ctx); err != nil || w != nil {
			t.Fatalf("%s: BeginFirst gave %v, %v", name, w, err)
		}
		if _, err := s.Version(ctx); err != nil { // the lock was released
			t.Fatalf("%s: %v", name, err)
		}
	}
}
