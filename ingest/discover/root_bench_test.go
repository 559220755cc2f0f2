package discover

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

// BenchmarkReadFile reads every file of a generated 300-skill corpus
// through the root (open, stat, read), as the parse does; one op is the
// whole corpus.
//
//	go test -run '^$' -bench ReadFile -benchmem ./ingest/discover
func BenchmarkReadFile(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.Write(dir, gen.Options{Skills: 300, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	var rels []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil
	})
	r, err := OpenRoot(dir, 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	var n int64
	for b.Loop() {
		for _, rel := range rels {
			data, err := r.ReadFile(rel)
			if err != nil {
				b.Fatal(err)
			}
			n += int64(len(data))
		}
	}
	b.ReportMetric(float64(len(rels)), "files")
	b.SetBytes(n / int64(b.N))
}
