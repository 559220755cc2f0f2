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

// ErrStoreBusy is returned when another process holds a bbolt store.
var ErrStoreBusy = errors.New("the bbolt store is in use by another process")

// DefaultStore is the embedded default store URL.
const DefaultStore = "bbolt:./.skillgraph/graph.db"

// Store is a Cayley quad store with skillgraph's bookkeeping. It is safe for
// concurrent use: writers are serialised, and memstore (which has no locking
// of its own and even writes caches while reading) is guarded by the same
// lock, taken exclusively for its reads too. That lock only covers one
// process; the SQL backends, shared by several processes, rely on database
// transactions instead (see Apply and sqlread.go).
type Store struct {
	url string
	qs  graph.QuadStore
	db  *sql.DB // SQL backends only: the connection pool reads go through
	mu  sync.RWMutex

	exclusiveReads bool // memstore: readers take mu exclusively
}

// readLock locks s for reading and returns the matching unlock.
func (s *Store) readLock() func() {
	if s.exclusiveReads {
		s.mu.Lock()
		return s.mu.Unlock
	}
	s.mu.RLock()
	return s.mu.RUnlock
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
		if err := checkNotLocked(arg); err != nil {
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
	_, mem := qs.(*memstore.QuadStore)
	return &Store{url: url, qs: qs, exclusiveReads: mem}, nil
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
	defer s.readLock()()
	return s.versionLocked(ctx)
}

func (s *Store) versionLocked(ctx context.Context) (int64, error) {
	var v int64
	var perr error
	err := s.scanLocked(ctx, quad.Subject, quad.IRI(versionSubject), func(q quad.Quad) error {
		if q.Label == quad.IRI(MetaGraph) && q.Predicate == quad.IRI(versionPredicate) {
			v, perr = strconv.ParseInt(literalString(q.Object), 10, 64)
		}
		return nil
	})
	if err == nil {
		err = perr
	}
	return v, err
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
	defer s.readLock()()
	return s.graphQuadsLocked(ctx, label)
}

func (s *Store) graphQuadsLocked(ctx context.Context, label string) ([]quad.Quad, error) {
	var out []quad.Quad
	keep := func(q quad.Quad) error {
		out = append(out, q)
		return nil
	}
	if s.db != nil { // SQL: indexed by label
		if err := s.scanLocked(ctx, quad.Label, quad.IRI(label), keep); err != nil {
			return nil, fmt.Errorf("read graph %s: %w", label, err)
		}
		return out, nil
	}
	// Cayley's kv backends keep no label index: a label lookup scans the
	// whole store, which made every per-file read O(store). Apply keeps a
	// registry of each graph's subjects in the meta graph, so the graph's
	// quads come from the subject index instead.
	subjects, err := s.graphSubjectsLocked(ctx, label)
	if err != nil {
		return nil, err
	}
	for _, subj := range subjects {
		err := s.scanLocked(ctx, quad.Subject, subj, func(q quad.Quad) error {
			if q.Label == quad.IRI(label) {
				out = append(out, q)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read graph %s: %w", label, err)
		}
	}
	return out, nil
}

// Each calls fn for every quad in the store, in no particular order, except
// the subject registry (bookkeeping of the kv backends). On the SQL
// backends the quads come from one statement, so from one consistent
// snapshot of the database.
func (s *Store) Each(ctx context.Context, fn func(quad.Quad) error) error {
	defer s.readLock()()
	return s.scanLocked(ctx, quad.Any, nil, func(q quad.Quad) error {
		if q.Predicate == quad.IRI(registryPredicate) && q.Label == quad.IRI(MetaGraph) {
			return nil
		}
		return fn(q)
	})
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

// registryPredicate links a graph label to each subject of the graph, in
// the meta graph (kv backends only, which have no label index).
const registryPredicate = "https://w3id.org/skillgraph/ns#graphSubject"

// graphSubjectsLocked lists the subjects of a graph on a kv backend: the
// label itself (a source file's metadata node) and the registered ones.
func (s *Store) graphSubjectsLocked(ctx context.Context, label string) ([]quad.Value, error) {
	if label == MetaGraph {
		return []quad.Value{quad.IRI(versionSubject)}, nil
	}
	out := []quad.Value{quad.IRI(label)}
	err := s.scanLocked(ctx, quad.Subject, quad.IRI(label), func(q quad.Quad) error {
		if q.Label == quad.IRI(MetaGraph) && q.Predicate == quad.IRI(registryPredicate) && q.Object != quad.IRI(label) {
			out = append(out, q.Object)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read subjects of %s: %w", label, err)
	}
	return out, nil
}

// registryDeltas keeps the subject registry of one graph in step with its
// new content, in the same write as the content.
func (s *Store) registryDeltas(ctx context.Context, label string, want map[string]quad.Quad) ([]graph.Delta, error) {
	if s.db != nil || label == MetaGraph {
		return nil, nil
	}
	old, err := s.graphSubjectsLocked(ctx, label)
	if err != nil {
		return nil, err
	}
	reg := func(subj quad.Value) quad.Quad {
		return quad.Quad{Subject: quad.IRI(label), Predicate: quad.IRI(registryPredicate), Object: subj, Label: quad.IRI(MetaGraph)}
	}
	next := map[string]quad.Value{}
	for _, q := range want {
		if q.Subject != quad.IRI(label) {
			next[quad.ToString(q.Subject)] = q.Subject
		}
	}
	had := map[string]bool{}
	var deltas []graph.Delta
	for _, subj := range old[1:] {
		k := quad.ToString(subj)
		had[k] = true
		if _, keep := next[k]; !keep {
			deltas = append(deltas, graph.Delta{Quad: reg(subj), Action: graph.Delete})
		}
	}
	for k, subj := range next {
		if !had[k] {
			deltas = append(deltas, graph.Delta{Quad: reg(subj), Action: graph.Add})
		}
	}
	return deltas, nil
}

// Apply replaces each changed graph with its new quads — only the difference
// is written — and bumps the graph version once, after every change has been
// committed. Changes of several small graphs share a transaction of up to
// batchSize deltas; a graph's change is never split across them (on the
// SQL backends never split; on bbolt split into deletes, then adds, when it
// exceeds batchSize or would hit a Cayley kv bug, see kvSafe), so a crash
// leaves every graph old, new or — bbolt only — without its digest, and the
// version at the last completed ingest. It returns the new version.
//
// One writer at a time: Apply is serialised within a process, but two
// processes applying to one SQL store concurrently may lose a version bump.
func (s *Store) Apply(ctx context.Context, changes []Change) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var pending []graph.Delta
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
		reg, err := s.registryDeltas(ctx, c.Graph, want)
		if err != nil {
			return 0, err
		}
		deltas = append(deltas, reg...)
		// Small changes of several graphs share one transaction (a commit
		// costs an fsync on bbolt); a graph is never split across pending
		// batches, so each graph stays old or new.
		merged := append(append([]graph.Delta(nil), pending...), deltas...)
		if len(merged) <= batchSize && kvSafe(merged) {
			pending = merged
			continue
		}
		if err := s.applyLocked(pending); err != nil {
			return 0, fmt.Errorf("write graphs: %w", err)
		}
		pending = nil
		if len(deltas) <= batchSize && kvSafe(deltas) {
			pending = deltas
			continue
		}
		if err := s.applyLocked(deltas); err != nil {
			return 0, fmt.Errorf("write graph %s: %w", c.Graph, err)
		}
	}
	if err := s.applyLocked(pending); err != nil {
		return 0, fmt.Errorf("write graphs: %w", err)
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
	if s.db != nil { // SQL: one transaction per call, whatever its size
		return s.applyDeltas(deltas)
	}
	if len(deltas) <= batchSize && kvSafe(deltas) {
		return s.applyDeltas(deltas)
	}
	// Deletes first, then adds, each in batches: a crash in between leaves
	// the graph without its digest quad, so the next ingest rewrites it.
	var dels, adds []graph.Delta
	for _, d := range deltas {
		if d.Action == graph.Delete {
			dels = append(dels, d)
		} else {
			adds = append(adds, d)
		}
	}
	for _, part := range [][]graph.Delta{dels, adds} {
		for len(part) > 0 {
			n := min(len(part), batchSize)
			if err := s.applyDeltas(part[:n]); err != nil {
				return err
			}
			part = part[n:]
		}
	}
	return nil
}

func (s *Store) applyDeltas(deltas []graph.Delta) error {
	if len(deltas) == 0 {
		return nil
	}
	return s.qs.ApplyDeltas(deltas, graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true})
}

// kvSafe reports whether Cayley's kv backends (bbolt) apply deltas
// correctly in one call. Their ApplyDeltas resolves the nodes of added quads
// only among the nodes whose reference count does not drop in that call: a
// value that loses more quads than it gains (typically the graph's label
// when a graph shrinks) is silently left out of every added quad, which then
// lands in no graph. Such a batch must be split into deletes, then adds.
func kvSafe(deltas []graph.Delta) bool {
	net := make(map[quad.Value]int)
	for _, d := range deltas {
		n := 1
		if d.Action == graph.Delete {
			n = -1
		}
		for _, dir := range quad.Directions {
			if v := d.Quad.Get(dir); v != nil {
				net[v] += n
			}
		}
	}
	for _, d := range deltas {
		if d.Action != graph.Add {
			continue
		}
		for _, dir := range quad.Directions {
			if v := d.Quad.Get(dir); v != nil && net[v] < 0 {
				return false
			}
		}
	}
	return true
}

func key(q quad.Quad) string { return q.NQuad() }
