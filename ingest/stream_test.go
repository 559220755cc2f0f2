package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/gen"
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

// TestStreamedFirstIngest: Run writes the first ingest into an empty bbolt
// store while it converts (graph.FirstWriter). It stores what Prepare then
// Apply store; stopped mid-stream, after some of its quads were committed,
// it leaves version 0 and serves nothing, and the next Run writes it all.
func TestStreamedFirstIngest(t *testing.T) {
	defer func(n int) { streamWindow = n }(streamWindow)
	streamWindow = 16 // several windows, so the write runs while converting
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 200, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	openStore := func(t *testing.T) *graph.Store {
		st, err := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	// The reference: the sequential path.
	ref := openStore(t)
	p, err := Prepare(ctx, ref, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.first != nil {
		t.Fatal("Prepare streamed the write (serve --corpus builds its snapshot from a prepared ingest)")
	}
	if _, err := p.Apply(ctx, ref); err != nil {
		t.Fatal(err)
	}
	_, want := readStore(t, ref)

	tests := []struct {
		name string
		// stop, called after each window handed to the write, returns the
		// error that stops the ingest there (nil: go on).
		stop    func(w *graph.FirstWriter) error
		wantErr error
	}{
		{"complete", func(*graph.FirstWriter) error { return nil }, nil},
		{"cancelled", func(w *graph.FirstWriter) error {
			if w.Steps() > 0 {
				return context.Canceled
			}
			return nil
		}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			c, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			windows, stoppedAfterSteps := 0, false
			streamWritten = func(w *graph.FirstWriter) {
				windows++
				if err := tt.stop(w); err != nil && !stoppedAfterSteps {
					stoppedAfterSteps = true
					cancel(err)
				}
			}
			defer func() { streamWritten = nil }()
			res, err := Run(c, st, []string{root}, Options{})
			if windows < 2 {
				t.Fatalf("%d windows written while converting: the write did not stream", windows)
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
			if err == nil || !errors.Is(context.Cause(c), tt.wantErr) {
				t.Fatalf("Run stopped mid-stream: %v (cause %v)", err, context.Cause(c))
			}
			if v, got := readStore(t, st); v != 0 || len(got) != 0 {
				t.Fatalf("after the stopped ingest: version %d, %d quads served", v, len(got))
			}
			streamWritten = nil
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
