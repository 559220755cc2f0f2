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
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	ckv "github.com/cayleygraph/cayley/graph/kv"
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
	url     string
	qs      graph.QuadStore
	db      *sql.DB // SQL backends only: the connection pool reads go through
	sqlKind string  // SQL backends only: "postgres" or "cockroach"
	kv      *txKV   // bbolt only: the KV under Cayley, for whole-ingest transactions
	mu      sync.RWMutex

	broken atomic.Pointer[error] // bbolt: the damage that made the store unusable
	// noCheckpoint makes reads ignore the checkpoint (benchmarks, tests).
	noCheckpoint bool
	// ckptWritten, when set (tests), is called after each checkpoint
	// block is written, before the checkpoint is stamped: the moment a
	// kill leaves a half-written checkpoint behind.
	ckptWritten func()

	exclusiveReads bool              // memstore: readers take mu exclusively
	stamps         map[string][]byte // memstore: the graphs' stamps (see Stamps)
	// ckptWhole is the version at which this process last wrote the bbolt
	// checkpoint whole (0: not known): the next write need not verify
	// every block again (the file lock keeps other writers out; readers
	// still verify what they read).
	ckptWhole atomic.Int64
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
	switch kind {
	case "memory", "mem":
		// memstore has no locking of its own and writes caches on reads.
		return &Store{url: url, qs: memstore.New(), exclusiveReads: true}, nil
	case "bbolt":
		if arg == "" {
			return nil, fmt.Errorf("store %q: bbolt needs a path (bbolt:PATH)", url)
		}
		if err := os.MkdirAll(filepath.Dir(arg), 0o755); err != nil {
			return nil, fmt.Errorf("store %q: %w", url, err)
		}
		qs, kv, err := openBolt(arg)
		if err != nil {
			return nil, fmt.Errorf("store %q: %w", url, err)
		}
		return &Store{url: url, qs: qs, kv: kv}, nil
	case "postgres", "postgresql", "cockroach":
		if kind == "postgresql" {
			kind = "postgres"
		}
		return openSQL(ctx, url, kind, arg)
	default:
		return nil, fmt.Errorf("store %q: unknown backend %q (want memory, bbolt:PATH, postgres:DSN or cockroach:DSN)", url, kind)
	}
}

// URL is the store's URL as given to Open.
func (s *Store) URL() string { return s.url }

// Close closes the store. A store found damaged is left as it is: the
// transaction bbolt was in when it failed still holds its locks, so closing
// would wait forever; the process is about to report the damage and exit.
func (s *Store) Close() error {
	if s.damaged() != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.qs.Close()
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
	}
	return err
}

