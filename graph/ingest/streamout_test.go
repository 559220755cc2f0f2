package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// TestStreamHandsOverPreparesChanges: Stream hands over, window by
// window, the changes a prepared first ingest of the same corpus holds
// (every graph, its quads), counts the same files, and stops at the
// first failure of its callee, returning it.
func TestStreamHandsOverPreparesChanges(t *testing.T) {
	defer func(n int) { streamWindow = n }(streamWindow)
	streamWindow = 16 // several windows
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "c")
	if _, err := gen.Write(root, gen.Options{Skills: 60, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := Prepare(ctx, st, []string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, c := range p.Changes() {
		want[c.Graph] = nquadsOf(c)
	}
	got := map[string][]string{}
	windows := 0
	res, err := Stream(ctx, []string{root}, Options{}, func(_ context.Context, cs []graph.Change) error {
		windows++
		for _, c := range cs {
			if _, dup := got[c.Graph]; dup {
				t.Errorf("%s handed over twice", c.Graph)
			}
			got[c.Graph] = nquadsOf(c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if windows < 2 {
		t.Errorf("%d windows handed over, want several", windows)
	}
	if len(got) != len(want) || res.Files != p.res.Files {
		t.Fatalf("%d graphs of %d files streamed, prepared %d of %d", len(got), res.Files, len(want), p.res.Files)
	}
	for g, qs := range want {
		if !slices.Equal(got[g], qs) {
			t.Errorf("%s: %d quads streamed, %d prepared", g, len(got[g]), len(qs))
		}
	}

	stop := errors.New("the export's writer failed")
	calls := 0
	_, err = Stream(ctx, []string{root}, Options{}, func(context.Context, []graph.Change) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("a failing callee: called %d times, Stream returned %v", calls, err)
	}
}

// nquadsOf is a change's quads as N-Quads lines, in its order.
func nquadsOf(c graph.Change) []string {
	out := make([]string, len(c.Quads))
	for i, q := range c.Quads {
		out[i] = q.NQuad()
	}
	return out
}
