package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/jsonld"
)

// readStore is every quad Read serves, sorted, and the version.
func readStore(t *testing.T, st *graph.Store) (int64, []string) {
	t.Helper()
	var out []string
	v, err := st.Read(context.Background(), func(q quad.Quad) error {
		out = append(out, q.NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return v, out
}

// genCorpus writes a generated corpus of n skills into a new temporary
// directory.
func genCorpus(t *testing.T, n int, seed int64) string {
	t.Helper()
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: n, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestStreamedFirstIngest: Run writes the first ingest into an empty bbolt
// store while it converts (graph.FirstWriter). It stores what Prepare then
// Apply store; stopped mid-stream, after some of its quads were committed
// (a cancel, or a file's JSON-LD conversion failing), it reports why,
// leaves version 0, serves nothing and records no stamp, and the next Run
// writes it all.
func TestStreamedFirstIngest(t *testing.T) {
	defer func(n int) { streamWindow = n }(streamWindow)
	streamWindow = 16 // several windows, so the write runs while converting
	root := genCorpus(t, 200, 5)
	ctx := context.Background()
	openStore := func(t *testing.T) *graph.Store { return openBackend(t, "bbolt") }
	// The reference: the sequential path.
	ref := openStore(t)
	p, err := Prepare(ctx, ref, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.first != nil {
		t.Fatal("Prepare streamed the write (serve --corpus builds its snapshot from a prepared ingest)")
	}
	// The graph whose conversion fails: the last in the order of the
	// write, so in the last window, held until a step is committed.
	failing := p.changes[len(p.changes)-1].Graph
	windows := (len(p.changes) + streamWindow - 1) / streamWindow
	_, failingPath, _ := strings.Cut(failing, "#source/")
	if _, err := p.Apply(ctx, ref); err != nil {
		t.Fatal(err)
	}
	_, want := readStore(t, ref)
	errConvert := errors.New("json-ld to rdf: injected failure")

	tests := []struct {
		name string
		// stop, called after each window handed to the write, returns the
		// error that stops the ingest there (nil: go on).
		stop func(w *graph.FirstWriter) error
		// fail: the conversion of the graph failing fails as json-gold's
		// failures do (Conversion.Err), once a step is committed.
		fail    bool
		wantErr error
	}{
		{"complete", func(*graph.FirstWriter) error { return nil }, false, nil},
		{"cancelled", func(w *graph.FirstWriter) error {
			if w.Steps() > 0 {
				return context.Canceled
			}
			return nil
		}, false, context.Canceled},
		{"a conversion fails", func(*graph.FirstWriter) error { return nil }, true, errConvert},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			c, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			written, stoppedAfterSteps := 0, false
			// proceed is closed once a step is committed, or once every
			// window but the last (the failing graph's) is written.
			proceed, once := make(chan struct{}), sync.Once{}
			var steps atomic.Int64
			streamWritten = func(w *graph.FirstWriter) {
				written++
				steps.Store(int64(w.Steps()))
				if w.Steps() > 0 || written == windows-1 {
					once.Do(func() { close(proceed) })
				}
				if err := tt.stop(w); err != nil && !stoppedAfterSteps {
					stoppedAfterSteps = true
					cancel(err)
				}
			}
			defer func() { streamWritten = nil }()
			if tt.fail {
				toQuadsBatch = func(cs []jsonld.Conversion) {
					jsonld.ToQuadsBatch(cs)
					for i := range cs {
						if cs[i].Graph == failing {
							<-proceed
							cs[i].Quads, cs[i].Err = nil, errConvert
						}
					}
				}
				defer func() { toQuadsBatch = jsonld.ToQuadsBatch }()
			}
			// Two workers: while one holds the failing graph's batch, the
			// other converts the rest.
			res, err := Run(c, st, []string{root}, Options{Workers: 2})
			if tt.fail {
				stoppedAfterSteps = steps.Load() > 0
			}
			if written < 2 {
				t.Fatalf("%d windows written while converting: the write did not stream", written)
			}
			if tt.wantErr == nil {
				if err != nil || res.Version != 1 {
					t.Fatalf("Run: version %d, %v", res.Version, err)
				}
				if _, got := readStore(t, st); !slices.Equal(got, want) {
					t.Fatalf("streamed first ingest stored %d quads, Prepare+Apply %d", len(got), len(want))
				}
				return
			}
			if !stoppedAfterSteps {
				t.Fatal("no step was committed before the stop: the test covers nothing")
			}
			switch {
			case err == nil || res.Version != 0:
				t.Fatalf("Run stopped mid-stream: version %d, no error", res.Version)
			case tt.fail && (!errors.Is(err, errConvert) || !strings.Contains(err.Error(), failingPath)):
				t.Fatalf("Run with a failing conversion: %v; want %v, naming %s", err, errConvert, failingPath)
			case !tt.fail && !errors.Is(context.Cause(c), tt.wantErr):
				t.Fatalf("Run stopped mid-stream: %v (cause %v)", err, context.Cause(c))
			}
			if v, got := readStore(t, st); v != 0 || len(got) != 0 {
				t.Fatalf("after the stopped ingest: version %d, %d quads served", v, len(got))
			}
			if stamps, err := st.Stamps(ctx); err != nil || len(stamps) != 0 {
				t.Fatalf("after the stopped ingest: %d stamps recorded (%v)", len(stamps), err)
			}
			streamWritten, toQuadsBatch = nil, jsonld.ToQuadsBatch // the failure was transient
			res, err = Run(ctx, st, []string{root}, Options{})
			if err != nil || res.Version != 1 {
				t.Fatalf("next Run: version %d, %v", res.Version, err)
			}
			if _, got := readStore(t, st); !slices.Equal(got, want) {
				t.Fatalf("next Run stored %d quads, Prepare+Apply %d", len(got), len(want))
			}
		})
	}
}

// TestPreparedFirstWriteDropsQuads: Apply of a prepared first ingest into
// an empty bbolt store (`serve --corpus` on a new store) writes through
// graph.FirstWriter and drops every change's quads as it goes, so the
// cold start does not hold them beside its early snapshot for the whole
// write; what it stores is what one graph.Apply of the same changes
// stores. An Apply onto a store that holds a version keeps its changes
// (the served snapshot is updated from them).
func TestPreparedFirstWriteDropsQuads(t *testing.T) {
	defer func(n int) { streamWindow = n }(streamWindow)
	streamWindow = 16 // several windows
	root := genCorpus(t, 100, 9)
	ctx := context.Background()
	openStore := func(t *testing.T) *graph.Store { return openBackend(t, "bbolt") }
	// The reference: the same changes in one graph.Apply.
	ref := openStore(t)
	pr, err := Prepare(ctx, ref, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ref.Apply(ctx, pr.Changes()); err != nil || v != 1 {
		t.Fatalf("reference Apply: version %d, %v", v, err)
	}
	_, want := readStore(t, ref)

	st := openStore(t)
	p, err := Prepare(ctx, st, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	quads := 0
	for _, c := range p.Changes() {
		quads += len(c.Quads)
	}
	if quads == 0 || len(p.Changes()) < 2*streamWindow {
		t.Fatalf("%d changes, %d quads: the test covers nothing", len(p.Changes()), quads)
	}
	res, err := p.Apply(ctx, st)
	if err != nil || res.Version != 1 {
		t.Fatalf("Apply: version %d, %v", res.Version, err)
	}
	if res.Changes != nil || res.Quads != quads {
		t.Fatalf("Apply returned %d changes and counted %d quads, want none (dropped) and %d", len(res.Changes), res.Quads, quads)
	}
	for _, c := range p.Changes() {
		if c.Quads != nil {
			t.Fatalf("graph %s still holds its %d quads after the write", c.Graph, len(c.Quads))
		}
	}
	if _, got := readStore(t, st); !slices.Equal(got, want) {
		t.Fatalf("the first write stored %d quads, graph.Apply %d", len(got), len(want))
	}
	if !st.CheckpointCurrent(ctx) {
		t.Fatal("no current checkpoint after the first write")
	}

	// A second ingest of a changed file onto version 1 keeps its changes.
	skills, err := filepath.Glob(filepath.Join(root, "skills", "*", "*.md"))
	if err != nil || len(skills) == 0 {
		t.Fatalf("no skill file to edit: %v", err)
	}
	f, err := os.OpenFile(skills[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\nEdited.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	p, err = Prepare(ctx, st, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err = p.Apply(ctx, st)
	if err != nil || res.Version != 2 || len(res.Changes) == 0 || len(res.Changes[0].Quads) == 0 {
		t.Fatalf("second Apply: version %d, %d changes, %v", res.Version, len(res.Changes), err)
	}
}

// TestStreamedIngestBoundsLead: a streamed first ingest converts at most
// streamLead windows ahead of the store write, so a large corpus's quads
// are never all held while the (slower) write catches up (issue #27: the
// 100k ingest's peak). The write is held at its first window for a while,
// time for a conversion that does not wait to convert everything
// (TestStreamedFirstIngest checks what is stored).
func TestStreamedIngestBoundsLead(t *testing.T) {
	defer func(n int) { streamWindow = n }(streamWindow)
	streamWindow = 16
	root := genCorpus(t, 200, 5)
	var converted atomic.Int64
	toQuadsBatch = func(cs []jsonld.Conversion) {
		jsonld.ToQuadsBatch(cs)
		converted.Add(int64(len(cs)))
	}
	defer func() { toQuadsBatch = jsonld.ToQuadsBatch }()
	written, most := 0, int64(0)
	streamWritten = func(*graph.FirstWriter) {
		written++
		if written == 1 {
			// Hold the write: an unbounded conversion runs to the end
			// meanwhile (a few ms for this corpus).
			for i := 0; i < 50 && converted.Load() < int64((streamLead+2)*streamWindow); i++ {
				time.Sleep(10 * time.Millisecond)
			}
		}
		most = max(most, converted.Load()-int64(written*streamWindow))
	}
	defer func() { streamWritten = nil }()
	st := openBackend(t, "bbolt")
	res, err := Run(context.Background(), st, []string{root}, Options{Workers: 2})
	if err != nil || res.Version != 1 {
		t.Fatalf("Run: version %d, %v", res.Version, err)
	}
	if windows := (res.Changed + streamWindow - 1) / streamWindow; written != windows || windows < streamLead+3 {
		t.Fatalf("%d of %d windows written: the test covers nothing", written, windows)
	}
	if limit := int64(streamLead * streamWindow); most > limit {
		t.Fatalf("%d files converted ahead of the write, want at most %d (%d windows)", most, limit, streamLead)
	}
}
