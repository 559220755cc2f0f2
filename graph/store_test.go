package graph

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cayleygraph/quad"
)

func q(s, p, o, g string) quad.Quad {
	return quad.Quad{Subject: quad.IRI(s), Predicate: quad.IRI(p), Object: quad.String(o), Label: quad.IRI(g)}
}

func backends(t *testing.T) []string {
	return []string{"memory", "bbolt:" + filepath.Join(t.TempDir(), "g.db")}
}

func TestApplyReplacesExactlyOneGraph(t *testing.T) {
	ctx := context.Background()
	for _, url := range backends(t) {
		t.Run(url[:5], func(t *testing.T) {
			s, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
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
			b, _ := s.GraphQuads(ctx, "urn:g:b")
			if len(a) != 2 || len(b) != 1 {
				t.Fatalf("graph a has %d quads (want 2), b %d (want 1)", len(a), len(b))
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
			n := 0
			_ = s.Each(ctx, func(quad.Quad) error { n++; return nil })
			if n != 3 { // two in a, the version quad
				t.Fatalf("store holds %d quads, want 3", n)
			}
			if v, _ := s.Version(ctx); v != 3 {
				t.Fatalf("version %d, want 3", v)
			}
		})
	}
}

func TestBboltReopenKeepsVersion(t *testing.T) {
	ctx := context.Background()
	url := "bbolt:" + filepath.Join(t.TempDir(), "sub", "g.db")
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:a", Quads: []quad.Quad{q("urn:a", "urn:p", "1", "")}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.Version(ctx); v != 1 {
		t.Fatalf("version after reopen = %d", v)
	}
}

func TestOpenUnknownBackend(t *testing.T) {
	if _, err := Open(context.Background(), "redis:x"); err == nil {
		t.Fatal("want an error for an unknown backend")
	}
}
