package bolt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"
	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// openStore opens the backend itself on a fresh directory, for what only
// its insides show (graph.Store, above it, cannot be imported here).
func openStore(t *testing.T, h *backend.Hooks) (*store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "g.db")
	if h == nil {
		h = &backend.Hooks{}
	}
	b, err := open(context.Background(), "bbolt:"+dir, dir, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b.(*store), dir
}

// changes are graphs graphs of per quads each.
func changes(graphs, per int) []backend.Change {
	out := make([]backend.Change, graphs)
	for g := range out {
		c := backend.Change{Graph: fmt.Sprintf("urn:g:%d", g)}
		for i := range per {
			c.Quads = append(c.Quads, quad.Quad{Subject: quad.IRI(fmt.Sprintf("urn:s:%d:%d", g, i)), Predicate: quad.IRI("urn:p"), Object: quad.String(fmt.Sprint(i))})
		}
		out[g] = c
	}
	return out
}

// readStore is every quad of the store's own indexes, sorted.
func readStore(t *testing.T, s *store) []string {
	t.Helper()
	var out []string
	_, _, err := s.Read(context.Background(), backend.ReadRequest{Quad: func(q quad.Quad) error {
		out = append(out, q.NQuad())
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestFirstStepsWriteBlocks: the checkpoint blocks of a first ingest go
// with its steps (not held to the end), unserved: no stamp until Commit.
func TestFirstStepsWriteBlocks(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, &backend.Hooks{StepDeltas: 500})
	fw, err := s.BeginFirst(ctx)
	if err != nil || fw == nil {
		t.Fatalf("BeginFirst on an empty store: %v, %v", fw, err)
	}
	if err := fw.Add(ctx, changes(40, 100)); err != nil {
		t.Fatal(err)
	}
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	stored, ok := kvBlocks(ctx, tx)
	stamp := kvStamp(ctx, tx)
	tx.Close()
	if fw.Steps() == 0 || !ok || len(stored) == 0 || stamp != -1 {
		t.Fatalf("before Commit: %d steps, %d checkpoint blocks stored (ok %t), stamp %d; want some, some, no stamp", fw.Steps(), len(stored), ok, stamp)
	}
	if v, err := fw.Commit(ctx); err != nil || v != 1 {
		t.Fatalf("Commit: %d, %v", v, err)
	}
	tx, err = s.kv.Tx(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	if blocks, ok := checkpointKV(ctx, tx, 1); !ok || len(blocks) != 40 {
		t.Fatalf("after Commit: %d blocks stamped 1 (ok %t), want 40", len(blocks), ok)
	}
}

// BenchmarkCheckPages is the cost of the key walk every open of an
// existing store runs (checkPages) on the store named by
// $SKILLGRAPH_BENCH_STORE (a store directory; skipped without it), e.g.
// one `skillgraph gen --skills 10000` ingested: see docs/security.md.
func BenchmarkCheckPages(b *testing.B) {
	dir := os.Getenv("SKILLGRAPH_BENCH_STORE")
	if dir == "" {
		b.Skip("SKILLGRAPH_BENCH_STORE is not set")
	}
	db, err := bolt.Open(filepath.Join(dir, boltFile), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var size int64
	_ = db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil })
	b.SetBytes(size)
	for b.Loop() {
		if err := checkPages(db); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLargeGraphIntoNonEmpty writes one graph of N subjects (two
// quads each) into a store that already holds another graph (issue
// 28.10): the time per subject should not grow with N.
func BenchmarkLargeGraphIntoNonEmpty(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{2000, 4000, 8000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var base, qs []quad.Quad
			for i := range 2000 {
				base = append(base, quad.MakeIRI(fmt.Sprintf("urn:b:%d", i), "urn:p", "urn:o", ""))
			}
			for i := range n {
				s := fmt.Sprintf("urn:big#task/%d", i)
				qs = append(qs, quad.MakeIRI(s, "urn:type", "urn:Task", ""), quad.Make(quad.IRI(s), quad.IRI("urn:name"), quad.String(fmt.Sprint("task ", i)), nil))
			}
			for b.Loop() {
				b.StopTimer()
				bk, err := open(ctx, "bbolt", filepath.Join(b.TempDir(), "g.db"), &backend.Hooks{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bk.Apply(ctx, []backend.Change{{Graph: "urn:g:base", Quads: base}}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := bk.Apply(ctx, []backend.Change{{Graph: "urn:g:big", Quads: qs}}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				bk.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/subject")
		})
	}
}
