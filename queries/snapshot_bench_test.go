package queries

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// benchStore generates a corpus of n skills and ingests it into a store
// opened from url ("memory", or "bbolt" for a file in a temporary directory).
func benchStore(b *testing.B, n int, backend string) (*graph.Store, ingest.Result) {
	b.Helper()
	ctx := context.Background()
	tmp := b.TempDir()
	dir := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	url := "memory"
	if backend == "bbolt" {
		url = "bbolt:" + filepath.Join(tmp, "graph.db")
	}
	st, err := graph.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	res, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return st, res
}

// benchPhases runs Build and its phases on one store: reading every quad
// back (readAll), indexing the raw subjects (index), and the analyses of
// SPEC §5 alone (analyse, with indexing outside the timer).
func benchPhases(b *testing.B, st *graph.Store, quads int) {
	ctx := context.Background()
	b.Run("Build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Build(ctx, st); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(quads*b.N)/b.Elapsed().Seconds(), "quads/s")
	})
	raws, _, err := readAll(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("readAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := readAll(ctx, st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			index(raws)
		}
	})
	b.Run("analyse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s := index(raws)
			b.StartTimer()
			s.analyse()
		}
	})
}

// BenchmarkSnapshot1k builds the analysis snapshot of a generated 1k-skill
// corpus, from the embedded default store (bbolt) and from memory.
func BenchmarkSnapshot1k(b *testing.B) {
	for _, backend := range []string{"bbolt", "memory"} {
		b.Run(backend, func(b *testing.B) {
			st, res := benchStore(b, 1000, backend)
			benchPhases(b, st, res.Quads)
		})
	}
}

// BenchmarkLarge10k is the same on a 10k-skill corpus (about 0.9M quads).
// Its setup ingests the corpus, so it runs only when selected by name and
// SKILLGRAPH_BENCH_LARGE=1 is set. The bbolt case needs the store's
// per-graph reads to be indexed (see docs/performance.md): until then its
// setup alone takes far longer than the memory case.
//
//	SKILLGRAPH_BENCH_LARGE=1 go test -run '^$' -bench 'Large10k/memory' -benchtime 3x -timeout 0 ./queries
func BenchmarkLarge10k(b *testing.B) {
	if os.Getenv("SKILLGRAPH_BENCH_LARGE") != "1" {
		b.Skip("set SKILLGRAPH_BENCH_LARGE=1 to run the 10k-skill benchmarks")
	}
	for _, backend := range []string{"memory", "bbolt"} {
		b.Run(backend, func(b *testing.B) {
			st, res := benchStore(b, 10000, backend)
			b.Logf("10k corpus in %s: %d files, %d quads, ingested in %v", backend, res.Files, res.Quads, res.Duration)
			benchPhases(b, st, res.Quads)
		})
	}
}