// Version returns the graph version counter: 0 for a new store.
func (s *Store) Version(ctx context.Context) (v int64, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, err
	}
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
func (s *Store) GraphQuads(ctx context.Context, label string) (_ []quad.Quad, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
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
// the subject registry (bookkeeping of the kv backends). See Read.
func (s *Store) Each(ctx context.Context, fn func(quad.Quad) error) error {
	_, err := s.Read(ctx, fn)
	return err
}

// Read calls fn for every quad of the store's current graph version, in no
// particular order, except the subject registry (bookkeeping of the kv
// backends), and returns that version: the quads are exactly those the
// version names, even while another process ingests (SPEC §7). The quads
// come from the checkpoint when it is stamped with the current version,
// else from the store itself.
func (s *Store) Read(ctx context.Context, fn func(quad.Quad) error) (int64, error) {
	return s.read(ctx, fn, !s.noCheckpoint)
}

// ReadStore is Read from the store's own indexes, never the checkpoint:
// the reference the checkpoint is checked against.
func (s *Store) ReadStore(ctx context.Context, fn func(quad.Quad) error) (int64, error) {
	return s.read(ctx, fn, false)
}

func (s *Store) read(ctx context.Context, fn func(quad.Quad) error, useCheckpoint bool) (int64, error) {
	v, fromCheckpoint, err := s.readVersion(ctx, useCheckpoint, 1, eachQuad(fn), fn)
	if err == nil && fromCheckpoint {
		err = fn(versionQuad(v))
	}
	return v, err
}

// ReadGraphs is Read by named graph, for building a snapshot: fn is called
// once for every graph of the current version but the meta graph, with
// all of its quads, and may be called from several goroutines at once
// (the checkpoint's blocks are decoded in parallel, one goroutine per
// CPU). fn must not keep the slice, only the quads in it.
func (s *Store) ReadGraphs(ctx context.Context, fn func(label string, quads []quad.Quad) error) (int64, error) {
	byGraph := map[string][]quad.Quad{}
	v, fromCheckpoint, err := s.readVersion(ctx, !s.noCheckpoint, runtime.GOMAXPROCS(0), fn, func(q quad.Quad) error {
		l, _ := q.Label.(quad.IRI) // "": the default graph
		if string(l) != MetaGraph {
			byGraph[string(l)] = append(byGraph[string(l)], q)
		}
		return nil
	})
	if err != nil || fromCheckpoint {
		return v, err
	}
	for _, l := range slices.Sorted(maps.Keys(byGraph)) {
		if err := fn(l, byGraph[l]); err != nil {
			return v, err
		}
	}
	return v, nil
}

// readVersion reads every quad of the current version: from the
// checkpoint when useCheckpoint is set and it is current (each block's
// quads to blocks, on up to workers goroutines), else from the store (each
// quad to scan, on this goroutine).
func (s *Store) readVersion(ctx context.Context, useCheckpoint bool, workers int, blocks func(string, []quad.Quad) error, scan func(quad.Quad) error) (v int64, fromCheckpoint bool, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, false, err
	}
	defer s.readLock()()
	if s.db != nil { // one REPEATABLE READ transaction: version and quads agree
		return s.readSQL(ctx, useCheckpoint, workers, blocks, scan)
	}
	// bbolt: other processes cannot write (the file lock), and Apply holds
	// s.mu, so the version and the quads read under the lock agree.
	if v, err = s.versionLocked(ctx); err != nil {
		return 0, false, err
	}
	if v == 0 {
		return 0, false, nil // nothing committed: at most an unfinished first ingest (see writeKV)
	}
	if useCheckpoint {
		if ok, err := s.readCheckpointKV(ctx, v, workers, blocks); ok || err != nil {
			return v, ok, err
		}
	}
	return v, false, s.scanLocked(ctx, quad.Any, nil, func(q quad.Quad) error {
		if q.Predicate == quad.IRI(registryPredicate) && q.Label == quad.IRI(MetaGraph) {
			return nil
		}
		return scan(q)
	})
}

