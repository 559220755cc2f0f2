package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// graphs returns every named graph of a store but the meta graph (the
// version counter) as its sorted N-Quads.
func graphs(t *testing.T, st *graph.Store) map[string]string {
	t.Helper()
	m := map[string][]string{}
	err := st.Each(context.Background(), func(q quad.Quad) error {
		l := quad.StringOf(q.Label)
		m[l] = append(m[l], graph.Normalize(q).NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	delete(m, "<"+graph.MetaGraph+">") // the version counter differs by design
	for l, qs := range m {
		sort.Strings(qs)
		out[l] = strings.Join(qs, "\n")
	}
	return out
}

// memGraphs ingests each root in turn into a memory store and returns its
// graphs.
func memGraphs(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, root := range roots {
		if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	return graphs(t, st)
}

// mutate edits a corpus in place so that most of its graphs change: every
// skill and bean gets a line, every tenth file is removed and new files
// appear.
func mutate(t *testing.T, root string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		switch {
		case strings.HasSuffix(p, ".md") && n%10 == 0:
			return os.Remove(p)
		case strings.HasSuffix(p, ".md"):
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f, "\nEdited %d `extra-%d`.\n", n, n)
			return errors2(err, f.Close())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		p := filepath.Join(root, "skills", "added", fmt.Sprintf("added-%d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "---\nname: added-%d\ndescription: new in version 2\n---\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func errors2(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// storeGraphs opens a bbolt store and returns its version and graphs, read
// both through the checkpoint and from the store's own indexes: they must
// agree (issue 14: checkpoint = full read).
func storeGraphs(t *testing.T, db string) (int64, map[string]string) {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "bbolt:"+db)
	if err != nil {
		t.Fatalf("store does not open: %v", err)
	}
	defer st.Close()
	snap, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	got := graphs(t, st)
	full := map[string][]string{}
	v, err := st.ReadStore(ctx, func(q quad.Quad) error {
		l := quad.StringOf(q.Label)
		full[l] = append(full[l], graph.Normalize(q).NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	delete(full, "<"+graph.MetaGraph+">")
	if v != snap.Version || len(full) != len(got) {
		t.Fatalf("the checkpoint (version %d, %d graphs) is not the store (version %d, %d graphs)", snap.Version, len(got), v, len(full))
	}
	for l, qs := range full {
		sort.Strings(qs)
		if strings.Join(qs, "\n") != got[l] {
			t.Fatalf("graph %s: the checkpoint differs from the store", l)
		}
	}
	return v, got
}

// versionHolds checks that a store at version v holds exactly the graphs of
// the corpus ingested as version v: want[l][0] at version 1, want[l][1] at
// version 2 (issue 16.4: version 1 served 3579..5982 skills of a mix).
// firstWriteHolds checks the store db after a first write was killed: it
// holds nothing at version 0, or the whole of version 1 (want).
func firstWriteHolds(t *testing.T, db string, want map[string][2]string, after string) {
	t.Helper()
	v, got := storeGraphs(t, db)
	switch {
	case v == 0 && len(got) == 0:
	case v == 1:
		versionHolds(t, v, got, want)
	default:
		t.Fatalf("version %d serves %d graphs after %s", v, len(got), after)
	}
	t.Logf("version %d, %d graphs after %s", v, len(got), after)
}

func versionHolds(t *testing.T, v int64, got map[string]string, want map[string][2]string) {
	t.Helper()
	if v != 1 && v != 2 {
		t.Fatalf("version %d, want 1 (the kill came first) or 2 (the ingest committed)", v)
	}
	bad := 0
	for l, w := range want {
		if got[l] != w[v-1] {
			if bad++; bad <= 3 {
				t.Errorf("version %d: graph %s is not the version's (%d quads; old %d, new %d)", v, l,
					strings.Count(got[l], "\n")+1, strings.Count(w[0], "\n")+1, strings.Count(w[1], "\n")+1)
			}
		}
	}
	for l := range got {
		if _, ok := want[l]; !ok {
			t.Errorf("unexpected graph %s", l)
		}
	}
	if bad > 0 {
		t.Fatalf("version %d: %d of %d graphs are not that version's", v, bad, len(want))
	}
}

// TestKillDuringIngest builds the binary, ingests a generated corpus into
// bbolt (version 1), then SIGKILLs a second ingest of an edited corpus at
// random moments of its run (parse, conversion, write, commit, checkpoint).
// Every time the store must open and serve exactly one version's data —
// version 1 and the old corpus, or version 2 and the new one — through the
// checkpoint and the store alike, and a plain re-ingest must finish the job.
func TestKillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and ingests a generated corpus several times")
	}
	tmp := t.TempDir()
	bin := skillgraphBinary(t)
	// The same directory name for both versions: one instance.
	oldRoot := filepath.Join(tmp, "old", "corpus")
	newRoot := filepath.Join(tmp, "new", "corpus")
	if _, err := gen.Write(oldRoot, gen.Options{Skills: 600, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	copyDir(t, oldRoot, newRoot)
	mutate(t, newRoot)
	want := map[string][2]string{} // graph → {old, new} N-Quads ("" absent)
	for i, root := range []string{oldRoot, newRoot} {
		for l, g := range memGraphs(t, root) {
			w := want[l]
			w[i] = g
			want[l] = w
		}
	}
	base := filepath.Join(tmp, "v1.db")
	if out, err := exec.Command(bin, "ingest", "--corpus", oldRoot, "--store", "bbolt:"+base).CombinedOutput(); err != nil {
		t.Fatalf("first ingest: %v\n%s", err, out)
	}
	// One uninterrupted second ingest: its length bounds the kill moments.
	full := filepath.Join(tmp, "v2.db")
	copyDir(t, base, full)
	start := time.Now()
	if out, err := exec.Command(bin, "ingest", "--corpus", newRoot, "--store", "bbolt:"+full).CombinedOutput(); err != nil {
		t.Fatalf("second ingest: %v\n%s", err, out)
	}
	took := time.Since(start)
	v, got := storeGraphs(t, full)
	versionHolds(t, v, got, want)
	// A first ingest killed part-way (it commits in steps, see graph's
	// writeKV) serves nothing at version 0, or all of version 1.
	t.Run("kill-first-ingest", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "g.db")
		cmd := exec.Command(bin, "ingest", "--corpus", oldRoot, "--store", "bbolt:"+db)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			t.Logf("the first ingest ended before the kill: %v", err)
		case <-time.After(took * 9 / 10):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			t.Logf("killed: %v", <-done)
		}
		firstWriteHolds(t, db, want, "a killed first ingest")
	})
	seed := time.Now().UnixNano()
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	t.Logf("%d graphs; the second ingest takes %v; kill moments seeded %d", len(want), took, seed)
	for i := range 5 {
		// The last kills land in the write and commit phase, at the end.
		delay := time.Duration(r.Int64N(int64(took)))
		if i >= 3 {
			delay = took - time.Duration(r.Int64N(int64(took/5)))
		}
		t.Run(fmt.Sprintf("kill-%d-after-%v", i, delay.Round(time.Millisecond)), func(t *testing.T) {
			// Cayley's bbolt store is a directory holding the database file.
			db := filepath.Join(t.TempDir(), "g.db")
			copyDir(t, base, db)
			cmd := exec.Command(bin, "ingest", "--corpus", newRoot, "--store", "bbolt:"+db)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				t.Logf("the ingest ended before the kill: %v", err)
			case <-time.After(delay):
				_ = cmd.Process.Signal(syscall.SIGKILL)
				t.Logf("killed: %v", <-done)
			}
			v, got := storeGraphs(t, db)
			versionHolds(t, v, got, want)
			t.Logf("version %d after the kill, all %d graphs that version's", v, len(want))
			if i != 4 {
				return
			}
			// A plain re-ingest finishes the job (checked once: slow under -race).
			ctx := context.Background()
			st, err := graph.Open(ctx, "bbolt:"+db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ingest.Run(ctx, st, []string{newRoot}, ingest.Options{}); err != nil {
				t.Fatal(err)
			}
			got = graphs(t, st)
			for l, w := range want {
				if got[l] != w[1] {
					t.Fatalf("after recovery graph %s differs from the new corpus", l)
				}
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDiskFullDuringIngest runs the second ingest with a file-size limit
// (RLIMIT_FSIZE, through prlimit) so that the store cannot grow: the ingest
// fails with exit 2, and the store serves version 1 with exactly version
// 1's data (issue 16.4: a disk-full ingest exited 2 yet left 88 512 new
// quads visible at the old version).
func TestDiskFullDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	tmp := t.TempDir()
	bin := skillgraphBinary(t)
	oldRoot := filepath.Join(tmp, "old", "corpus")
	newRoot := filepath.Join(tmp, "new", "corpus")
	if _, err := gen.Write(oldRoot, gen.Options{Skills: 100, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	copyDir(t, oldRoot, newRoot)
	mutate(t, newRoot)
	// Far more data in version 2 than the file has room for.
	if _, err := gen.Write(filepath.Join(newRoot, "skills", "more"), gen.Options{Skills: 300, Seed: 6}); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{}
	for l, g := range memGraphs(t, oldRoot) {
		want[l] = [2]string{g, ""}
	}
	db := filepath.Join(tmp, "g.db")
	if out, err := exec.Command(bin, "ingest", "--corpus", oldRoot, "--store", "bbolt:"+db).CombinedOutput(); err != nil {
		t.Fatalf("first ingest: %v\n%s", err, out)
	}
	info, err := os.Stat(filepath.Join(db, "indexes.bolt"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(prlimit, fmt.Sprintf("--fsize=%d", info.Size()), bin,
		"ingest", "--corpus", newRoot, "--store", "bbolt:"+db).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("an ingest that cannot grow the store: %v, want exit 2\n%s", err, out)
	}
	t.Logf("the ingest failed as it should: %s", strings.TrimSpace(string(out)))
	v, got := storeGraphs(t, db)
	if v != 1 {
		t.Fatalf("version %d after the failed ingest, want 1", v)
	}
	versionHolds(t, v, got, want)
}

// TestFailedIngestKeepsData: a file that no longer parses is a finding on
// that file and leaves every other file's data; an ingest that fails
// (cancelled) writes nothing.
func TestFailedIngestKeepsData(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 200, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(ctx, "bbolt:"+filepath.Join(tmp, "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	before := graphs(t, st)
	v1, _ := st.Version(ctx)

	// A cancelled ingest returns an error and changes nothing.
	mutate(t, root)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ingest.Run(cctx, st, []string{root}, ingest.Options{}); err == nil {
		t.Fatal("a cancelled ingest reported success")
	}
	if v, _ := st.Version(ctx); v != v1 {
		t.Fatalf("version moved from %d to %d on a failed ingest", v1, v)
	}
	after := graphs(t, st)
	if len(after) != len(before) {
		t.Fatalf("a failed ingest changed the store: %d graphs → %d", len(before), len(after))
	}
	for l, g := range before {
		if after[l] != g {
			t.Fatalf("a failed ingest changed graph %s", l)
		}
	}

	// A parser error in one file: a finding there, every other graph kept.
	var broken string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && broken == "" && !d.IsDir() && strings.HasSuffix(p, ".json") && strings.Contains(p, "tools") {
			broken = p
		}
		return nil
	})
	if broken == "" {
		t.Fatal("the generated corpus has no Tool JSON")
	}
	if err := os.WriteFile(broken, []byte(`{"id": "broken", "satisfies": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatalf("a parser error must be a finding, not an ingest error: %v", err)
	}
	snap, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, broken)
	found := false
	for _, f := range snap.Findings {
		found = found || (f.File == filepath.ToSlash(rel) && f.Code == "parse-error")
	}
	if !found {
		t.Fatalf("no parse-error on %s", rel)
	}
	want := memGraphs(t, root)
	got := graphs(t, st)
	for l, g := range want {
		if got[l] != g {
			t.Fatalf("graph %s differs from a fresh ingest of the same files", l)
		}
	}
	if len(snap.Skills) < 150 {
		t.Fatalf("only %d skills left after one broken file", len(snap.Skills))
	}
}

// urlGraphs opens the store at url and returns its version and graphs.
func urlGraphs(t *testing.T, url string) (int64, map[string]string) {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatalf("store does not open: %v", err)
	}
	defer st.Close()
	v, err := st.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return v, graphs(t, st)
}

// killAt runs bin with args and SIGKILLs it after delay, unless it ends
// first.
func killAt(t *testing.T, bin string, delay time.Duration, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Logf("%s ended before the kill: %v", args[0], err)
	case <-time.After(delay):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
}

// TestKillFirstWriteLeavesNothing: the first write into a new store — an
// ingest, or an import of an export — SIGKILLed at ten moments of its run,
// then another corpus written to the same store: the store holds exactly
// what a fresh ingest of that corpus holds, quad for quad (issue 28.4:
// 16–253 quads of the killed corpus were served for good, and a re-ingest
// of the killed corpus said "0 changed"), for bbolt and PostgreSQL.
func TestKillFirstWriteLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and ingests generated corpora many times")
	}
	tmp := t.TempDir()
	bin := skillgraphBinary(t)
	// Two corpora of different instances (folder names): nothing of the
	// killed one is replaced by the next.
	killed := filepath.Join(tmp, "killed")
	next := filepath.Join(tmp, "next")
	// Large enough that a first write commits several steps (see
	// graph/backend/bolt writeKV) before its last transaction.
	if _, err := gen.Write(killed, gen.Options{Skills: 300, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(next, gen.Options{Skills: 100, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	want := memGraphs(t, next)
	wantKilled := memGraphs(t, killed)
	// A kill that came after the commit leaves version 1 of the killed
	// corpus, which the next ingest then replaces (instance-replaced).
	wantAfter := memGraphs(t, killed, next)
	exports := map[string]string{}
	for name, root := range map[string]string{"killed": killed, "next": next} {
		p := filepath.Join(tmp, name+".nq")
		out, err := exec.Command(bin, "export", "--corpus", root, "--format", "nquads").Output()
		if err != nil {
			t.Fatalf("export %s: %v", name, err)
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		exports[name] = p
	}
	type write struct {
		name       string
		killed     func(url string) []string // the command line killed
		next       func(url string) []string
		wantKilled bool // the next write is the killed one again
	}
	writes := []write{
		{"ingest", func(u string) []string { return []string{"ingest", "--corpus", killed, "--store", u} },
			func(u string) []string { return []string{"ingest", "--corpus", next, "--store", u} }, false},
		{"ingest-again", func(u string) []string { return []string{"ingest", "--corpus", killed, "--store", u} },
			func(u string) []string { return []string{"ingest", "--corpus", killed, "--store", u} }, true},
		{"import", func(u string) []string { return []string{"import", exports["killed"], "--store", u} },
			func(u string) []string { return []string{"import", exports["next"], "--store", u} }, false},
	}
	backends := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"bbolt", func(t *testing.T) string { return "bbolt:" + filepath.Join(t.TempDir(), "g.db") }},
		{"postgres", func(t *testing.T) string { return "postgres:" + pgtest.Scratch(t) }},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, w := range writes {
				t.Run(w.name, func(t *testing.T) {
					// One uninterrupted run: its length spreads the kills.
					start := time.Now()
					if out, err := exec.Command(bin, w.killed(b.url(t))...).CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", w.name, err, out)
					}
					took := time.Since(start)
					t.Logf("an uninterrupted %s takes %v", w.name, took.Round(time.Millisecond))
					points := 10 // the row's ten kill points; three more per other write
					if w.name != "ingest" {
						points = 3
					}
					for i := 1; i <= points; i++ {
						delay := took * time.Duration(i) / time.Duration(points+1)
						t.Run(fmt.Sprintf("kill-at-%v", delay.Round(time.Millisecond)), func(t *testing.T) {
							url := b.url(t)
							killAt(t, bin, delay, w.killed(url)...)
							killedV, _ := urlGraphs(t, url)
							t.Logf("version %d after the kill", killedV)
							if out, err := exec.Command(bin, w.next(url)...).CombinedOutput(); err != nil {
								t.Fatalf("the next write: %v\n%s", err, out)
							}
							v, got := urlGraphs(t, url)
							expect := want
							switch {
							case w.wantKilled:
								expect = wantKilled
							case killedV == 1 && w.name == "ingest":
								expect = wantAfter
							}
							if v < 1 {
								t.Fatalf("version %d after the next write", v)
							}
							bad := 0
							for l, g := range expect {
								if got[l] != g {
									bad++
								}
							}
							for l := range got {
								if _, ok := expect[l]; !ok {
									bad++
								}
							}
							if bad > 0 {
								t.Fatalf("version %d: %d graphs differ from a fresh write (%d graphs, want %d)", v, bad, len(got), len(expect))
							}
						})
					}
				})
			}
		})
	}
}

// TestSIGTERMDuringLongWork sends SIGTERM to check, export, ingest, import and
// serve at moments spread over their run on a large generated corpus:
// each stops within two seconds, and the store is as the kill tests
// require (nothing at version 0, or a whole version) (issue 28: SIGTERM
// was ignored for over 90 s).
func TestSIGTERMDuringLongWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and ingests a generated corpus")
	}
	tmp := t.TempDir()
	bin := skillgraphBinary(t)
	root := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 600, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	export := filepath.Join(tmp, "export.nq")
	out, err := exec.Command(bin, "export", "--corpus", root, "--format", "nquads").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	if err := os.WriteFile(export, out, 0o644); err != nil {
		t.Fatal(err)
	}
	want := memGraphs(t, root)
	commands := []struct {
		name string
		args func(db string) []string
	}{
		{"check", func(string) []string { return []string{"check", "--corpus", root} }},
		// Streamed as it is converted: the windows' converters and the
		// writer of the lines stop too.
		{"export", func(string) []string { return []string{"export", "--corpus", root} }},
		{"ingest", func(db string) []string { return []string{"ingest", "--corpus", root, "--store", "bbolt:" + db} }},
		{"import", func(db string) []string { return []string{"import", export, "--store", "bbolt:" + db} }},
		{"serve", func(db string) []string {
			return []string{"serve", "--corpus", root, "--store", "bbolt:" + db, "--addr", "127.0.0.1:0"}
		}},
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			// An uninterrupted run (serve: until it is ready) spreads the
			// signals over the work.
			db := filepath.Join(t.TempDir(), "g.db")
			start := time.Now()
			if c.name == "serve" {
				took := serveUntilReady(t, bin, c.args(db))
				t.Logf("serve is ready after %v", took)
				start = time.Now().Add(-took)
			} else if out, err := exec.Command(bin, c.args(db)...).CombinedOutput(); err != nil && c.name != "check" {
				t.Fatalf("%s: %v\n%s", c.name, err, out)
			}
			took := time.Since(start)
			for i := 1; i <= 3; i++ {
				delay := took * time.Duration(i) / 4
				t.Run(fmt.Sprintf("term-at-%v", delay.Round(time.Millisecond)), func(t *testing.T) {
					db := filepath.Join(t.TempDir(), "g.db")
					cmd := exec.Command(bin, c.args(db)...)
					var stdout, stderr strings.Builder
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					done := make(chan error, 1)
					go func() { done <- cmd.Wait() }()
					select {
					case err := <-done:
						t.Logf("%s ended before the signal: %v", c.name, err)
						return
					case <-time.After(delay):
					}
					_ = cmd.Process.Signal(syscall.SIGTERM)
					sent := time.Now()
					select {
					case err := <-done:
						t.Logf("%s stopped %v after SIGTERM: %v", c.name, time.Since(sent).Round(time.Millisecond), err)
					case <-time.After(2 * time.Second):
						_ = cmd.Process.Kill()
						<-done
						t.Fatalf("%s still running 2 s after SIGTERM\n%.2000s", c.name, stderr.String())
					}
					for _, bad := range []string{"panic:", "fatal error"} {
						if strings.Contains(stderr.String(), bad) {
							t.Fatalf("%s crashed on SIGTERM:\n%.2000s", c.name, stderr.String())
						}
					}
					if out := stdout.String(); c.name == "export" && out != "" && !strings.HasSuffix(out, "\n") {
						t.Fatalf("export stopped in the middle of a line (%d bytes printed)", len(out))
					}
					if c.name == "check" || c.name == "export" {
						return // no store
					}
					v, got := urlGraphs(t, "bbolt:"+db)
					switch {
					case v == 0 && len(got) == 0:
					case v == 1 && c.name != "import":
						for l, g := range want {
							if got[l] != g {
								t.Fatalf("version 1 after SIGTERM: graph %s is not the corpus's", l)
							}
						}
					case v == 1: // an import holds the export's graphs
						if len(got) != len(want) {
							t.Fatalf("version 1 after SIGTERM: %d graphs, want %d", len(got), len(want))
						}
					default:
						t.Fatalf("version %d with %d graphs after SIGTERM", v, len(got))
					}
				})
			}
		})
	}
}

// serveUntilReady runs serve until /readyz says ready and durable, then
// stops it, and returns how long that took.
func serveUntilReady(t *testing.T, bin string, args []string) time.Duration {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var addr string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
			addr, _, _ = strings.Cut(rest, "/")
			break
		}
	}
	if addr == "" {
		t.Fatal("serve never said where it listens")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			continue
		}
		var rd struct{ Ready, Durable bool }
		_ = json.NewDecoder(resp.Body).Decode(&rd)
		resp.Body.Close()
		if rd.Ready && rd.Durable {
			return time.Since(start)
		}
	}
	t.Fatal("serve never became ready and durable")
	return 0
}
