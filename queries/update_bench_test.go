package queries

import "testing"

// BenchmarkUpdate is one edited skill file's Update (the shape is kept:
// the incremental path) on generated corpora of 1k, 10k and 100k skills,
// the same generator and edit as the engine benchmarks: an edit's cost
// should not grow with the corpus, so the 100k ÷ 10k ratio of ns/op is
// the figure of issue #27. 10k needs SKILLGRAPH_BENCH_LARGE=1, 100k also
// SKILLGRAPH_BENCH_100K=1 (its setup ingests for minutes and holds GBs).
//
//	SKILLGRAPH_BENCH_LARGE=1 SKILLGRAPH_BENCH_100K=1 go test -run '^$' -bench 'Update/' -benchtime 10x -timeout 0 ./queries
func BenchmarkUpdate(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(size.name, func(b *testing.B) {
			f := engineSetup(b, size.n)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				n := f.before.Update(f.changes, f.version)
				if n.lk != f.before.lk {
					b.Fatal("an edited description changed the shape")
				}
				if !n.Reach.reused {
					b.Fatal("an edited description changed the dispatch graph: the walk was not reused")
				}
			}
			reportCPU(b, start, 0)
		})
	}
}
