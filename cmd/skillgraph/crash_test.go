package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
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
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/pipeline/ingest"
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

// memGraphs ingests root into a memory store and returns its graphs.
func memGraphs(t *testing.T, root string) map[string]string {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatal(err)
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
