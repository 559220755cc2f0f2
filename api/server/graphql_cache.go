package server

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries"
)

// Bounds of the GraphQL response cache: dashboards send a handful of
// queries, so a few hundred entries hold them all; the byte bound keeps a
// few large answers from holding memory.
const (
	cacheEntries = 512
	cacheBytes   = 64 << 20
)

// responseCache holds encoded /graphql responses for one snapshot (issue
// #14, Serving). Every entry belongs to the snapshot it was computed
// from: when the served snapshot changes, the first request that sees the
// new one empties the cache, and a response computed from an older one is
// never stored, so no reader gets an answer of another version.
type responseCache struct {
	mu    sync.Mutex
	snap  *queries.Snapshot
	lru   *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
	bytes int
}

type cacheEntry struct {
	key  string
	body []byte
}

func newResponseCache() *responseCache {
	return &responseCache{lru: list.New(), byKey: map[string]*list.Element{}}
}

// sync empties the cache when snap is not the snapshot it holds; the
// caller holds mu.
func (c *responseCache) sync(snap *queries.Snapshot) {
	if c.snap == snap {
		return
	}
	c.snap, c.bytes = snap, 0
	c.lru.Init()
	clear(c.byKey)
}

// get returns the response stored for key under snap.
func (c *responseCache) get(snap *queries.Snapshot, key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(snap)
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry).body, true
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
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.lru.PushFront(&cacheEntry{key: key, body: body})
	c.bytes += len(body)
	for c.lru.Len() > cacheEntries || c.bytes > cacheBytes {
		old := c.lru.Back()
		e := old.Value.(*cacheEntry)
		c.lru.Remove(old)
		delete(c.byKey, e.key)
		c.bytes -= len(e.body)
	}
}

// cacheKey names one answer: the graph version, the response type, what
// the caller may do (the viewer field answers it), the operation name,
// the query with comments and insignificant whitespace and commas
// removed, and the variables (encoding/json sorts map keys).
func cacheKey(version int64, mediaType string, v api.Viewer, req api.Request) string {
	vars, _ := json.Marshal(req.Variables)
	h := sha256.New()
	for _, part := range []string{
		mediaType, boolStr(v.CanRecord), boolStr(v.ReadOnly), req.OperationName, normalizeQuery(req.Query), string(vars),
	} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	_ = version // the version is the cache's own (sync) and the ETag's
	return hex.EncodeToString(h.Sum(nil))
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// normalizeQuery drops comments, commas and whitespace outside strings
// (all insignificant in GraphQL), keeping one space only where two names
// or numbers would otherwise touch, so queries that differ only in layout
// share an entry. Strings are kept as written.
func normalizeQuery(q string) string {
	var b strings.Builder
	b.Grow(len(q))
	space := false
	last := byte(0)
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '#':
			for i < len(q) && q[i] != '\n' && q[i] != '\r' {
				i++
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			space = true
		case c == '"':
			space, last = false, '"'

			start := i
			if strings.HasPrefix(q[i:], `"""`) {
				end := strings.Index(q[i+3:], `"""`)
				for end >= 0 && q[i+3+end-1] == '\\' {
					next := strings.Index(q[i+3+end+3:], `"""`)
					if next < 0 {
						end = -1
						break
					}
					end += 3 + next
				}
				if end < 0 {
					b.WriteString(q[start:])
					return b.String()
				}
				i += 3 + end + 2
			} else {
				for i++; i < len(q) && q[i] != '"' && q[i] != '\n'; i++ {
					if q[i] == '\\' {
						i++
					}
				}
			}
			b.WriteString(q[start:min(i+1, len(q))])
		default:
			if space && isNameByte(last) && isNameByte(c) {
				b.WriteByte(' ')
			}
			space, last = false, c
			b.WriteByte(c)
		}
	}
	return b.String()
}
