package bolt

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"
	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// manifestProves fails t unless the stored manifest names the stamped
// version and exactly the blocks stored.
func manifestProves(t *testing.T, s *store) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	stamp := kvStamp(ctx, tx)
	blocks, ok := kvBlocks(ctx, tx, -1)
	m, has := readManifest(ctx, tx)
	if !ok || !has || !m.proves(stamp, blocks) {
		var got manifest
		got.addBlocks(blocks)
		t.Fatalf("manifest %+v (stored %t) does not prove the %d blocks stamped %d (their sum %+v)", m, has, len(blocks), stamp, got)
	}
}

// edits are changes to the graphs of changes(30, 20): some rewritten, some
// deleted, some new.
func edits() []backend.Change {
	out := changes(40, 7)[25:] // 25..29 rewritten, 30..39 new
	out = append(out, backend.Change{Graph: "urn:g:3", Delete: true}, backend.Change{Graph: "urn:g:4"})
	slices.SortFunc(out, func(a, b backend.Change) int { return strings.Compare(a.Graph, b.Graph) })
	return out
}

// setManifestVersion rewrites the stored manifest's version: what a write
// by a skillgraph from before the manifest leaves (a manifest of an older
// version beside a newer stamp).
func setManifestVersion(t *testing.T, s *store, v int64) {
	t.Helper()
	err := s.kv.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(sumBucket)
		m := manifest{version: v}
		return b.Put(sumKey[1], m.encode())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestManifestFollowsEveryWrite: after every way the checkpoint is written
// (a first Apply, a first write in steps, edits that rewrite, delete and
// add graphs, a rebuild, a write after an older binary's) the manifest
// names the stamped version and exactly the blocks stored.
func TestManifestFollowsEveryWrite(t *testing.T) {
	ctx := context.Background()
	apply := func(t *testing.T, s *store, cs []backend.Change) {
		t.Helper()
		if _, err := s.Apply(ctx, cs); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		hooks *backend.Hooks
		write func(t *testing.T, s *store)
	}{
		{"first apply", nil, func(t *testing.T, s *store) { apply(t, s, changes(30, 20)) }},
		{"edits", nil, func(t *testing.T, s *store) {
			apply(t, s, changes(30, 20))
			apply(t, s, edits())
		}},
		{"edits by a new process", nil, func(t *testing.T, s *store) {
			apply(t, s, changes(30, 20))
			s.ckptWhole.Store(0) // as a process that did not write it
			apply(t, s, edits())
		}},
		{"first write in steps, then edits", &backend.Hooks{StepDeltas: 150}, func(t *testing.T, s *store) {
			fw, err := s.BeginFirst(ctx)
			if err != nil || fw == nil {
				t.Fatalf("BeginFirst: %v, %v", fw, err)
			}
			if err := fw.Add(ctx, changes(30, 20)); err != nil {
				t.Fatal(err)
			}
			if _, err := fw.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if fw.Steps() == 0 {
				t.Fatal("no step was taken")
			}
			manifestProves(t, s)
			apply(t, s, edits())
		}},
		{"rebuild", nil, func(t *testing.T, s *store) {
			apply(t, s, changes(30, 20))
			if _, err := s.RefreshCheckpoint(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"after an older binary's write", nil, func(t *testing.T, s *store) {
			apply(t, s, changes(30, 20))
			setManifestVersion(t, s, 0)
			apply(t, s, edits())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openStore(t, tt.hooks)
			tt.write(t, s)
			manifestProves(t, s)
		})
	}
}

// walkStarted reports whether the late page walk has been started.
func walkStarted(s *store) bool {
	s.late.mu.Lock()
	defer s.late.mu.Unlock()
	return s.late.done != nil
}

// readAll is every quad a Read hands out (through the checkpoint when it
// serves), sorted, and whether the checkpoint served them.
func readAll(t *testing.T, s *store) ([]string, bool) {
	t.Helper()
	var out []string
	each := func(q quad.Quad) error { out = append(out, q.NQuad()); return nil }
	v, fromCkpt, err := s.Read(context.Background(), backend.ReadRequest{
		UseCheckpoint: true, Workers: 1,
		Blocks: func(_ string, qs []quad.Quad) error {
			for _, q := range qs {
				_ = each(q)
			}
			return nil
		},
		Quad: each,
	})
	if err != nil {
		t.Fatal(err)
	}
	if fromCkpt {
		_ = each(backend.VersionQuad(v))
	}
	slices.Sort(out)
	return out, fromCkpt
}

// TestLateVerifyReadsTheCheckpointUnwalked: a store opened with
// VerifyLater serves a checkpoint its manifest proves without walking the
// store first (issue 27: the walk cost a 10k replica's start more than a
// second); a checkpoint that lost a block under its intact manifest, or
// one with no manifest of its version (an older binary wrote it), is read
// only after the walk, and the lost block's graph is read from the store.
func TestLateVerifyReadsTheCheckpointUnwalked(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		damage   func(t *testing.T, s *store)
		walked   bool // the walk ran before the quads were handed out
		fromCkpt bool
	}{
		{"proven", func(*testing.T, *store) {}, false, true},
		{"no manifest of its version", func(t *testing.T, s *store) { setManifestVersion(t, s, 1) }, true, true},
		{"a block lost", func(t *testing.T, s *store) {
			err := s.kv.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(ckptBucket).Delete([]byte("urn:g:7")) })
			if err != nil {
				t.Fatal(err)
			}
		}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openStore(t, nil)
			if _, err := w.Apply(ctx, changes(30, 20)); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Apply(ctx, edits()); err != nil {
				t.Fatal(err)
			}
			want := readStore(t, w)
			tt.damage(t, w)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			b, err := open(ctx, "bbolt:"+dir, dir, &backend.Hooks{VerifyLater: true})
			if err != nil {
				t.Fatal(err)
			}
			s := b.(*store)
			defer s.Close()
			got, fromCkpt := readAll(t, s)
			if !slices.Equal(got, want) {
				t.Fatalf("read %d quads, the store holds %d", len(got), len(want))
			}
			if fromCkpt != tt.fromCkpt || walkStarted(s) != tt.walked {
				t.Fatalf("from the checkpoint %t, walked %t; want %t, %t", fromCkpt, walkStarted(s), tt.fromCkpt, tt.walked)
			}
			if err := s.VerifyStore(ctx); err != nil {
				t.Fatalf("VerifyStore on a sound store: %v", err)
			}
		})
	}
}
