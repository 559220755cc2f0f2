package api

import (
	"context"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/queries"
)

// signalCache is a one-snapshot FieldCache that says when it was first
// asked and counts what it was given.
type signalCache struct {
	mu     sync.Mutex
	m      map[string][]byte
	asked  chan struct{}
	once   sync.Once
	stored int
}

func (c *signalCache) Get(_ *queries.Snapshot, key string) ([]byte, bool) {
	c.once.Do(func() { close(c.asked) })
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

func (c *signalCache) Put(_ *queries.Snapshot, key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stored++
	c.m[key] = b
}

// TestExecuteSharedWaitsForAFieldInFlight: a request that misses a root
// field another request is computing (the first requests after a new
// graph version miss together) waits for that answer instead of
// computing the field again.
func TestExecuteSharedWaitsForAFieldInFlight(t *testing.T) {
	schema, err := NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	snap := &queries.Snapshot{Version: 1}
	lim := DefaultLimits()
	const q = `{ graphVersion }`
	doc, err := Parse(q, lim)
	if err != nil {
		t.Fatal(err)
	}
	op, roots := doc.sharedRoots("")
	key := doc.fieldKey(op, roots[0], Viewer{}, nil)
	// another request is computing graphVersion
	inFlight := make(chan struct{})
	schema.flights.Store(flightKey{snap, key}, inFlight)
	fc := &signalCache{m: map[string][]byte{}, asked: make(chan struct{})}
	got := make(chan string)
	go func() {
		b, _ := schema.ExecuteShared(context.Background(), snap, doc, Request{Query: q}, lim, fc).Encode()
		got <- string(b)
	}()
	<-fc.asked // it missed
	// the other request stores its answer (one a computation here could
	// not give) and is done
	fc.Put(snap, key, []byte("42"))
	schema.flights.Delete(flightKey{snap, key})
	close(inFlight)
	if b := <-got; b != `{"data":{"graphVersion":42}}` {
		t.Errorf("answer %s, want the one in flight", b)
	}
	if fc.stored != 1 {
		t.Errorf("the field was computed again (%d answers stored)", fc.stored)
	}
}
