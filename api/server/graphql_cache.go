package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/internal/lru"
	"github.com/skillgraph/skillgraph/queries"
)

// Bounds of the GraphQL response cache: dashboards send a handful of
// queries, so a few hundred entries hold them all; the byte bound keeps a
// few large answers from holding memory.
const (
	cacheEntries = 512
	cacheBytes   = 64 << 20
	// parsed and validated documents, by text (api.DocumentCache); a
	// tree is several times its text
	docEntries = 256
	docBytes   = 4 << 20
)

// responseCache holds encoded /graphql responses for one snapshot (issue
// #14, Serving). Every entry belongs to the snapshot it was computed
// from: when the served snapshot changes, the first request that sees the
// new one empties the cache, and a response computed from an older one is
// never stored, so no reader gets an answer of another version.
type responseCache struct {
	mu     sync.Mutex
	snap   *queries.Snapshot
	bodies *lru.Cache[[]byte] // by key; a body's size is its length
}

func newResponseCache() *responseCache {
	return &responseCache{bodies: lru.New[[]byte](cacheEntries, cacheBytes)}
}

// sync empties the cache when snap is not the snapshot it holds; the
// caller holds mu.
func (c *responseCache) sync(snap *queries.Snapshot) {
	if c.snap == snap {
		return
	}
	c.snap = snap
	c.bodies.Clear()
}

// get returns the response stored for key under snap.
func (c *responseCache) get(snap *queries.Snapshot, key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(snap)
	return c.bodies.Get(key)
}

// put stores a response computed from snap, unless a newer snapshot is
// served already; the least recently used entries make room.
func (c *responseCache) put(snap *queries.Snapshot, key string, body []byte) {
	if len(body) > cacheBytes/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != nil && c.snap != snap && c.snap.Version >= snap.Version {
		return
	}
	c.sync(snap)
	c.bodies.Add(key, body, len(body))
}

// fieldCache is the api.FieldCache of /graphql: the answers of root
// fields live in the response cache (same bounds, same invalidation by
// snapshot) under keys of their own ("f" and a raw digest, never a
// response key, which is hex).
type fieldCache struct{ c *responseCache }

// Get is the stored answer of a root field under snap.
func (f fieldCache) Get(snap *queries.Snapshot, key string) ([]byte, bool) {
	return f.c.get(snap, "f"+key)
}

// Put stores a root field's answer for snap (the response cache may drop
// it at its bounds).
func (f fieldCache) Put(snap *queries.Snapshot, key string, body []byte) {
	f.c.put(snap, "f"+key, body)
}

// cacheKey names one answer: the graph version, the response type, what
// the caller may do (the viewer field answers it), the operation name,
// the query with comments and insignificant whitespace and commas
// removed, and the variables (encoding/json sorts map keys).
func cacheKey(version int64, mediaType string, v api.Viewer, req api.Request) string {
	vars, _ := json.Marshal(req.Variables)
	h := sha256.New()
	for _, part := range []string{
		mediaType, v.Key(), req.OperationName, api.NormalizeQuery(req.Query), string(vars),
	} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	_ = version // the version is the cache's own (sync) and the ETag's
	return hex.EncodeToString(h.Sum(nil))
}
