// Package lru is the bounded least-recently-used map behind the /graphql
// caches (api.DocumentCache, the server's response cache): one eviction
// rule, bounded by entry count and by the total size the caller gives
// each entry. Not safe for concurrent use: each cache holds its own lock.
package lru

import "container/list"

// Cache maps keys to values, most recently used first.
type Cache[V any] struct {
	order      *list.List // of *entry[V], most recent first
	byKey      map[string]*list.Element
	size       int
	maxEntries int
	maxSize    int
}

type entry[V any] struct {
	key  string
	val  V
	size int
}

// New keeps at most entries values whose sizes total at most size.
func New[V any](entries, size int) *Cache[V] {
	return &Cache[V]{order: list.New(), byKey: map[string]*list.Element{}, maxEntries: entries, maxSize: size}
}

// Get returns the value stored for key and marks it most recently used.
func (c *Cache[V]) Get(key string) (V, bool) {
	el, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[V]).val, true
}

// Add stores val of the given size under key, unless key is stored
// already (the value stored stays); the least recently used entries make
// room.
func (c *Cache[V]) Add(key string, val V, size int) {
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&entry[V]{key: key, val: val, size: size})
	c.size += size
	for c.order.Len() > c.maxEntries || c.size > c.maxSize {
		old := c.order.Back()
		e := old.Value.(*entry[V])
		c.order.Remove(old)
		delete(c.byKey, e.key)
		c.size -= e.size
	}
}

// Clear removes every entry.
func (c *Cache[V]) Clear() {
	c.order.Init()
	clear(c.byKey)
	c.size = 0
}

// Len is the number of entries stored.
func (c *Cache[V]) Len() int { return c.order.Len() }

// Size is the total size of the entries stored.
func (c *Cache[V]) Size() int { return c.size }
