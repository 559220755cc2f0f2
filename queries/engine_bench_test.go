package queries

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// engineFixture is one generated corpus ingested into a memory store, the
// snapshot built from it, and the changes of one edited skill file.
type engineFixture struct {
	raws    []*raw
	before  *Snapshot
	changes []graph.Change
	added   []graph.Change // of one skill file added beside the edited one: a new shape
	first   []graph.Change // the first ingest's: every graph (a cold start's Update)
	version int64
	quads   int
	heap    uint64 // live heap held by the snapshot (runtime.MemStats after GC)
}

var (
	fixtureMu sync.Mutex
	fixtures  = map[int]*engineFixture{}
)

// engineSetup builds the fixture of n skills once per benchmark process:
// at 10k the ingest alone takes about a minute, and every benchmark of
// this file shares it.
func engineSetup(b *testing.B, n int) *engineFixture {
	b.Helper()
	if n >= 10000 && os.Getenv("SKILLGRAPH_BENCH_LARGE") != "1" {
		b.Skip("set SKILLGRAPH_BENCH_LARGE=1 to run the 10k-skill benchmarks")
	}
	if n >= 100000 && os.Getenv("SKILLGRAPH_BENCH_100K") != "1" {
		b.Skip("set SKILLGRAPH_BENCH_100K=1 (and SKILLGRAPH_BENCH_LARGE=1) to run the 100k-skill benchmarks: the setup ingests for minutes and holds several GB")
	}
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if f := fixtures[n]; f != nil {
		return f
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sg-engine-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if _, err := gen.Write(dir, gen.Options{Skills: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	res, err := ingest.Run(ctx, st, []string{dir}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	raws, _, err := readAll(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	f := &engineFixture{raws: raws, quads: res.Quads, first: res.Changes}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	if f.before, err = Build(ctx, st); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	f.heap = m1.HeapAlloc - min(m0.HeapAlloc, m1.HeapAlloc)
	// Edit one skill file (the first in path order) and re-ingest.
	skill := firstSkillFile(b, dir)
	body, err := os.ReadFile(skill)
	if err != nil {
		b.Fatal(err)
	}
	edited := strings.Replace(string(body), "description: ", "description: Edited. ", 1)
	if err := os.WriteFile(skill, []byte(edited), 0o644); err != nil {
		b.Fatal(err)
	}
	res, err = ingest.Run(ctx, st, []string{dir}, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if res.Changed != 1 {
		b.Fatalf("editing %s changed %d graphs, want 1", skill, res.Changed)
	}
	f.changes, f.version = res.Changes, res.Version
	// A new skill (a copy under another name) changes the shape: the
	// Update that links from scratch.
	copyOf := filepath.Join(filepath.Dir(skill), "zz-added-skill.md")
	if err := os.WriteFile(copyOf, []byte(renameSkill(edited, copyOf)), 0o644); err != nil {
		b.Fatal(err)
	}
	if res, err = ingest.Run(ctx, st, []string{dir}, ingest.Options{}); err != nil {
		b.Fatal(err)
	}
	if res.Changed != 1 {
		b.Fatalf("adding %s changed %d graphs, want 1", copyOf, res.Changed)
	}
	f.added = res.Changes
	fixtures[n] = f
	b.Logf("%d skills: %d quads, snapshot heap %.1f MB", n, f.quads, float64(f.heap)/(1<<20))
	return f
}

// renameSkill gives a skill file's text another skill name (its file's
// stem), so that it defines a new skill.
func renameSkill(body, path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "skill: ") || strings.HasPrefix(l, "name: ") {
			lines[i] = l[:strings.Index(l, ":")+2] + name
		}
	}
	return strings.Join(lines, "\n")
}

func firstSkillFile(b *testing.B, dir string) string {
	var files []string
	_ = filepath.WalkDir(filepath.Join(dir, "skills"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		b.Fatal("the generated corpus has no skill file")
	}
	sort.Strings(files)
	return files[0]
}

// cpuTime is the process's user+system CPU time: on a loaded machine it
// varies far less than the wall clock, and it counts the garbage
// collector's work, which the allocations of a step cause.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start (cpu-ns/op).
func reportCPU(b *testing.B, start time.Duration, excluded time.Duration) {
	b.ReportMetric(float64(cpuTime()-start-excluded)/float64(b.N), "cpu-ns/op")
}

// analysisSteps are the analyses of analyse, in its order; a benchmark of
// one runs the steps before it outside the timer.
var analysisSteps = []struct {
	name string
	run  func(*Snapshot)
}{
	{"resolve", kept((*Snapshot).resolve)},
	{"checks", kept(func(s *Snapshot, out *findings) {
		s.checkEntrypoints(out)
		s.checkInstanceNames(out)
		s.checkBeans(out)
		s.checkTriggers(out)
	})},
	{"coverage", kept((*Snapshot).coverage)},
	{"alternatives", kept((*Snapshot).alternatives)},
	{"reachability", kept((*Snapshot).reachability)},
	{"workflows", func(s *Snapshot) { s.workflows(s.planWorkflows()) }},
	{"gating", kept(func(s *Snapshot, out *findings) { s.gating(out); s.programs(out) })},
	{"findings", func(s *Snapshot) { findings(s.Findings).sort(); s.attachFindings() }},
}

// kept runs an analysis and keeps its findings in the snapshot, as
// analyse does, so the findings step sorts as many as it does there.
func kept(run func(*Snapshot, *findings)) func(*Snapshot) {
	return func(s *Snapshot) {
		var out findings
		run(s, &out)
		s.Findings = append(s.Findings, out...)
	}
}

// benchEngine runs the engine benchmarks on the fixture of n skills:
// UpdateOneFile (one skill file's graph replaced: the shape is kept),
// UpdateAddedFile (one skill file added: a new shape), UpdateFromEmpty
// (every graph: a cold start's first snapshot), Build (index and
// analyses of the raws already read), each analysis alone, and the heap
// the snapshot holds.
func benchEngine(b *testing.B, n int) {
	f := engineSetup(b, n)
	update := func(name string, changes []graph.Change, shared bool, why string) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if n := f.before.Update(changes, f.version); (n.lk == f.before.lk) != shared {
					b.Fatal(why)
				}
			}
			reportCPU(b, start, 0)
		})
	}
	update("UpdateOneFile", f.changes, true, "an edited description changed the shape")
	update("UpdateAddedFile", f.added, false, "a new skill kept the shape")
	// A cold serve --corpus's first snapshot: the empty one updated with
	// every graph of the corpus.
	b.Run("UpdateFromEmpty", func(b *testing.B) {
		b.ReportAllocs()
		empty := link(nil, nil)
		empty.analyse()
		start := cpuTime()
		for b.Loop() {
			if n := empty.Update(f.first, 1); len(n.Skills) != len(f.before.Skills) {
				b.Fatalf("%d skills from the first ingest's changes, %d built", len(n.Skills), len(f.before.Skills))
			}
		}
		reportCPU(b, start, 0)
	})
	b.Run("Build", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			s := index(f.raws)
			s.analyse()
		}
		reportCPU(b, start, 0)
		b.ReportMetric(float64(f.heap)/(1<<20), "heap-MB")
	})
	for i, step := range analysisSteps {
		b.Run(step.name, func(b *testing.B) {
			b.ReportAllocs()
			var excluded time.Duration
			start := cpuTime()
			for b.Loop() {
				b.StopTimer()
				t0 := cpuTime()
				s := index(f.raws)
				for _, prev := range analysisSteps[:i] {
					prev.run(s)
				}
				runtime.GC() // the setup's garbage is not the step's to collect
				excluded += cpuTime() - t0
				b.StartTimer()
				step.run(s)
			}
			reportCPU(b, start, excluded)
		})
	}
}

// BenchmarkEngine1k is the engine benchmarks on a generated 1k-skill corpus.
//
//	go test -run '^$' -bench 'Engine1k' -benchtime 5x ./queries
func BenchmarkEngine1k(b *testing.B) { benchEngine(b, 1000) }

// BenchmarkEngine10k is the same at 10k skills (about 0.97M quads; the
// setup ingests for about a minute, once per process).
//
//	SKILLGRAPH_BENCH_LARGE=1 go test -run '^$' -bench 'Engine10k' -benchtime 3x -timeout 0 ./queries
func BenchmarkEngine10k(b *testing.B) { benchEngine(b, 10000) }
