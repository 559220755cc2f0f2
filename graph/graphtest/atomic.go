package graphtest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/backend"
)

// testReadersDuringApply flips one graph between two contents (each
// change larger than a batch of Cayley's kv writes) while readers — on a
// shared backend separate Stores, as separate processes would be — read
// it: every read must see one whole version of the graph.
func testReadersDuringApply(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	w := Open(t, url)
	n := backend.BatchSize/2 + 100 // delete n + add n: more than one batch
	if h.Slow {
		n = 400 // a database server never splits a graph's change; writes cost a round trip per row
	}
	content := func(tag string) []quad.Quad {
		out := make([]quad.Quad, n)
		for i := range out {
			out[i] = Q(fmt.Sprintf("urn:s%d", i), "urn:p", tag+fmt.Sprint(i), "")
		}
		return out
	}
	if _, err := w.Apply(ctx, []graph.Change{{Graph: "urn:g:flip", Quads: content("a")}}); err != nil {
		t.Fatal(err)
	}
	readers := []*graph.Store{w, w}
	if h.Shared {
		readers = []*graph.Store{Open(t, url), Open(t, url)}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, len(readers)*2)
	reads := make([]int, len(readers))
	for i, r := range readers {
		wg.Go(func() {
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
				time.Sleep(time.Millisecond) // leave the writer some of the cores
			}
		})
	}
	flips := 4
	for i := range flips {
		tag := []string{"b", "a"}[i%2]
		if _, err := w.Apply(ctx, []graph.Change{{Graph: "urn:g:flip", Quads: content(tag)}}); err != nil {
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

// testReadersSeeOneVersion: readers (in other processes' stores where the
// backend is shared) never see graphs of two versions at once, and the
// version they are told is the version of the data (issue 16.4: three
// PostgreSQL replicas at one version served three different graphs).
func testReadersSeeOneVersion(t *testing.T, h Harness) {
	ctx := context.Background()
	graphs, per := 30, 40
	if h.Slow {
		graphs, per = 12, 20
	}
	url := h.URL(t)
	w := Open(t, url)
	ApplyVersioned(t, w, graphs, per)
	readers := []*graph.Store{w}
	if h.Shared {
		readers = []*graph.Store{Open(t, url), Open(t, url)}
	}
	done := make(chan struct{})
	errs := make(chan error, len(readers))
	var wg sync.WaitGroup
	for _, r := range readers {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := CheckVersioned(ctx, r, graphs*per); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 5 {
		ApplyVersioned(t, w, graphs, per)
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// testFailedWrite: a write that fails part-way (a full disk) leaves the
// previous version's data, all of it, at the previous version — in this
// process and after a reopen — and the next ingest succeeds (issue 16.4:
// a disk-full ingest left new quads visible at the old version).
func testFailedWrite(t *testing.T, h Harness) {
	if !h.FailsWrites {
		t.Skip("the backend's writes cannot be failed half-way")
	}
	ctx := context.Background()
	for _, failAt := range []int{1, 50, 2000, 6000} {
		t.Run(fmt.Sprint(failAt), func(t *testing.T) {
			url := h.URL(t)
			hooks := &graph.Hooks{}
			s, err := graph.OpenWith(ctx, url, hooks)
			if err != nil {
				t.Fatal(err)
			}
			ApplyVersioned(t, s, 40, 100)
			puts := 0
			hooks.FailWrite = func() error {
				if puts++; puts >= failAt {
					return errors.New("no space left on device (injected)")
				}
				return nil
			}
			if _, err := s.Apply(ctx, Versioned(40, 100, 2)); err == nil {
				t.Fatalf("the write failed at put %d, yet Apply succeeded", failAt)
			}
			hooks.FailWrite = nil
			if v, err := CheckVersioned(ctx, s, 4000); err != nil || v != 1 {
				t.Fatalf("after the failed write: version %d, %v", v, err)
			}
			if v := ApplyVersioned(t, s, 40, 100); v != 2 {
				t.Fatalf("next ingest: version %d", v)
			}
			if !h.Persistent {
				s.Close()
				return
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = Open(t, url)
			if v, err := CheckVersioned(ctx, s, 4000); err != nil || v != 2 {
				t.Fatalf("reopened: version %d, %v", v, err)
			}
		})
	}
}

// testCancelledWrite: a context cancelled during the write phase rolls
// the whole ingest back.
func testCancelledWrite(t *testing.T, h Harness) {
	if !h.FailsWrites {
		t.Skip("the backend's writes cannot be stopped half-way")
	}
	hooks := &graph.Hooks{}
	s := OpenWith(t, h.URL(t), hooks)
	ApplyVersioned(t, s, 20, 50)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	hooks.FailWrite = func() error {
		if calls++; calls == 500 {
			cancel()
		}
		return nil
	}
	if _, err := s.Apply(ctx, Versioned(20, backend.BatchSize/10, 2)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Apply after cancel: %v", err)
	}
	hooks.FailWrite = nil
	if v, err := CheckVersioned(context.Background(), s, 1000); err != nil || v != 1 {
		t.Fatalf("version %d, %v", v, err)
	}
}

// testConcurrentWriters: writers never announce the same version, and no
// bump is lost (issue 16.4: two PostgreSQL writers both announced version
// 11) — two Stores of one shared backend (two processes), or two
// goroutines on one Store.
func testConcurrentWriters(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	a := Open(t, url)
	c := a
	if h.Shared {
		c = Open(t, url)
	}
	const rounds = 6
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for i, s := range []*graph.Store{a, c} {
		wg.Go(func() {
			for r := range rounds {
				v, err := s.Apply(ctx, []graph.Change{{Graph: fmt.Sprintf("urn:w:%d", i), Quads: []quad.Quad{
					Q("urn:s", "urn:p", fmt.Sprint(r), "")}}})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, v)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	for i, v := range got {
		if v != int64(i+1) {
			t.Fatalf("versions announced %v, want 1..%d each once", got, 2*rounds)
		}
	}
	if v, _ := a.Version(ctx); v != 2*rounds {
		t.Fatalf("final version %d, want %d", v, 2*rounds)
	}
}
