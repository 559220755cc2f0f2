package history_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
)

// envInt is an environment variable as a number, or def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// benchRepo is a repository whose corpus is a generated one of skills
// skills, then commits-1 commits each editing one skill file (every
// seventh removing one).
func benchRepo(b *testing.B, skills, commits int) (*gittest.Repo, string, []string) {
	b.Helper()
	repo := gittest.Init(b, filepath.Join(b.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "corpus")
	hashes := []string{repo.Commit("generated", func(string) {
		if _, err := gen.Write(corpus, gen.Options{Skills: skills, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	})}
	var md []string
	err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && strings.Contains(p, "skills") {
			md = append(md, p)
		}
		return err
	})
	if err != nil || len(md) < commits {
		b.Fatalf("%d skill files for %d commits: %v", len(md), commits, err)
	}
	sort.Strings(md)
	for i := 1; i < commits; i++ {
		p := md[(i*7919)%len(md)]
		hashes = append(hashes, repo.Commit(fmt.Sprintf("edit %d", i), func(string) {
			if i%7 == 0 {
				_ = os.Remove(p)
				return
			}
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return // removed by an earlier commit
			}
			fmt.Fprintf(f, "\nEdited in commit %d.\n", i)
			f.Close()
		}))
	}
	return repo, corpus, hashes
}

// BenchmarkHistory compares, over one generated history, the walk (one
// store, each commit's changed files re-ingested) with the baseline a
// script would run: for each commit a checkout and a full ingest into a
// fresh store (what `coverage` on a checkout does). Sizes from
// SKILLGRAPH_HISTORY_SKILLS (default 200) and SKILLGRAPH_HISTORY_COMMITS
// (default 30); docs/performance.md has the numbers and the command.
func BenchmarkHistory(b *testing.B) {
	skills, commits := envInt("SKILLGRAPH_HISTORY_SKILLS", 200), envInt("SKILLGRAPH_HISTORY_COMMITS", 30)
	repo, corpus, hashes := benchRepo(b, skills, commits)
	ctx := context.Background()
	b.Run(fmt.Sprintf("walk/skills=%d/commits=%d", skills, commits), func(b *testing.B) {
		for b.Loop() {
			n := 0
			if err := history.Walk(ctx, corpus, history.Options{}, func(history.Point) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
			if n != len(hashes) {
				b.Fatalf("%d points, want %d", n, len(hashes))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(len(hashes)), "ms/commit")
	})
	b.Run(fmt.Sprintf("checkout+full-ingest/skills=%d/commits=%d", skills, commits), func(b *testing.B) {
		for b.Loop() {
			for _, h := range hashes {
				dir := filepath.Join(b.TempDir(), "corpus")
				repo.Checkout(h, "corpus", dir)
				st, err := graph.Open(ctx, "memory")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
					b.Fatal(err)
				}
				s, err := queries.Build(ctx, st)
				if err != nil {
					b.Fatal(err)
				}
				_ = history.Of(s)
				st.Close()
				os.RemoveAll(dir)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(len(hashes)), "ms/commit")
	})
}
