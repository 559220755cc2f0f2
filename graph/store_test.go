package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/pgtest"
)

func q(s, p, o, g string) quad.Quad {
	return quad.Quad{Subject: quad.IRI(s), Predicate: quad.IRI(p), Object: quad.String(o), Label: quad.IRI(g)}
}

// backend is one store backend under test; url is a fresh, empty store.
type backend struct {
	name       string
	url        string
	persistent bool // survives Close and Open
	shared     bool // may be opened by several Stores at once (as several processes would)
}

// forEachBackend runs fn against a fresh store URL of every backend: memory,
// bbolt and, with SKILLGRAPH_TEST_POSTGRES set, PostgreSQL (a database of
// its own per test, dropped afterwards). With SKILLGRAPH_REQUIRE_POSTGRES=1
// a missing or unreachable PostgreSQL fails the test instead of skipping.
func forEachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Run("memory", func(t *testing.T) { fn(t, backend{name: "memory", url: "memory"}) })
	t.Run("bbolt", func(t *testing.T) {
		fn(t, backend{name: "bbolt", url: "bbolt:" + filepath.Join(t.TempDir(), "sub", "g.db"), persistent: true})
	})
	t.Run("postgres", func(t *testing.T) {
		fn(t, backend{name: "postgres", url: "postgres:" + pgtest.Scratch(t), persistent: true, shared: true})
	})
}

func open(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func count(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	if err := s.Each(context.Background(), func(quad.Quad) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestApplyReplacesExactlyOneGraph(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		s := open(t, b.url)
		v, err := s.Apply(ctx, []Change{
			{Graph: "urn:g:a", Quads: []quad.Quad{q("urn:a", "urn:p", "1", ""), q("urn:a", "urn:p", "2", "")}},
			{Graph: "urn:g:b", Quads: []quad.Quad{q("urn:b", "urn:p", "1", "")}},
		})
		if err != nil || v != 1 {
			t.Fatalf("apply: v=%d err=%v", v, err)
		}
		v, err = s.Apply(ctx, []Change{{Graph: "urn:g:a", Quads: []quad.Quad{q("urn:a", "urn:p", "2", ""), q("urn:a", "urn:p", "3", "")}}})
		if err != nil || v != 2 {
			t.Fatalf("apply 2: v=%d err=%v", v, err)
		}
		a, _ := s.GraphQuads(ctx, "urn:g:a")
		bq, _ := s.GraphQuads(ctx, "urn:g:b")
		if len(a) != 2 || len(bq) != 1 {
			t.Fatalf("graph a has %d quads (want 2), b %d (want 1)", len(a), len(bq))
		}
		got := map[string]bool{}
		for _, x := range a {
			got[literalString(x.Object)] = true
		}
		if !got["2"] || !got["3"] || got["1"] {
			t.Fatalf("graph a = %v", got)
		}
		if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:b", Delete: true}}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, s); n != 3 { // two in a, the version quad
			t.Fatalf("store holds %d quads, want 3", n)
		}
		if bq, _ := s.GraphQuads(ctx, "urn:g:b"); len(bq) != 0 {
			t.Fatalf("deleted graph b still has %d quads", len(bq))
		}
		if v, _ := s.Version(ctx); v != 3 {
			t.Fatalf("version %d, want 3", v)
		}
	})
}

func TestVersionCounter(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		s := open(t, b.url)
		if v, err := s.Version(ctx); err != nil || v != 0 {
			t.Fatalf("new store: version %d, err %v", v, err)
		}
		for i := int64(1); i <= 12; i++ { // past 9: the counter is an integer, not a string
			v, err := s.Apply(ctx, []Change{{Graph: "urn:g:a", Quads: []quad.Quad{q("urn:a", "urn:p", fmt.Sprint(i%2), "")}}})
			if err != nil || v != i {
				t.Fatalf("apply %d: v=%d err=%v", i, v, err)
			}
			if got, _ := s.Version(ctx); got != i {
				t.Fatalf("Version after apply %d = %d", i, got)
			}
		}
		if v, err := s.Apply(ctx, nil); err != nil || v != 13 { // an ingest without changes still commits
			t.Fatalf("empty apply: v=%d err=%v", v, err)
		}
		meta, _ := s.GraphQuads(ctx, MetaGraph)
		if len(meta) != 1 {
			t.Fatalf("meta graph holds %d quads, want the one version quad: %v", len(meta), meta)
		}
		if b.shared { // another process sees the same counter
			if v, _ := open(t, b.url).Version(ctx); v != 13 {
				t.Fatalf("second store sees version %d, want 13", v)
			}
		}
	})
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		if !b.persistent {
			t.Skip("not persistent")
		}
		s, err := Open(ctx, b.url)
		if err != nil {
			t.Fatal(err)
		}
		want := []quad.Quad{q("urn:a", "urn:p", "1", "urn:g:a"), q("urn:a", "urn:p", "2", "urn:g:a")}
		if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:a", Quads: want}}); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t, b.url) // and the schema initialisation tolerates what exists
		if v, _ := s.Version(ctx); v != 1 {
			t.Fatalf("version after reopen = %d", v)
		}
		got, err := s.GraphQuads(ctx, "urn:g:a")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sortedNQuads(got), sortedNQuads(want)) {
			t.Fatalf("after reopen graph a = %v, want %v", sortedNQuads(got), sortedNQuads(want))
		}
	})
}

