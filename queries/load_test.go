package queries

import (
	"context"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// TestReadAllGroupsAsTheGrouper: readAll, which groups each graph on its
// own as the store hands it over (from the checkpoint, in parallel, or
// from a full read), gives exactly the raws of the per-quad grouper over
// Read — subjects, graphs, sorted types and every property's values in
// quad order — on each backend.
func TestReadAllGroupsAsTheGrouper(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"memory", "bbolt:" + filepath.Join(t.TempDir(), "g.db")} {
		st, err := graph.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := ingest.Run(ctx, st, []string{"../examples/harness"}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
		// A graph with values repeated under one predicate, a blank-node
		// subject (skipped) and two subjects interleaved.
		s1, s2, p := quad.IRI("urn:test:s1"), quad.IRI("urn:test:s2"), quad.IRI("urn:test:p")
		if _, err := st.Apply(ctx, []graph.Change{{Graph: "urn:test:g", Quads: []quad.Quad{
			{Subject: s1, Predicate: p, Object: quad.String("b")},
			{Subject: s2, Predicate: quad.IRI(rdfType), Object: quad.IRI(sg + "Port")},
			{Subject: s1, Predicate: p, Object: quad.String("a")},
			{Subject: quad.BNode("x"), Predicate: p, Object: quad.String("c")},
			{Subject: s2, Predicate: quad.IRI(rdfType), Object: quad.IRI(sg + "Lane")},
			{Subject: s1, Predicate: quad.IRI("urn:test:q"), Object: quad.Int(3)},
		}}}); err != nil {
			t.Fatal(err)
		}
		g := newGrouper()
		wantV, err := st.Read(ctx, func(q quad.Quad) error { g.add(q); return nil })
		if err != nil {
			t.Fatal(err)
		}
		want := g.raws()
		got, v, err := readAll(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if v != wantV || len(got) != len(want) {
			t.Fatalf("%s: readAll: version %d, %d raws; the grouper: version %d, %d raws", url, v, len(got), wantV, len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: raw %d:\nreadAll %+v\ngrouper %+v", url, i, got[i], want[i])
			}
		}
	}
}

// grouper groups quads by (source graph, subject), one quad at a time:
// the plain reference groupGraph is held to.
type grouper struct {
	byKey map[[2]string]*raw
}

func newGrouper() *grouper { return &grouper{byKey: map[[2]string]*raw{}} }

func (g *grouper) add(q quad.Quad) {
	s, ok := q.Subject.(quad.IRI)
	if !ok {
		return
	}
	label := ""
	if l, ok := q.Label.(quad.IRI); ok {
		label = string(l)
	}
	if label == graph.MetaGraph {
		return
	}
	k := [2]string{label, string(s)}
	r := g.byKey[k]
	if r == nil {
		r = &raw{iri: string(s), graph: label, props: map[string][]quad.Value{}}
		g.byKey[k] = r
	}
	p := valueString(q.Predicate)
	if p == rdfType {
		r.types = append(r.types, valueString(q.Object))
		return
	}
	r.props[p] = append(r.props[p], q.Object)
}

// raws returns the groups sorted by subject, then graph.
func (g *grouper) raws() []*raw {
	out := make([]*raw, 0, len(g.byKey))
	for _, r := range g.byKey {
		sort.Strings(r.types)
		out = append(out, r)
	}
	sortRaws(out)
	return out
}
