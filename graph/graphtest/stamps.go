package graphtest

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/backend"
)

// testStamps: a stamp is written with its graph, replaced or dropped by
// every later write of that graph, kept by writes of other graphs,
// recorded alone by PutStamps, rolled back with a failed ingest, and kept
// across a reopen. A backend without stamps has none, whatever is written.
func testStamps(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	hooks := &graph.Hooks{}
	s, err := graph.OpenWith(ctx, url, hooks)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	steps := []struct {
		name    string
		changes []graph.Change
		put     map[string][]byte
		fail    bool
		want    map[string]string
	}{
		{"written with the graphs", []graph.Change{{Graph: "urn:g:a", Quads: MixedQuads("a"), Stamp: []byte("a1")}, {Graph: "urn:g:b", Quads: MixedQuads("b"), Stamp: []byte("b1")}}, nil, false,
			map[string]string{"urn:g:a": "a1", "urn:g:b": "b1"}},
		{"a graph rewritten without a stamp loses it", []graph.Change{{Graph: "urn:g:a", Quads: MixedQuads("a")[:2]}}, nil, false,
			map[string]string{"urn:g:b": "b1"}},
		{"recorded for an unchanged graph", nil, map[string][]byte{"urn:g:a": []byte("a2")}, false,
			map[string]string{"urn:g:a": "a2", "urn:g:b": "b1"}},
		{"a failed ingest changes no stamp", []graph.Change{{Graph: "urn:g:b", Quads: MixedQuads("c"), Stamp: []byte("b2")}}, nil, true,
			map[string]string{"urn:g:a": "a2", "urn:g:b": "b1"}},
		{"a deleted graph loses its stamp", []graph.Change{{Graph: "urn:g:b", Delete: true}}, nil, false,
			map[string]string{"urn:g:a": "a2"}},
	}
	for _, st := range steps {
		if st.fail && !h.FailsWrites {
			continue // the backend's writes cannot fail half-way
		}
		if st.fail {
			hooks.FailWrite = func() error { return errors.New("disk full") }
		}
		if st.changes != nil {
			_, err := s.Apply(ctx, st.changes)
			if (err != nil) != st.fail {
				t.Fatalf("%s: Apply: %v", st.name, err)
			}
		}
		hooks.FailWrite = nil
		if err := s.PutStamps(ctx, st.put); err != nil {
			t.Fatalf("%s: PutStamps: %v", st.name, err)
		}
		want := st.want
		if !h.Stamps {
			want = map[string]string{}
		}
		if got := stampsOf(t, s); !maps.Equal(got, want) {
			t.Fatalf("%s: stamps %v, want %v", st.name, got, want)
		}
	}
	if !h.Persistent {
		return
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"urn:g:a": "a2"}
	if !h.Stamps {
		want = map[string]string{}
	}
	if got := stampsOf(t, Open(t, url)); !maps.Equal(got, want) {
		t.Fatalf("after a reopen: stamps %v, want %v", got, want)
	}
}

func stampsOf(t *testing.T, s *graph.Store) map[string]string {
	t.Helper()
	got, err := s.Stamps(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range got {
		out[k] = string(v)
	}
	return out
}

// testSourcesOf: the source graphs of an instance are the graphs whose own
// node (subject = label) names it as sg:instance; other quads naming the
// instance (another predicate, a node of another graph) do not count.
func testSourcesOf(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	doc := quad.IRI("urn:doc")
	q := func(sub, pred, label string) quad.Quad {
		return quad.Quad{Subject: quad.IRI(sub), Predicate: quad.IRI(pred), Object: doc, Label: quad.IRI(label)}
	}
	_, err := s.Apply(ctx, []graph.Change{
		{Graph: "urn:doc#source/b", Quads: []quad.Quad{q("urn:doc#source/b", backend.PredInstance, "urn:doc#source/b")}},
		{Graph: "urn:doc#source/a", Quads: []quad.Quad{q("urn:doc#source/a", backend.PredInstance, "urn:doc#source/a"), q("urn:x", backend.PredInstance, "urn:doc#source/a")}},
		{Graph: "urn:doc#source/c", Quads: []quad.Quad{q("urn:doc#source/c", "urn:p:other", "urn:doc#source/c")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for iri, want := range map[string][]string{
		"urn:doc":   {"urn:doc#source/a", "urn:doc#source/b"},
		"urn:other": nil,
	} {
		got, err := s.SourcesOf(ctx, iri)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("SourcesOf(%s) = %v, %v; want %v", iri, got, err, want)
		}
	}
}

// testHasDigest: a source graph is stored with a digest when its own node
// (subject = label, in its graph) has exactly that sg:digest; the same
// value elsewhere (another predicate, another graph's node) or an empty
// digest does not count.
func testHasDigest(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	dq := func(sub, pred, o, label string) quad.Quad {
		return quad.Quad{Subject: quad.IRI(sub), Predicate: quad.IRI(pred), Object: quad.String(o), Label: quad.IRI(label)}
	}
	_, err := s.Apply(ctx, []graph.Change{
		{Graph: "urn:src:a", Quads: []quad.Quad{dq("urn:src:a", backend.PredDigest, "d-a", "urn:src:a"), dq("urn:src:a", "urn:p:other", "d-x", "urn:src:a")}},
		{Graph: "urn:src:b", Quads: []quad.Quad{dq("urn:node", backend.PredDigest, "d-b", "urn:src:b")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		label, digest string
		want          bool
	}{
		{"urn:src:a", "d-a", true},
		{"urn:src:a", "d-b", false},    // another graph's digest
		{"urn:src:a", "d-x", false},    // another predicate
		{"urn:src:b", "d-b", false},    // not the graph's own node
		{"urn:src:c", "d-a", false},    // no such graph
		{"urn:src:a", "", false},       // no digest
		{"urn:src:a", "d-none", false}, // stored nowhere
	}
	var labels, digests []string
	for _, tc := range cases {
		if got, err := s.HasDigest(ctx, tc.label, tc.digest); err != nil || got != tc.want {
			t.Errorf("HasDigest(%s, %q) = %v, %v; want %v", tc.label, tc.digest, got, err, tc.want)
		}
		labels, digests = append(labels, tc.label), append(digests, tc.digest)
	}
	// The batch answers each graph as HasDigest does.
	same, err := s.SameDigests(ctx, labels, digests)
	if err != nil || len(same) != len(cases) {
		t.Fatalf("SameDigests = %v, %v; want %d answers", same, err, len(cases))
	}
	for i, tc := range cases {
		if same[i] != tc.want {
			t.Errorf("SameDigests: %s, %q = %v; want %v", tc.label, tc.digest, same[i], tc.want)
		}
	}
	if _, err := s.SameDigests(ctx, labels, digests[1:]); err == nil {
		t.Error("SameDigests with fewer digests than graphs: no error")
	}
}
