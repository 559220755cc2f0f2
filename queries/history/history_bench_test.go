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
	"github.com/skillgraph/skillgraph/queries/querytest"
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

// BenchmarkChangesOf is the change record a watched edit's tally makes
// (api/server's inWrite.tally): one skill's body edited in a generated
// corpus of 1k skills (SKILLGRAPH_BENCH_SKILLS for more), the snapshot
// after it Updated from the one before, as under --watch.
//
//	go test -run '^$' -bench ChangesOf -benchmem ./queries/history
//	SKILLGRAPH_BENCH_SKILLS=10000 go test -run '^$' -bench ChangesOf -benchmem ./queries/history
func BenchmarkChangesOf(b *testing.B) {
	ctx := context.Background()
	skills := envInt("SKILLGRAPH_BENCH_SKILLS", 1000)
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: skills, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	st, before := querytest.Open(b, dir)
	var md string
	_ = filepath.WalkDir(filepath.Join(dir, "skills"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && md == "" && strings.HasSuffix(p, ".md") {
			md = p
		}
		return err
	})
	text, err := os.ReadFile(md)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(md, append(text, "\nOne more line of body.\n"...), 0o644); err != nil {
		b.Fatal(err)
	}
	res, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{})
	if err != nil || len(res.Changes) == 0 {
		b.Fatalf("the edit changed %d graphs: %v", len(res.Changes), err)
	}
	after := before.Update(res.Changes, res.Version)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if c := history.ChangesOf(before, after); c.NewErrors != 0 {
			b.Fatalf("an edited body made %d errors", c.NewErrors)
		}
	}
}