func sortedNQuads(qs []quad.Quad) []string {
	out := make([]string, 0, len(qs))
	for _, x := range qs {
		out = append(out, Normalize(x).NQuad())
	}
	slices.Sort(out)
	return out
}

func TestNQuadsRoundTrip(t *testing.T) {
	ctx := context.Background()
	const xsd = "http://www.w3.org/2001/XMLSchema#"
	g := "urn:g:typed"
	in := []quad.Quad{
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:int"), Object: quad.TypedString{Value: "42", Type: xsd + "integer"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:bool"), Object: quad.TypedString{Value: "true", Type: xsd + "boolean"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:dt"), Object: quad.TypedString{Value: "2024-07-06T18:10:42.123456789Z", Type: xsd + "dateTime"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:dec"), Object: quad.TypedString{Value: "1.50", Type: xsd + "decimal"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:json"), Object: quad.TypedString{Value: `{"a":[1,2]}`, Type: "http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:custom"), Object: quad.TypedString{Value: "x", Type: "https://w3id.org/skillgraph/ns#Custom"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:lang"), Object: quad.LangString{Value: "Grüße", Lang: "de"}},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:str"), Object: quad.String("line 1\nline \"2\"\t\\ ✓ 🚀")},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:empty"), Object: quad.String("")},
		{Subject: quad.BNode("b0"), Predicate: quad.IRI("urn:iri"), Object: quad.IRI("https://example.com/a?b=c#d")},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:native-int"), Object: quad.Int(-7)},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:native-bool"), Object: quad.Bool(false)},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:native-float"), Object: quad.Float(0.1)},
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		s := open(t, b.url)
		if _, err := s.Apply(ctx, []Change{{Graph: g, Quads: in}}); err != nil {
			t.Fatal(err)
		}
		want := make([]quad.Quad, len(in))
		for i, x := range in {
			x.Label = quad.IRI(g)
			want[i] = x
		}
		got, err := s.GraphQuads(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if a, w := sortedNQuads(got), sortedNQuads(want); !slices.Equal(a, w) {
			t.Fatalf("round trip differs:\n got %s\nwant %s", strings.Join(a, "\n     "), strings.Join(w, "\n     "))
		}
		var buf strings.Builder
		if _, err := s.WriteNQuads(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		slices.Sort(lines)
		if w := sortedNQuads(want); !slices.Equal(lines, w) {
			t.Fatalf("WriteNQuads differs:\n got %s\nwant %s", strings.Join(lines, "\n     "), strings.Join(w, "\n     "))
		}
		// Subject and Each agree with GraphQuads.
		if sub, _ := s.Subject(ctx, "urn:s"); len(sub) != len(in)-1 {
			t.Fatalf("Subject(urn:s) = %d quads, want %d", len(sub), len(in)-1)
		}
	})
}

// TestShrinkingGraph replaces a graph with fewer, partly new quads: on
// Cayley's kv backends a batch in which the label loses more quads than it
// gains used to store the added quads in no graph at all.
func TestShrinkingGraph(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		s := open(t, b.url)
		var old, next []quad.Quad
		for i := range 10 {
			old = append(old, q("urn:s", "urn:p", fmt.Sprint(i), ""))
		}
		next = append(next, old[0], q("urn:s", "urn:p", "new1", ""), q("urn:t", "urn:q", "new2", ""))
		for _, c := range [][]quad.Quad{old, next} {
			if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:shrink", Quads: c}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.GraphQuads(ctx, "urn:g:shrink")
		if err != nil {
			t.Fatal(err)
		}
		if a, w := sortedNQuads(got), sortedNQuads(withLabel(next, "urn:g:shrink")); !slices.Equal(a, w) {
			t.Fatalf("graph = %v, want %v", a, w)
		}
		if n := count(t, s); n != len(next)+1 {
			t.Fatalf("store holds %d quads, want %d (graph + version)", n, len(next)+1)
		}
	})
}

// TestLargeGraph writes one graph far larger than one bbolt batch and
// replaces half of it.
func TestLargeGraph(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		s := open(t, b.url)
		const n = 3 * batchSize / 2
		mk := func(gen int) []quad.Quad {
			out := make([]quad.Quad, n)
			for i := range out {
				o := fmt.Sprintf("v%d", i)
				if i%2 == 1 {
					o = fmt.Sprintf("v%d-gen%d", i, gen)
				}
				out[i] = q(fmt.Sprintf("urn:s%d", i), "urn:p", o, "")
			}
			return out
		}
		for gen := range 2 {
			if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:big", Quads: mk(gen)}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.GraphQuads(ctx, "urn:g:big")
		if err != nil {
			t.Fatal(err)
		}
		if a, w := sortedNQuads(got), sortedNQuads(withLabel(mk(1), "urn:g:big")); !slices.Equal(a, w) {
			t.Fatalf("big graph: %d quads, want %d (or different content)", len(a), len(w))
		}
	})
}

