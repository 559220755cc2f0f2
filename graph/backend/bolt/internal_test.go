package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"
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
	stored, ok := kvBlocks(ctx, tx, -1)
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
	if blocks, ok := checkpointKV(ctx, tx, 1, -1, nil); !ok || len(blocks) != 40 {
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
		if err := checkPages(context.Background(), db); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckBoltFile is the cost of the checks every open runs before
// bbolt maps the file (meta pages, every page header, the freelist;
// checkBoltFile) on the store directory named by $SKILLGRAPH_BENCH_STORE
// (skipped without it): see docs/performance.md.
func BenchmarkCheckBoltFile(b *testing.B) {
	dir := os.Getenv("SKILLGRAPH_BENCH_STORE")
	if dir == "" {
		b.Skip("SKILLGRAPH_BENCH_STORE is not set")
	}
	path := filepath.Join(dir, boltFile)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	for b.Loop() {
		if err := checkBoltFile(path, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLargeGraphIntoNonEmpty writes one graph of N subjects (two
// quads each) into a store that already holds another graph (issue
// 28.10): the time per subject should not grow with N. Run:
// go test ./graph/backend/bolt -run '^$' -bench LargeGraphIntoNonEmpty -benchtime 1x
func BenchmarkLargeGraphIntoNonEmpty(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{8000, 16000, 32000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var base, qs []quad.Quad
			for i := range 2000 {
				base = append(base, quad.MakeIRI(fmt.Sprintf("urn:b:%d", i), "urn:p", "urn:o", ""))
			}
			for i := range n {
				s := fmt.Sprintf("urn:big#task/%d", i)
				qs = append(qs, quad.MakeIRI(s, "urn:type", "urn:Task", ""), quad.Make(quad.IRI(s), quad.IRI("urn:name"), quad.String(fmt.Sprint("task ", i)), nil))
			}
			var cpu time.Duration
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
				cpu0 := cpuTime()
				if _, err := bk.Apply(ctx, []backend.Change{{Graph: "urn:g:big", Quads: qs}}); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - cpu0
				b.StopTimer()
				bk.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/subject")
			// The process's CPU time too: on a shared machine the wall
			// time mostly measures the other processes.
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*n), "cpu-µs/subject")
		})
	}
}

// bigGraph is one graph of n subjects with two quads each, sharing their
// type (an object of high degree) as the issue 28.10 graphs do.
func bigGraph(n int) backend.Change {
	c := backend.Change{Graph: "urn:g:big"}
	for i := range n {
		s := fmt.Sprintf("urn:big#task/%d", i)
		c.Quads = append(c.Quads, quad.MakeIRI(s, "urn:type", "urn:Task", ""), quad.Make(quad.IRI(s), quad.IRI("urn:name"), quad.String(fmt.Sprint("task ", i)), nil))
	}
	return c
}

// TestLargeGraphIndexKeysInOrder: writing one graph of several batches
// into a non-empty store inserts every key of Cayley's quad indexes after
// the keys the same transaction inserted before it. bbolt splits nodes only
// at commit, so a key put below earlier ones moves all of them: that was
// quadratic in the graph's size (issue 28.10).
func TestLargeGraphIndexKeysInOrder(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, nil)
	if _, err := s.Apply(ctx, changes(1, 200)); err != nil {
		t.Fatal(err)
	}
	last := map[string]string{} // index bucket → the greatest key put so far
	var puts, below int
	s.kv.putSeen = func(k hkv.Key) {
		if len(k) != 2 || (string(k[0]) != "sp" && string(k[0]) != "ops") {
			return // not a quad index (see Cayley's kv DefaultQuadIndexes)
		}
		puts++
		b, key := string(k[0]), string(k[1])
		if prev, ok := last[b]; ok && key <= prev {
			below++
		}
		if key > last[b] {
			last[b] = key
		}
	}
	before := len(readStore(t, s))
	big := bigGraph(backend.BatchSize) // 3 × BatchSize deltas with the registry
	if _, err := s.Apply(ctx, []backend.Change{big}); err != nil {
		t.Fatal(err)
	}
	s.kv.putSeen = nil
	if puts == 0 {
		t.Fatal("no index key was written")
	}
	if below != 0 {
		t.Errorf("%d of %d index keys were inserted below a key put before them in the same transaction", below, puts)
	}
	if got, want := len(readStore(t, s)), before+len(big.Quads); got != want {
		t.Errorf("the store holds %d quads, want %d", got, want)
	}
}

// TestCancelInsideOneCall: cancelling an ingest stops it at the next write
// even inside one call of Cayley's that writes a whole graph, and leaves
// the store as it was.
func TestCancelInsideOneCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var writes, after int
	h := &backend.Hooks{FailWrite: func() error {
		writes++
		if ctx.Err() != nil {
			after++
		}
		if writes == 5000 {
			cancel()
		}
		return nil
	}}
	s, _ := openStore(t, h)
	if _, err := s.Apply(context.Background(), changes(1, 200)); err != nil {
		t.Fatal(err)
	}
	before := readStore(t, s)
	writes = 0
	if _, err := s.Apply(ctx, []backend.Change{bigGraph(backend.BatchSize)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Apply after cancel: %v, want context.Canceled", err)
	}
	if after != 0 {
		t.Errorf("%d writes after the cancel, want none", after)
	}
	if got := readStore(t, s); !slices.Equal(got, before) {
		t.Errorf("the store changed: %d quads, had %d", len(got), len(before))
	}
}
