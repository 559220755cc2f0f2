package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// benchSkills is the size of the corpus the ingest benchmarks use.
const benchSkills = 1000

// benchCorpus writes a fresh generated corpus into a temporary directory.
func benchCorpus(b *testing.B) string { return benchCorpusOf(b, benchSkills) }

// benchCorpusOf writes a generated corpus of n skills.
func benchCorpusOf(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return dir
}

func openStore(b *testing.B, url string) *graph.Store {
	b.Helper()
	st, err := graph.Open(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// reportRate reports files/s and quads/s over the whole timed loop.
func reportRate(b *testing.B, files, quads int) {
	secs := b.Elapsed().Seconds()
	if secs <= 0 {
		return
	}
	b.ReportMetric(float64(files*b.N)/secs, "files/s")
	b.ReportMetric(float64(quads*b.N)/secs, "quads/s")
}

// BenchmarkIngestCold ingests the 1k-skill corpus (and with
// SKILLGRAPH_BENCH_LARGE=1 the 10k one) into an empty store: discovery,
// parsing, JSON-LD conversion and the store writes. The memory case
// isolates the store's share of the bbolt case. A profile of the 10k cold
// ingest (issue #27: the conversion's share):
//
//	SKILLGRAPH_BENCH_LARGE=1 go test ./graph/ingest -run '^$' -bench 'IngestCold/skills=10000/bbolt' -benchtime 1x -cpuprofile cpu.out
func BenchmarkIngestCold(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchSizes() {
		dir := benchCorpusOf(b, n)
		for _, backend := range []string{"bbolt", "memory"} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, backend), func(b *testing.B) {
				b.ReportAllocs()
				tmp := b.TempDir()
				var res ingest.Result
				i := 0
				for b.Loop() {
					url := "memory"
					if backend == "bbolt" {
						url = "bbolt:" + filepath.Join(tmp, fmt.Sprintf("g%d.db", i))
					}
					i++
					st := openStore(b, url)
					var err error
					res, err = ingest.Run(ctx, st, []string{dir}, ingest.Options{})
					if err != nil {
						b.Fatal(err)
					}
					if err := st.Close(); err != nil {
						b.Fatal(err)
					}
				}
				reportRate(b, res.Files, res.Quads)
				b.ReportMetric(float64(res.Quads), "quads")
			})
		}
	}
}

// BenchmarkReingestUnchanged re-ingests the corpus into a bbolt store that
// already holds it, nothing changed since: discovery walks the tree and
// every file's size and mtime (and those of what its parse read) are those
// recorded, so none is read, parsed, converted or written. The corpus is
// dated an hour back first, out of the same-second window of the first
// ingest (a corpus written just before would be read once more).
//
//	SKILLGRAPH_BENCH_LARGE=1 go test -run '^$' -bench ReingestUnchanged -benchtime 5x -timeout 0 ./graph/ingest
func BenchmarkReingestUnchanged(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			dir := benchCorpusOf(b, n)
			corpustest.Age(b, dir, time.Now().Add(-time.Hour))
			ctx := context.Background()
			st := openStore(b, "bbolt:"+filepath.Join(b.TempDir(), "g.db"))
			defer st.Close()
			if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var res ingest.Result
			for b.Loop() {
				var err error
				res, err = ingest.Run(ctx, st, []string{dir}, ingest.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Changed != 0 {
					b.Fatalf("unchanged corpus: %d graphs written", res.Changed)
				}
			}
			b.ReportMetric(float64(res.Files*b.N)/b.Elapsed().Seconds(), "files/s")
			b.ReportMetric(float64(res.NotRead), "not-read")
		})
	}
}

// BenchmarkReingestOneChanged re-ingests after one skill file changed: one
// graph converted and replaced, every other file skipped by digest.
func BenchmarkReingestOneChanged(b *testing.B) {
	dir := benchCorpus(b)
	ctx := context.Background()
	st := openStore(b, "bbolt:"+filepath.Join(b.TempDir(), "g.db"))
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
		b.Fatal(err)
	}
	target, orig := middleSkill(b, dir)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		revise(b, target, orig, i)
		res, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Changed != 1 {
			b.Fatalf("one file changed: %d graphs written", res.Changed)
		}
	}
}

// middleSkill is a skill file of the corpus at dir, from its middle, and
// its content.
func middleSkill(b *testing.B, dir string) (string, []byte) {
	matches, _ := filepath.Glob(filepath.Join(dir, "skills", "*", "*.md"))
	if len(matches) == 0 {
		b.Fatal("no skill file")
	}
	target := matches[len(matches)/2]
	orig, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	return target, orig
}

// revise writes revision i of a skill file: its content orig and a line
// naming i, so each revision is a change.
func revise(b *testing.B, target string, orig []byte, i int) {
	data := append(append([]byte(nil), orig...), fmt.Sprintf("\nRevision %d.\n", i)...)
	if err := os.WriteFile(target, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

// benchSizes are the corpus sizes of the re-ingest benchmarks: 1k, and 10k
// when SKILLGRAPH_BENCH_LARGE=1 (its setup is a cold ingest of about a
// minute).
func benchSizes() []int {
	if os.Getenv("SKILLGRAPH_BENCH_LARGE") == "1" {
		return []int{1000, 10000}
	}
	return []int{1000}
}

// BenchmarkReingestOnly is what `serve --watch` runs for one edited skill
// file: an ingest told the changed path (Options.Only) with the discovery
// of the previous ingest remembered, into a bbolt store holding the corpus.
//
//	SKILLGRAPH_BENCH_LARGE=1 go test -run '^$' -bench ReingestOnly -benchtime 50x -timeout 0 ./graph/ingest
func BenchmarkReingestOnly(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			dir := benchCorpusOf(b, n)
			ctx := context.Background()
			st := openStore(b, "bbolt:"+filepath.Join(b.TempDir(), "g.db"))
			defer st.Close()
			disc := &ingest.Discovery{}
			if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{Discovery: disc}); err != nil {
				b.Fatal(err)
			}
			target, orig := middleSkill(b, dir)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				revise(b, target, orig, i)
				res, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{Only: []string{target}, Discovery: disc})
				if err != nil {
					b.Fatal(err)
				}
				if res.Changed != 1 {
					b.Fatalf("one file changed: %d graphs written", res.Changed)
				}
			}
		})
	}
}
