// Package graph keeps skillgraph's quads in a Cayley quad store. It hides the
// backend behind a URL-like option ("memory", "bbolt:PATH", "postgres:DSN",
// "cockroach:DSN") and offers the few operations ingest and analysis need:
// replace one source file's named graph, read everything back, and a graph
// version counter.
package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	_ "github.com/cayleygraph/cayley/graph/kv/bbolt" // registers the bbolt backend
	"github.com/cayleygraph/cayley/graph/memstore"
	"github.com/cayleygraph/quad"
)

// MetaGraph is the named graph that holds the store's own bookkeeping.
const MetaGraph = "urn:skillgraph:meta"

// versionSubject and versionPredicate hold the graph version counter.
const (
	versionSubject   = "urn:skillgraph:store"
	versionPredicate = "https://w3id.org/skillgraph/ns#graphVersion"
)

// DefaultStore is the embedded default store URL.
const DefaultStore = "bbolt:./.skillgraph/graph.db"

// Store is a Cayley quad store with skillgraph's bookkeeping. It is safe for
// concurrent use: writers are serialised, and memstore (which has no locking
// of its own) is guarded by the same lock. That lock only covers one
// process; the SQL backends, shared by several processes, rely on database
// transactions instead (see Apply and sqlread.go).
type Store struct {
	url string
	qs  graph.QuadStore
	db  *sql.DB // SQL backends only: the connection pool reads go through
	mu  sync.RWMutex
}

// Open opens (creating if needed) the store named by url: "memory",
// "bbolt:PATH", "postgres:DSN" or "cockroach:DSN" (DSN a URL such as
// postgres://user@host:5432/db?sslmode=disable; a bare postgres:// or
// postgresql:// URL is taken as "postgres:" plus that URL).
func Open(ctx context.Context, url string) (*Store, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return openSQL(ctx, url, "postgres", url)
	}
	kind, arg, _ := strings.Cut(url, ":")
	var (
		qs  graph.QuadStore
		err error
	)
	switch kind {
	case "memory", "mem":
		qs = memstore.New()
	case "bbolt":
		if arg == "" {
			return nil, fmt.Errorf("store %q: bbolt needs a path (bbolt:PATH)", url)
		}
		if err := os.MkdirAll(filepath.Dir(arg), 0o755); err != nil {
			return nil, fmt.Errorf("store %q: %w", url, err)
		}
		opts := graph.Options{"no_bloom": true}
		if err := graph.InitQuadStore("bbolt", arg, opts); err != nil && !errors.Is(err, graph.ErrDatabaseExists) {
			return nil, fmt.Errorf("store %q: init: %w", url, err)
		}
		qs, err = graph.NewQuadStore("bbolt", arg, opts)
		if err != nil {
			return nil, fmt.Errorf("store %q: open: %w", url, err)
		}
	case "postgres", "postgresql", "cockroach":
		if kind == "postgresql" {
			kind = "postgres"
		}
		return openSQL(ctx, url, kind, arg)
	default:
		return nil, fmt.Errorf("store %q: unknown backend %q (want memory, bbolt:PATH, postgres:DSN or cockroach:DSN)", url, kind)
	}
	return &Store{url: url, qs: qs}, nil
}

// URL is the store's URL as given to Open.
func (s *Store) URL() string { return s.url }

// Close closes the store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.qs.Close()
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
	}
	return err
}

// Version returns the graph version counter: 0 for a new store.
func (s *Store) Version(ctx context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.versionLocked(ctx)
}

func (s *Store) versionLocked(ctx context.Context) (int64, error) {
	qs, err := s.graphQuadsLocked(ctx, MetaGraph)
	if err != nil {
		return 0, err
	}
	for _, q := range qs {
		if q.Subject == quad.IRI(versionSubject) && q.Predicate == quad.IRI(versionPredicate) {
			return strconv.ParseInt(literalString(q.Object), 10, 64)
		}
	}
	return 0, nil
}

func literalString(v quad.Value) string {
	switch x := v.(type) {
	case quad.TypedString:
		return string(x.Value)
	case quad.String:
		return string(x)
	case quad.Int:
		return strconv.FormatInt(int64(x), 10)
	}
	return quad.StringOf(v)
}

// GraphQuads returns every quad labelled with the named graph.
func (s *Store) GraphQuads(ctx context.Context, label string) ([]quad.Quad, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.graphQuadsLocked(ctx, label)
}

