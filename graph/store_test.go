package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// The behaviour of each backend is the shared suite's (graph/graphtest),
// run by each backend's own test; here is what graph adds: the URL.

func TestOpenUnknownBackend(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"redis:x", `store "redis:x": unknown backend "redis" (want bbolt:PATH, memory or postgres:DSN)`},
		// CockroachDB was accepted untested, and is no more (issue 26).
		{"cockroach:postgres://u@127.0.0.1:1/x", `unknown backend "cockroach"`},
		{"bbolt:", `store "bbolt:": bbolt needs a path (bbolt:PATH)`},
		{"postgres:", `store "postgres:": postgres needs a DSN`},
		{"postgresql:", `store "postgresql:": postgres needs a DSN`},
	} {
		_, err := graph.Open(context.Background(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%q) = %v, want an error with %q", tc.url, err, tc.want)
		}
	}
}

// TestOpenNames: every name and alias of a backend opens it.
func TestOpenNames(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"memory", "mem", "mem:", "bbolt:" + t.TempDir() + "/g.db"} {
		s, err := graph.Open(ctx, url)
		if err != nil {
			t.Fatalf("Open(%q): %v", url, err)
		}
		if s.URL() != url {
			t.Errorf("URL() = %q, want %q", s.URL(), url)
		}
		if _, err := s.Apply(ctx, nil); err != nil {
			t.Errorf("%s: %v", url, err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("%s: close: %v", url, err)
		}
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Port 1 on loopback: refused at once, no network beyond this machine.
	for _, url := range []string{
		"postgres:postgres://sg:secret@127.0.0.1:1/x?sslmode=disable&connect_timeout=2",
		"postgresql://sg:secret@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", // a bare URL is the postgres backend's
	} {
		_, err := graph.Open(ctx, url)
		if err == nil {
			t.Fatalf("%s: want an error for an unreachable database", url)
		}
		if !strings.Contains(err.Error(), "connect:") {
			t.Errorf("%s: %v, want the postgres backend's connect error", url, err)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Fatalf("error leaks the password: %v", err)
		}
	}
}

func ExampleStore_Read() {
	ctx := context.Background()
	s, _ := graph.Open(ctx, "memory")
	defer s.Close()
	_, _ = s.Apply(ctx, []graph.Change{{Graph: "urn:g", Quads: []quad.Quad{
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.String("o")}}}})
	n := 0
	v, _ := s.Read(ctx, func(quad.Quad) error { n++; return nil })
	fmt.Println(v, n) // the data quad and the version quad
	// Output: 1 2
}

// TestBrokenSaysSo: damage found by any read of a fragile store (a bbolt
// page that panics when read, here a hook) closes Broken and every later
// call returns the same ErrCorrupt, so a server exits instead of staying
// up unready (issue 28.7).
func TestBrokenSaysSo(t *testing.T) {
	ctx := context.Background()
	hooks := &graph.Hooks{}
	st, err := graph.OpenWith(ctx, "bbolt:"+t.TempDir()+"/g.db", hooks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{quad.MakeIRI("urn:s", "urn:p", "urn:o", "")}}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-st.Broken():
		t.Fatal("Broken before any damage")
	default:
	}
	hooks.FailRead = func(int) error { panic("unexpected page type 0x37 (injected)") }
	// From the store's own pages (the checkpoint's blocks are verified
	// by their checksums before they are decoded, on other goroutines).
	if _, err := st.ReadStore(ctx, func(quad.Quad) error { return nil }); !errors.Is(err, graph.ErrCorrupt) {
		t.Fatalf("a read that panics: %v, want ErrCorrupt", err)
	}
	select {
	case <-st.Broken():
	case <-time.After(time.Second):
		t.Fatal("Broken not closed after the damage")
	}
	if _, err := st.Version(ctx); !errors.Is(err, graph.ErrCorrupt) || !errors.Is(st.Damaged(), graph.ErrCorrupt) {
		t.Fatalf("after the damage: Version %v, Damaged %v", err, st.Damaged())
	}
}
