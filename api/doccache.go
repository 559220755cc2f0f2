package api

import (
	clist "container/list"
	"sync"
)

// DocumentCache keeps parsed documents by their exact text, so a query
// sent again — with other variables, or after a new graph version —
// is neither parsed nor validated again (validation was most of such a
// request at 10k). Documents do not depend on the snapshot, so nothing
// invalidates them; the least recently used go when a bound is reached.
// Safe for concurrent use.
type DocumentCache struct {
	mu         sync.Mutex
	lru        *clist.List // of *docEntry, most recent first
	byText     map[string]*clist.Element
	bytes      int
	maxEntries int
	maxBytes   int
}

type docEntry struct {
	text string
	doc  *Document
}

// NewDocumentCache keeps at most entries documents whose texts total at
// most bytes.
func NewDocumentCache(entries, bytes int) *DocumentCache {
	return &DocumentCache{lru: clist.New(), byText: map[string]*clist.Element{}, maxEntries: entries, maxBytes: bytes}
}

// Parse is the package's Parse through the cache: a document that does
// not parse is not kept (its error is computed again).
func (c *DocumentCache) Parse(query string, lim Limits) (*Document, error) {
	c.mu.Lock()
	if el, ok := c.byText[query]; ok {
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*docEntry).doc, nil
	}
	c.mu.Unlock()
	doc, err := Parse(query, lim)
	if err != nil || len(query) > c.maxBytes/8 {
		return doc, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byText[query]; ok {
		return el.Value.(*docEntry).doc, nil
	}
	c.byText[query] = c.lru.PushFront(&docEntry{text: query, doc: doc})
	c.bytes += len(query)
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.lru.Back()
		e := old.Value.(*docEntry)
		c.lru.Remove(old)
		delete(c.byText, e.text)
		c.bytes -= len(e.text)
	}
	return doc, nil
}