// scanLocked calls fn for every quad whose dir is v (every quad when dir is
// quad.Any). The caller holds s.mu.
func (s *Store) scanLocked(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
	if s.db != nil {
		return sqlScan(ctx, s.db, dir, v, fn)
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
	// Stamp, if set, is recorded as the graph's stamp in the same write
	// (see Stamps); a change without one deletes the graph's stamp.
	Stamp []byte
}

// ChangesOf makes one writing Change per graph of byGraph, in graph-name
// order, so a write from a file read back (import, loadnq) is the same
// whatever order the file listed its graphs in.
func ChangesOf(byGraph map[string][]quad.Quad) []Change {
	changes := make([]Change, 0, len(byGraph))
	for _, g := range slices.Sorted(maps.Keys(byGraph)) {
		changes = append(changes, Change{Graph: g, Quads: byGraph[g]})
	}
	return changes
}

// batchSize bounds one ApplyDeltas call on bbolt and memstore (all calls of
// an ingest share one bbolt transaction): Cayley's kv ApplyDeltas buffers
// a call's index updates in maps, and calls of a few thousand deltas were
// measured fastest. The SQL backends never split: one call is one
// database transaction.
const batchSize = 4000

// kvOptions are the options of Cayley's kv QuadStore over bbolt.
var kvOptions = graph.Options{"no_bloom": true}

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
// is written — and bumps the graph version, all as one atomic write: a
// reader (in this process, in one started after a crash, or a replica of a
// shared database) sees every graph of the previous version or every graph
// of the new one, never a mix, and the version it reads names exactly the
// data it reads (SPEC §7, docs/decisions.md "An ingest is one
// transaction").
//
//   - bbolt: every ApplyDeltas call of the ingest, the version bump and the
//     checkpoint run inside one bbolt write transaction (txKV), committed
//     once at the end; a crash, a full disk or a cancelled context before
//     that commit leaves the file as it was.
//   - PostgreSQL: every delta and the version bump go to Cayley in one
//     ApplyDeltas call, which is one database transaction; writers in other
//     processes are serialised by an advisory lock held for the whole
//     Apply, so each reads the version its predecessor committed.
//   - memory: all deltas are computed before the first is applied.
//
// It returns the new version.
func (s *Store) Apply(ctx context.Context, changes []Change) (v int64, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil && s.sqlKind == "postgres" {
		unlock, err := s.lockWriter(ctx)
		if err != nil {
			return 0, err
		}
		defer unlock()
	}
	dels, adds, err := s.planLocked(ctx, changes)
	if err != nil {
		return 0, err
	}
	// The version bump: its old quad (read back as stored) out, the next in.
	old, err := s.versionLocked(ctx)
	if err != nil {
		return 0, err
	}
	next := old + 1
	meta, err := s.graphQuadsLocked(ctx, MetaGraph)
	if err != nil {
		return 0, err
	}
	for _, q := range meta {
		if q.Subject == quad.IRI(versionSubject) && q.Predicate == quad.IRI(versionPredicate) {
			dels = append(dels, graph.Delta{Quad: q, Action: graph.Delete})
		}
	}
	adds = append(adds, graph.Delta{Quad: quad.Quad{Subject: quad.IRI(versionSubject), Predicate: quad.IRI(versionPredicate),
		Object: quad.Int(next), Label: quad.IRI(MetaGraph)}, Action: graph.Add})
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	switch {
	case s.db != nil:
		// One call, one database transaction, however large.
		if err := s.applyDeltas(append(dels, adds...)); err != nil {
			return 0, fmt.Errorf("write graphs: %w", err)
		}
		_ = s.writeCheckpointSQL(ctx, old, next, changes) // see writeCheckpointSQL: replicas then read the store
	case s.kv != nil:
		if err := s.writeKV(ctx, old, next, dels, adds, changes); err != nil {
			return 0, err
		}
	default: // memory: nothing can fail half-way
		if err := s.writeBatches(context.Background(), dels, adds); err != nil {
			return 0, fmt.Errorf("write graphs: %w", err)
		}
		s.putStampsMemory(changeStamps(changes))
	}
	return next, nil
}

// planLocked computes the deltas of every change from the stored graphs:
// the quads to delete, the quads to add (the kv backends' subject registry
// included).
func (s *Store) planLocked(ctx context.Context, changes []Change) (dels, adds []graph.Delta, err error) {
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		old, err := s.graphQuadsLocked(ctx, c.Graph)
		if err != nil {
			return nil, nil, err
		}
		want := make(map[string]quad.Quad, len(c.Quads))
		if !c.Delete {
			for _, q := range c.Quads {
				q.Label = quad.IRI(c.Graph)
				want[key(q)] = q
			}
		}
		have := make(map[string]bool, len(old))
		for _, q := range old {
			k := key(q)
			have[k] = true
			if _, keep := want[k]; !keep {
				dels = append(dels, graph.Delta{Quad: q, Action: graph.Delete})
			}
		}
		for k, q := range want {
			if !have[k] {
				adds = append(adds, graph.Delta{Quad: q, Action: graph.Add})
			}
		}
		reg, err := s.registryDeltas(ctx, c.Graph, want)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range reg {
			if d.Action == graph.Delete {
				dels = append(dels, d)
			} else {
				adds = append(adds, d)
			}
		}
	}
	return dels, adds, nil
}

// writeBatches applies every delete, then every add, in calls of at most
// batchSize deltas. Cayley's kv ApplyDeltas resolves the nodes of added
// quads only among the nodes whose reference count does not drop in that
// call: a value that loses more quads than it gains (typically the graph's
// label when a graph shrinks) is silently left out of every added quad,
// which then lands in no graph. A call of deletes only or of adds only
// never hits that. On bbolt all calls share the ingest transaction,
// so the order inside it is invisible to readers.
func (s *Store) writeBatches(ctx context.Context, dels, adds []graph.Delta) error {
	for _, part := range [][]graph.Delta{dels, adds} {
		for len(part) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			n := min(len(part), batchSize)
			if err := s.applyDeltas(part[:n]); err != nil {
				return err
			}
			part = part[n:]
		}
	}
	return nil
}

// anyBlockLocked reports whether a bbolt store holds any checkpoint block.
func (s *Store) anyBlockLocked(ctx context.Context) bool {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return true // unknown: not the first write's to take
	}
	defer tx.Close()
	blocks, ok := kvBlocks(ctx, tx)
	return !ok || len(blocks) > 0
}

// anyQuadLocked reports whether the store holds any quad at all.
func (s *Store) anyQuadLocked(ctx context.Context) bool {
	it := s.qs.QuadsAllIterator().Iterate()
	defer it.Close()
	return it.Next(ctx)
}

// coldCommit is the number of deltas per bbolt transaction of a first
// ingest (see writeKV).
var coldCommit = 4 * batchSize // a variable for tests