func (s *Store) graphQuadsLocked(ctx context.Context, label string) ([]quad.Quad, error) {
	var out []quad.Quad
	err := s.scanLocked(ctx, quad.Label, quad.IRI(label), func(q quad.Quad) error {
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read graph %s: %w", label, err)
	}
	return out, nil
}

// Each calls fn for every quad in the store, in no particular order. On the
// SQL backends the quads come from one statement, so from one consistent
// snapshot of the database.
func (s *Store) Each(ctx context.Context, fn func(quad.Quad) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.scanLocked(ctx, quad.Any, nil, fn)
}

// scanLocked calls fn for every quad whose dir is v (every quad when dir is
// quad.Any). The caller holds s.mu.
func (s *Store) scanLocked(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
	if s.db != nil {
		return s.sqlScan(ctx, dir, v, fn)
	}
	var sh iterator.Shape
	if dir == quad.Any {
		sh = s.qs.QuadsAllIterator()
	} else {
		ref, err := s.qs.ValueOf(v)
		if err != nil || ref == nil {
			return nil // nothing stored with that value
		}
		sh = s.qs.QuadIterator(dir, ref)
	}
	it := sh.Iterate()
	defer it.Close()
	for it.Next(ctx) {
		q, err := s.qs.Quad(it.Result())
		if err != nil {
			return fmt.Errorf("read quad: %w", err)
		}
		if err := fn(q); err != nil {
			return err
		}
	}
	return it.Err()
}

// Change replaces the content of one named graph. A nil Quads with Delete
// set removes the graph.
type Change struct {
	Graph  string
	Quads  []quad.Quad
	Delete bool
}

// batchSize bounds one ApplyDeltas call on bbolt: measured there, batches
// of a few thousand quads are fastest. The SQL backends never split a graph's
// change: Cayley's SQL ApplyDeltas is one database transaction, and readers
// in other processes must see each graph either old or new.
const batchSize = 4000

// Apply replaces each changed graph with its new quads — only the difference
// is written — and bumps the graph version once, after every change has been
// committed. Each graph's change is committed in its own transaction (on
// bbolt split only when it exceeds batchSize; on the SQL backends never
// split), so a crash leaves every graph either old or new and the version at
// the last completed ingest. It returns the new version.
//
// One writer at a time: Apply is serialised within a process, but two
// processes applying to one SQL store concurrently may lose a version bump.
func (s *Store) Apply(ctx context.Context, changes []Change) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		old, err := s.graphQuadsLocked(ctx, c.Graph)
		if err != nil {
			return 0, err
		}
		want := make(map[string]quad.Quad, len(c.Quads))
		if !c.Delete {
			for _, q := range c.Quads {
				q.Label = quad.IRI(c.Graph)
				want[key(q)] = q
			}
		}
		var deltas []graph.Delta
		have := make(map[string]bool, len(old))
		for _, q := range old {
			k := key(q)
			have[k] = true
			if _, keep := want[k]; !keep {
				deltas = append(deltas, graph.Delta{Quad: q, Action: graph.Delete})
			}
		}
		for k, q := range want {
			if !have[k] {
				deltas = append(deltas, graph.Delta{Quad: q, Action: graph.Add})
			}
		}
		if err := s.applyLocked(deltas); err != nil {
			return 0, fmt.Errorf("write graph %s: %w", c.Graph, err)
		}
	}
	v, err := s.versionLocked(ctx)
	if err != nil {
		return 0, err
	}
	next := v + 1
	var deltas []graph.Delta
	vq := func(n int64) quad.Quad {
		return quad.Quad{Subject: quad.IRI(versionSubject), Predicate: quad.IRI(versionPredicate),
			Object: quad.Int(n), Label: quad.IRI(MetaGraph)}
	}
	if v > 0 {
		old, _ := s.graphQuadsLocked(ctx, MetaGraph)
		for _, q := range old {
			if q.Subject == quad.IRI(versionSubject) && q.Predicate == quad.IRI(versionPredicate) {
				deltas = append(deltas, graph.Delta{Quad: q, Action: graph.Delete})
			}
		}
	}
	deltas = append(deltas, graph.Delta{Quad: vq(next), Action: graph.Add})
	if err := s.applyLocked(deltas); err != nil {
		return 0, fmt.Errorf("bump graph version: %w", err)
	}
	return next, nil
}

func (s *Store) applyLocked(deltas []graph.Delta) error {
	size := batchSize
	if s.db != nil {
		size = len(deltas)
	}
	for len(deltas) > 0 {
		n := min(len(deltas), size)
		if err := s.qs.ApplyDeltas(deltas[:n], graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); err != nil {
			return err
		}
		deltas = deltas[n:]
	}
	return nil
}

func key(q quad.Quad) string { return q.NQuad() }
