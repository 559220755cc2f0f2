package graph

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"
)

// TestStampsFollowTheirGraphs: a stamp is written with its graph, replaced
// or dropped by every later write of that graph, kept by writes of other
// graphs, recorded alone by PutStamps, rolled back with a failed ingest,
// and (bbolt) kept in the store file.
func TestStampsFollowTheirGraphs(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"memory", "bbolt:" + t.TempDir() + "/g.db"} {
		t.Run(url[:min(len(url), 6)], func(t *testing.T) {
			s := open(t, url)
			steps := []struct {
				name    string
				changes []Change
				put     map[string][]byte
				fail    bool
				want    map[string]string
			}{
				{"written with the graphs", []Change{{Graph: "urn:g:a", Quads: mixedQuads("a"), Stamp: []byte("a1")}, {Graph: "urn:g:b", Quads: mixedQuads("b"), Stamp: []byte("b1")}}, nil, false,
					map[string]string{"urn:g:a": "a1", "urn:g:b": "b1"}},
				{"a graph rewritten without a stamp loses it", []Change{{Graph: "urn:g:a", Quads: mixedQuads("a")[:2]}}, nil, false,
					map[string]string{"urn:g:b": "b1"}},
				{"recorded for an unchanged graph", nil, map[string][]byte{"urn:g:a": []byte("a2")}, false,
					map[string]string{"urn:g:a": "a2", "urn:g:b": "b1"}},
				{"a failed ingest changes no stamp", []Change{{Graph: "urn:g:b", Quads: mixedQuads("c"), Stamp: []byte("b2")}}, nil, true,
					map[string]string{"urn:g:a": "a2", "urn:g:b": "b1"}},
				{"a deleted graph loses its stamp", []Change{{Graph: "urn:g:b", Delete: true}}, nil, false,
					map[string]string{"urn:g:a": "a2"}},
			}
			for _, st := range steps {
				if st.fail && s.kv == nil {
					continue // memory writes cannot fail half-way
				}
				if st.fail {
					s.kv.failPut = func() error { return errors.New("disk full") }
				}
				if st.changes != nil {
					_, err := s.Apply(ctx, st.changes)
					if (err != nil) != st.fail {
						t.Fatalf("%s: Apply: %v", st.name, err)
					}
				}
				if s.kv != nil {
					s.kv.failPut = nil
				}
				if err := s.PutStamps(ctx, st.put); err != nil {
					t.Fatalf("%s: PutStamps: %v", st.name, err)
				}
				got, err := s.Stamps(ctx)
				if err != nil {
					t.Fatal(err)
				}
				gs := map[string]string{}
				for k, v := range got {
					gs[k] = string(v)
				}
				if !maps.Equal(gs, st.want) {
					t.Fatalf("%s: stamps %v, want %v", st.name, gs, st.want)
				}
			}
			if s.kv == nil {
				return
			}
			s.Close()
			r := open(t, url)
			got, err := r.Stamps(ctx)
			if err != nil || len(got) != 1 || string(got["urn:g:a"]) != "a2" {
				t.Fatalf("after a reopen: %v, %v", got, err)
			}
		})
	}
}

// TestSourcesOf: the source graphs of an instance are the graphs whose own
// node (subject = label) names it as sg:instance; other quads naming the
// instance (another predicate, a node of another graph) do not count.
func TestSourcesOf(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"memory", "bbolt:" + t.TempDir() + "/g.db"} {
		s := open(t, url)
		doc := quad.IRI("urn:doc")
		q := func(sub, pred, label string) quad.Quad {
			return quad.Quad{Subject: quad.IRI(sub), Predicate: quad.IRI(pred), Object: doc, Label: quad.IRI(label)}
		}
		_, err := s.Apply(ctx, []Change{
			{Graph: "urn:doc#source/b", Quads: []quad.Quad{q("urn:doc#source/b", predInstance, "urn:doc#source/b")}},
			{Graph: "urn:doc#source/a", Quads: []quad.Quad{q("urn:doc#source/a", predInstance, "urn:doc#source/a"), q("urn:x", predInstance, "urn:doc#source/a")}},
			{Graph: "urn:doc#source/c", Quads: []quad.Quad{q("urn:doc#source/c", "urn:p:other", "urn:doc#source/c")}},
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.SourcesOf(ctx, "urn:doc")
		if want := []string{"urn:doc#source/a", "urn:doc#source/b"}; err != nil || !slices.Equal(got, want) {
			t.Fatalf("%s: SourcesOf = %v, %v; want %v", url, got, err, want)
		}
	}
}