// writeCold commits all but the last coldCommit of the deltas of a first
// ingest, in transactions of coldCommit, and returns the rest.
func (s *Store) writeCold(ctx context.Context, dels, adds []graph.Delta) ([]graph.Delta, []graph.Delta, error) {
	for _, part := range []*[]graph.Delta{&dels, &adds} {
		for len(*part) > coldCommit {
			chunk := (*part)[:coldCommit]
			if err := s.commitChunk(ctx, chunk, part == &dels, nil); err != nil {
				return nil, nil, err
			}
			*part = (*part)[coldCommit:]
			_ = s.kv.dropMapped() // see FirstWriter.step
		}
	}
	return dels, adds, nil
}

// commitChunk writes deltas (all deletes or all adds) in a bbolt
// transaction of their own, with blocks (checkpoint blocks of a first
// write, see FirstWriter.step).
func (s *Store) commitChunk(ctx context.Context, deltas []graph.Delta, isDel bool, blocks []block) (err error) {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	defer func() {
		if err != nil {
			s.kv.abort()
			if qs, rerr := ckv.New(s.kv, kvOptions); rerr == nil {
				s.qs = qs
			}
		}
	}()
	if isDel {
		err = s.writeBatches(ctx, deltas, nil)
	} else {
		err = s.writeBatches(ctx, nil, deltas)
	}
	if err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	if len(blocks) > 0 {
		tx, _ := s.kv.Tx(ctx, true) // the step's transaction
		for _, b := range blocks {
			if err = tx.Put(ctx, ckptKey([]byte(b.label)), b.data); err != nil {
				return fmt.Errorf("write checkpoint: %w", err)
			}
		}
	}
	return s.kv.commit(ctx)
}

// writeKV writes an ingest to bbolt as one transaction. On any failure the
// transaction is rolled back and Cayley's QuadStore is reopened over the
// unchanged file: it caches values by node id, and the ids handed out in
// the rolled-back transaction will be handed out again.
func (s *Store) writeKV(ctx context.Context, old, next int64, dels, adds []graph.Delta, changes []Change) (err error) {
	// Quads in a store at version 0 are what a failed first ingest left:
	// the checkpoint must then be built from the store, not from changes.
	leftovers := old == 0 && s.anyQuadLocked(ctx)
	if old == 0 {
		// The first ingest into an empty store: bbolt keeps a transaction's
		// new keys in memory nodes it splits only at commit, so one
		// transaction of a million quads into empty buckets inserts into
		// one ever larger node (quadratic: a 10k-skill first ingest did not
		// finish in 15 minutes; steps of 160 000 still cost 1.6x the CPU of
		// 16 000 at 1k skills). With nothing to preserve, its quads are
		// committed in steps of coldCommit deltas; Read serves nothing at
		// version 0, so a crash half-way shows an empty store, and the next
		// ingest writes the difference. The version bump and the
		// checkpoint still commit together, last.
		var err error
		if dels, adds, err = s.writeCold(ctx, dels, adds); err != nil {
			return err
		}
	}
	blocks, err := blocksOf(changes)
	if err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	return s.finishKV(ctx, old, next, dels, adds, changeStamps(changes), blocks, 0, leftovers)
}

// finishKV is the last transaction of an ingest into bbolt: the deltas
// left, the stamps, the checkpoint and so the version bump, committed
// together or not at all. stamps are the changed graphs' stamps (nil:
// deleted), blocks their checkpoint blocks and own the number of blocks
// this ingest's steps wrote already (see writeCheckpointKV). leftovers
// says the store held quads at version 0 before the ingest (see writeKV).
func (s *Store) finishKV(ctx context.Context, old, next int64, dels, adds []graph.Delta, stamps map[string][]byte, blocks []block, own int, leftovers bool) (err error) {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	defer func() {
		if err == nil {
			return
		}
		s.kv.abort()
		if qs, rerr := ckv.New(s.kv, kvOptions); rerr == nil {
			s.qs = qs
		} else {
			err = errors.Join(err, fmt.Errorf("reopen after a failed write: %w", rerr))
		}
	}()
	if err := s.writeBatches(ctx, dels, adds); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	tx, _ := s.kv.Tx(ctx, true) // the ingest transaction
	if err := putStamps(ctx, tx, stamps); err != nil {
		return fmt.Errorf("write stamps: %w", err)
	}
	if err := s.writeCheckpointKV(ctx, old, next, blocks, own, leftovers); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.kv.commit(ctx); err != nil {
		return fmt.Errorf("commit graphs: %w", err)
	}
	s.ckptWhole.Store(next)
	return nil
}
func (s *Store) applyDeltas(deltas []graph.Delta) error {
	if len(deltas) == 0 {
		return nil
	}
	return s.qs.ApplyDeltas(deltas, graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true})
}

func key(q quad.Quad) string { return q.NQuad() }
