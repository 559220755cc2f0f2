package api

import (
	"sync"

	"github.com/skillgraph/skillgraph/api/internal/lru"
)

// DocumentCache keeps parsed documents by their exact text, so a query
// sent again — with other variables, or after a new graph version —
// is neither parsed nor validated again (validation was most of such a
// request at 10k). Documents do not depend on the snapshot, so nothing
// invalidates them; the least recently used go when a bound is reached.
// Safe for concurrent use.
type DocumentCache struct {
	mu       sync.Mutex
	docs     *lru.Cache[*Document] // by text; a text's size is its length
	maxBytes int
}

// NewDocumentCache keeps at most entries documents whose texts total at
// most bytes.
func NewDocumentCache(entries, bytes int) *DocumentCache {
	return &DocumentCache{docs: lru.New[*Document](entries, bytes), maxBytes: bytes}
}

// Parse is the package's Parse through the cache: a document that does
// not parse is not kept (its error is computed again).
func (c *DocumentCache) Parse(query string, lim Limits) (*Document, error) {
	c.mu.Lock()
	if doc, ok := c.docs.Get(query); ok {
		c.mu.Unlock()
		return doc, nil
	}
	c.mu.Unlock()
	doc, err := Parse(query, lim)
	if err != nil || len(query) > c.maxBytes/8 {
		return doc, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.docs.Get(query); ok {
		return kept, nil
	}
	c.docs.Add(query, doc, len(query))
	return doc, nil
}