func withLabel(qs []quad.Quad, g string) []quad.Quad {
	for i := range qs {
		qs[i].Label = quad.IRI(g)
	}
	return qs
}

// TestConcurrentReadersDuringApply flips one graph between two contents
// (each change larger than a bbolt batch) while readers — on PostgreSQL
// separate Stores, as separate processes would be — read it: every read
// must see one whole version of the graph.
func TestConcurrentReadersDuringApply(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		w := open(t, b.url)
		n := batchSize/2 + 100 // delete n + add n: more than one bbolt batch
		if b.name == "postgres" {
			n = 400 // the SQL backends never split a graph's change; writes cost a round trip per row
		}
		content := func(tag string) []quad.Quad {
			out := make([]quad.Quad, n)
			for i := range out {
				out[i] = q(fmt.Sprintf("urn:s%d", i), "urn:p", tag+fmt.Sprint(i), "")
			}
			return out
		}
		if _, err := w.Apply(ctx, []Change{{Graph: "urn:g:flip", Quads: content("a")}}); err != nil {
			t.Fatal(err)
		}
		readers := []*Store{w, w}
		if b.shared {
			readers = []*Store{open(t, b.url), open(t, b.url)}
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		errs := make(chan error, len(readers)*2)
		reads := make([]int, len(readers))
		for i, r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					got, err := r.GraphQuads(ctx, "urn:g:flip")
					if err != nil {
						errs <- err
						return
					}
					if err := wholeGraph(got, n); err != nil {
						errs <- err
						return
					}
					// The Each path must be just as consistent.
					var all []quad.Quad
					if err := r.Each(ctx, func(x quad.Quad) error {
						if x.Label == quad.IRI("urn:g:flip") {
							all = append(all, x)
						}
						return nil
					}); err != nil {
						errs <- err
						return
					}
					if err := wholeGraph(all, n); err != nil {
						errs <- fmt.Errorf("Each: %w", err)
						return
					}
					reads[i]++
					time.Sleep(time.Millisecond) // leave the writer some of the 2 cores
				}
			}()
		}
		flips := 4
		for i := range flips {
			tag := []string{"b", "a"}[i%2]
			if _, err := w.Apply(ctx, []Change{{Graph: "urn:g:flip", Quads: content(tag)}}); err != nil {
				t.Fatal(err)
			}
		}
		close(done)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		t.Logf("%d flips, reads per reader %v", flips, reads)
	})
}

// wholeGraph checks that qs is exactly one of the flip test's contents.
func wholeGraph(qs []quad.Quad, n int) error {
	if len(qs) != n {
		return fmt.Errorf("torn read: %d quads, want %d", len(qs), n)
	}
	tags := map[byte]int{}
	for _, x := range qs {
		s, ok := x.Object.(quad.String)
		if !ok || len(s) == 0 {
			return fmt.Errorf("torn read: object %#v", x.Object)
		}
		tags[s[0]]++
	}
	if len(tags) != 1 {
		return fmt.Errorf("torn read: mixed contents %v", tags)
	}
	return nil
}

func TestOpenUnknownBackend(t *testing.T) {
	for _, url := range []string{"redis:x", "bbolt:", "postgres:", "cockroach:"} {
		if _, err := Open(context.Background(), url); err == nil {
			t.Errorf("Open(%q): want an error", url)
		}
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Port 1 on loopback: refused at once, no network beyond this machine.
	_, err := Open(ctx, "postgres:postgres://sg:secret@127.0.0.1:1/x?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("want an error for an unreachable database")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatalf("error leaks the password: %v", err)
	}
}

// TestBboltBusyFailsFast: a second process on an open bbolt store gets a
// clear error at once instead of waiting forever on the file lock.
func TestBboltBusyFailsFast(t *testing.T) {
	if os.Getenv("SKILLGRAPH_LOCK_CHILD") != "" {
		st, err := Open(context.Background(), "bbolt:"+os.Getenv("SKILLGRAPH_LOCK_CHILD"))
		if err == nil {
			st.Close()
			os.Exit(0)
		}
		if !strings.Contains(err.Error(), "in use by another process") {
			os.Exit(3)
		}
		// The holder is the parent test process: the message names it.
		if !strings.Contains(err.Error(), fmt.Sprintf("held by pid %d", os.Getppid())) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(5)
		}
		os.Exit(4)
	}
	dir := filepath.Join(t.TempDir(), "g.db")
	st, err := Open(context.Background(), "bbolt:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBboltBusyFailsFast$")
	cmd.Env = append(os.Environ(), "SKILLGRAPH_LOCK_CHILD="+dir)
	done := make(chan error, 1)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 4 {
			t.Fatalf("child: %v, want exit 4 (busy error)", err)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("opening a busy store hung")
	}
}
