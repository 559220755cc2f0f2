package graphtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/backend"
)

// testVersion: the counter starts at 0, is bumped once per Apply (an
// empty one too), is an integer past 9, is the meta graph's only quad,
// and another Store on a shared backend reads the same.
func testVersion(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	s := Open(t, url)
	if v, err := s.Version(ctx); err != nil || v != 0 {
		t.Fatalf("new store: version %d, err %v", v, err)
	}
	for i := int64(1); i <= 12; i++ { // past 9: the counter is an integer, not a string
		v, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", fmt.Sprint(i%2), "")}}})
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
	meta, _ := s.GraphQuads(ctx, graph.MetaGraph)
	if len(meta) != 1 {
		t.Fatalf("meta graph holds %d quads, want the one version quad: %v", len(meta), meta)
	}
	if h.Shared { // another process sees the same counter
		if v, _ := Open(t, url).Version(ctx); v != 13 {
			t.Fatalf("second store sees version %d, want 13", v)
		}
	}
}

func testApplyReplacesOneGraph(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	v, err := s.Apply(ctx, []graph.Change{
		{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", "1", ""), Q("urn:a", "urn:p", "2", "")}},
		{Graph: "urn:g:b", Quads: []quad.Quad{Q("urn:b", "urn:p", "1", "")}},
	})
	if err != nil || v != 1 {
		t.Fatalf("apply: v=%d err=%v", v, err)
	}
	v, err = s.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", "2", ""), Q("urn:a", "urn:p", "3", "")}}})
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
		got[backend.LiteralString(x.Object)] = true
	}
	if !got["2"] || !got["3"] || got["1"] {
		t.Fatalf("graph a = %v", got)
	}
	if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:b", Delete: true}}); err != nil {
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
}

func testReopenKeepsData(t *testing.T, h Harness) {
	if !h.Persistent {
		t.Skip("not persistent")
	}
	ctx := context.Background()
	url := h.URL(t)
	s, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	want := []quad.Quad{Q("urn:a", "urn:p", "1", "urn:g:a"), Q("urn:a", "urn:p", "2", "urn:g:a")}
	if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: want}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = Open(t, url) // and the schema initialisation tolerates what exists
	if v, _ := s.Version(ctx); v != 1 {
		t.Fatalf("version after reopen = %d", v)
	}
	got, err := s.GraphQuads(ctx, "urn:g:a")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(SortedNQuads(got), SortedNQuads(want)) {
		t.Fatalf("after reopen graph a = %v, want %v", SortedNQuads(got), SortedNQuads(want))
	}
}

func testNQuadsRoundTrip(t *testing.T, h Harness) {
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
	s := Open(t, h.URL(t))
	if _, err := s.Apply(ctx, []graph.Change{{Graph: g, Quads: in}}); err != nil {
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
	if a, w := SortedNQuads(got), SortedNQuads(want); !slices.Equal(a, w) {
		t.Fatalf("round trip differs:\n got %s\nwant %s", strings.Join(a, "\n     "), strings.Join(w, "\n     "))
	}
	var buf strings.Builder
	if _, err := s.WriteNQuads(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	slices.Sort(lines)
	if w := SortedNQuads(want); !slices.Equal(lines, w) {
		t.Fatalf("WriteNQuads differs:\n got %s\nwant %s", strings.Join(lines, "\n     "), strings.Join(w, "\n     "))
	}
	// Subject and Each agree with GraphQuads.
	if sub, _ := s.Subject(ctx, "urn:s"); len(sub) != len(in)-1 {
		t.Fatalf("Subject(urn:s) = %d quads, want %d", len(sub), len(in)-1)
	}
}

// testShrinkingGraph replaces a graph with fewer, partly new quads: on
// Cayley's kv backends a batch in which the label loses more quads than it
// gains used to store the added quads in no graph at all.
func testShrinkingGraph(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	var old, next []quad.Quad
	for i := range 10 {
		old = append(old, Q("urn:s", "urn:p", fmt.Sprint(i), ""))
	}
	next = append(next, old[0], Q("urn:s", "urn:p", "new1", ""), Q("urn:t", "urn:q", "new2", ""))
	for _, c := range [][]quad.Quad{old, next} {
		if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:shrink", Quads: c}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GraphQuads(ctx, "urn:g:shrink")
	if err != nil {
		t.Fatal(err)
	}
	if a, w := SortedNQuads(got), SortedNQuads(WithLabel(next, "urn:g:shrink")); !slices.Equal(a, w) {
		t.Fatalf("graph = %v, want %v", a, w)
	}
	if n := count(t, s); n != len(next)+1 {
		t.Fatalf("store holds %d quads, want %d (graph + version)", n, len(next)+1)
	}
}

// testLargeGraph writes one graph far larger than one batch of Cayley's
// kv writes and replaces half of it.
func testLargeGraph(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	const n = 3 * backend.BatchSize / 2
	mk := func(gen int) []quad.Quad {
		out := make([]quad.Quad, n)
		for i := range out {
			o := fmt.Sprintf("v%d", i)
			if i%2 == 1 {
				o = fmt.Sprintf("v%d-gen%d", i, gen)
			}
			out[i] = Q(fmt.Sprintf("urn:s%d", i), "urn:p", o, "")
		}
		return out
	}
	for gen := range 2 {
		if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:big", Quads: mk(gen)}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GraphQuads(ctx, "urn:g:big")
	if err != nil {
		t.Fatal(err)
	}
	if a, w := SortedNQuads(got), SortedNQuads(WithLabel(mk(1), "urn:g:big")); !slices.Equal(a, w) {
		t.Fatalf("big graph: %d quads, want %d (or different content)", len(a), len(w))
	}
}
