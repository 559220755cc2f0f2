package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// BenchmarkWarmStart opens a bbolt store of a generated corpus and reads
// every quad of its current version back, as a restart does before it
// builds the snapshot: through the checkpoint, and from the store's own
// indexes (Cayley's kv decoding). Run with -benchtime 3x: the setup ingests
// the corpus once.
//
//	go test -run '^$' -bench WarmStart -benchtime 3x ./graph/
func BenchmarkWarmStart(b *testing.B) {
	ctx := context.Background()
	tmp := b.TempDir()
	corpus := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(corpus, gen.Options{Skills: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	url := "bbolt:" + filepath.Join(tmp, "g.db")
	st, err := graph.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	res, err := ingest.Run(ctx, st, []string{corpus}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"checkpoint", "store"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st, err := graph.Open(ctx, url)
				if err != nil {
					b.Fatal(err)
				}
				read := st.Read
				if mode == "store" {
					read = st.ReadStore
				}
				n := 0
				if _, err := read(ctx, func(quad.Quad) error { n++; return nil }); err != nil {
					b.Fatal(err)
				}
				if n < res.Quads {
					b.Fatalf("read %d quads, the ingest wrote %d", n, res.Quads)
				}
				if err := st.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Quads*b.N)/b.Elapsed().Seconds(), "quads/s")
		})
	}
}

// BenchmarkWarmBuild opens an existing store and builds the analysis
// snapshot from it, as `serve --read-only` does before /readyz: the whole
// warm start in one process, for profiling it on a store too large to
// ingest in a benchmark's setup. The store is named by
// SKILLGRAPH_BENCH_STORE (a store URL, e.g. bbolt:/tmp/s10k.db, written
// beforehand with `skillgraph ingest`); without it the benchmark is skipped.
// For the late-verified open to show its start, the checkpoint must carry
// a manifest (written by this code's ingest: see graph/backend/bolt).
//
//	SKILLGRAPH_BENCH_STORE=bbolt:/tmp/s10k.db go test -run '^$' -bench WarmBuild -benchtime 3x -cpuprofile cpu.out ./graph/
func BenchmarkWarmBuild(b *testing.B) {
	url := os.Getenv("SKILLGRAPH_BENCH_STORE")
	if url == "" {
		b.Skip("set SKILLGRAPH_BENCH_STORE to a store URL written by skillgraph ingest")
	}
	ctx := context.Background()
	// A warm start of this code: a checkpoint of an older format (a store
	// written by an older skillgraph) is first rebuilt, as an ingest does.
	st, err := graph.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	if rebuilt, err := st.RefreshCheckpoint(ctx); err != nil {
		b.Fatal(err)
	} else if rebuilt {
		b.Logf("%s: checkpoint rebuilt", url)
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	// How a warm start opens the store: unverified (serve --corpus),
	// walked before anything is read (the reading commands), and walked
	// after the snapshot is built (serve --read-only: the walk is not
	// part of the start, but its cost is reported as walk-ns/op).
	opens := []struct {
		name string
		open func(context.Context, string) (*graph.Store, error)
	}{
		{"open", graph.Open},
		{"verified", graph.OpenVerified},
		{"verified-late", graph.OpenVerifiedLate},
	}
	for _, o := range opens {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			var walk time.Duration
			for b.Loop() {
				st, err := o.open(ctx, url)
				if err != nil {
					b.Fatal(err)
				}
				s, err := queries.Build(ctx, st)
				if err != nil {
					b.Fatal(err)
				}
				if s.Version == 0 {
					b.Fatalf("%s holds no graph version", url)
				}
				b.StopTimer()
				start := time.Now()
				if err := st.Verify(ctx); err != nil {
					b.Fatal(err)
				}
				walk += time.Since(start)
				if err := st.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(walk.Nanoseconds())/float64(b.N), "walk-ns/op")
		})
	}
}
