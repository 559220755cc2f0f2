package server

import (
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries"
)

// TestCacheKey: the viewer is part of the key, the order of the
// variables is not.
func TestCacheKey(t *testing.T) {
	k := func(v api.Viewer, vars map[string]any) string {
		return cacheKey(1, "application/json", v, api.Request{Query: "{ viewer { canRecord } }", Variables: vars})
	}
	if k(api.Viewer{}, nil) == k(api.Viewer{CanRecord: true}, nil) {
		t.Error("the viewer is not part of the key")
	}
	if k(api.Viewer{}, map[string]any{"a": 1, "b": 2}) != k(api.Viewer{}, map[string]any{"b": 2, "a": 1}) {
		t.Error("variables in another order make another key")
	}
}

// TestResponseCacheBounded: entries and bytes stay under their bounds, a
// new snapshot empties the cache, and an answer of an older snapshot is
// not stored once a newer one is served.
func TestResponseCacheBounded(t *testing.T) {
	c := newResponseCache()
	s1, s2 := &queries.Snapshot{Version: 1}, &queries.Snapshot{Version: 2}
	for i := range cacheEntries + 100 {
		c.put(s1, fmt.Sprint(i), []byte("x"))
	}
	if c.bodies.Len() != cacheEntries {
		t.Fatalf("%d entries, bound %d", c.bodies.Len(), cacheEntries)
	}
	if _, ok := c.get(s1, "0"); ok {
		t.Error("the oldest entry was kept")
	}
	if _, ok := c.get(s1, fmt.Sprint(cacheEntries+99)); !ok {
		t.Error("the newest entry was evicted")
	}
	big := make([]byte, cacheBytes/8)
	for i := range 20 {
		c.put(s1, fmt.Sprint("big", i), big)
	}
	if c.bodies.Size() > cacheBytes {
		t.Fatalf("%d bytes, bound %d", c.bodies.Size(), cacheBytes)
	}
	if _, ok := c.get(s2, "big19"); ok {
		t.Error("an entry of snapshot 1 answered for snapshot 2")
	}
	if c.bodies.Len() != 0 {
		t.Error("a new snapshot did not empty the cache")
	}
	c.put(s1, "late", []byte("old answer"))
	if _, ok := c.get(s2, "late"); ok {
		t.Error("an answer computed from an older snapshot was stored")
	}
}
