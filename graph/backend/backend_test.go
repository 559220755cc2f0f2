package backend_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph/backend"
	_ "github.com/skillgraph/skillgraph/graph/backend/memory"
)

func TestLookup(t *testing.T) {
	open := func(context.Context, string, string, *backend.Hooks) (backend.Backend, error) { return nil, nil }
	backend.Register(backend.Registration{Name: "lookuptest", Aliases: []string{"lt"}, WholeURL: []string{"lookuptest://"}, Usage: "lookuptest:ARG", Open: open})
	for _, tc := range []struct {
		url, name, arg, err string
	}{
		{"lookuptest:a:b", "lookuptest", "a:b", ""},
		{"lt:x", "lookuptest", "x", ""},
		{"lookuptest://h/db", "lookuptest", "lookuptest://h/db", ""}, // the whole URL
		{"memory", "memory", "", ""},
		{"mem:", "memory", "", ""},
		{"nope:x", "", "", `store "nope:x": unknown backend "nope" (want lookuptest:ARG or memory)`},
	} {
		r, arg, err := backend.Lookup(tc.url)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("Lookup(%q): %v, want %q", tc.url, err, tc.err)
			}
		case err != nil || r.Name != tc.name || arg != tc.arg:
			t.Errorf("Lookup(%q) = %v, %q, %v; want %s, %q", tc.url, r, arg, err, tc.name, tc.arg)
		}
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	open := func(context.Context, string, string, *backend.Hooks) (backend.Backend, error) { return nil, nil }
	for _, r := range []backend.Registration{
		{Name: "memory", Open: open},                          // a name taken
		{Name: "twice", Aliases: []string{"mem"}, Open: open}, // an alias taken
		{Name: "noopen"},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "backend:") {
					t.Errorf("Register(%s): panic %v, want one", r.Name, p)
				}
			}()
			backend.Register(r)
		}()
	}
}
