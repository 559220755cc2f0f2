// Package graph keeps skillgraph's quads in a Cayley quad store. It hides the
// backend behind a URL-like option ("memory", "bbolt:PATH", "postgres:DSN";
// each backend a package of graph/backend that registers itself) and offers
// the few operations ingest and analysis need: replace one source file's
// named graph, read everything back, and a graph version counter.
package graph

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// MetaGraph is the named graph that holds the store's own bookkeeping.
const MetaGraph = backend.MetaGraph

// ErrCorrupt marks a store whose files are damaged: bbolt pages that do not
// parse, a truncated file, an invalid meta page. Such a store is never read
// on (a damaged page can make bbolt panic, fault or loop); restore it from a
// backup or delete it and ingest again.
var ErrCorrupt = backend.ErrCorrupt

// DefaultStore is the embedded default store URL.
const DefaultStore = "bbolt:./.skillgraph/graph.db"

// Change replaces the content of one named graph. A nil Quads with Delete
// set removes the graph; Stamp, if set, is recorded as the graph's stamp
// in the same write (see Stamps), and a change without one deletes it.
type Change = backend.Change

// Hooks are the test hooks of a store (see OpenWith).
type Hooks = backend.Hooks

// Store is a Cayley quad store with skillgraph's bookkeeping. It is safe for
// concurrent use: writers are serialised, and memstore (which has no locking
// of its own and even writes caches while reading) is guarded by the same
// lock, taken exclusively for its reads too. That lock only covers one
// process; a backend shared by several processes (PostgreSQL) relies on
// database transactions and locks of its own (see Apply).
type Store struct {
	url string
	b   backend.Backend
	reg *backend.Registration
	// The backend's optional parts (nil: it has none).
	stamper backend.Stamper
	ckpt    backend.Checkpointer
	finder  backend.Finder
	deltas  backend.DeltaReader
	hooks   *backend.Hooks
	mu      sync.RWMutex

	broken atomic.Pointer[error] // a fragile backend: the damage that made the store unusable
	// committed is set once a version above 0 was read or written:
	// versions only grow, so the store is never empty again (see empty).
	committed atomic.Bool
	// brokenCh is closed when the store is found damaged (see Broken).
	brokenCh chan struct{}
	// noCheckpoint makes reads ignore the checkpoint (benchmarks, tests).
	noCheckpoint bool
	// verifier walks a store opened with OpenVerifiedLate (nil: the open
	// walked it, or nothing need be).
	verifier backend.Verifier
}

// readLock locks s for reading and returns the matching unlock.
func (s *Store) readLock() func() {
	if s.reg.ExclusiveReads {
		s.mu.Lock()
		return s.mu.Unlock
	}
	s.mu.RLock()
	return s.mu.RUnlock
}

// Open opens (creating if needed) the store named by url: "memory",
// "bbolt:PATH" or "postgres:DSN" (DSN a URL such as
// postgres://user@host:5432/db?sslmode=disable; a bare postgres:// or
// postgresql:// URL is taken as "postgres:" plus that URL).
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, nil)
}

// OpenVerified is Open for a reader of a store it did not just write (the
// reading commands, a replica): an existing store's every page is read
// and checked before it is used (backend.Hooks.VerifyPages), so damage a
// page header does not show is ErrCorrupt at once rather than when the
// page is read midway through an answer (issue 28.7). It costs one read
// of the file (docs/security.md).
func OpenVerified(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, &Hooks{VerifyPages: true})
}

// OpenVerifiedLate is OpenVerified for a server that must be ready
// before a walk of the whole store could end (issue 27: the walk cost a
// 10k-skill replica's start more than a second): the open checks the
// meta pages, the file's length and the freelist, the checkpoint a warm
// start reads proves itself whole by its checksums and manifest, and every
// other read (and a checkpoint that does not prove itself) waits for the
// walk OpenVerified runs at open (page headers, then every key), which
// Verify starts. Damage it finds closes Broken, as damage found by any
// read does.
func OpenVerifiedLate(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, &Hooks{VerifyLater: true})
}

// Verify walks every page of a store opened with OpenVerifiedLate, once
// (a later call waits for the first and returns its result); on any other
// store it returns nil at once. Damage is ErrCorrupt and closes Broken.
func (s *Store) Verify(ctx context.Context) error { return s.trusted(ctx) }

// trusted is Verify: the methods that read anything but the checkpoint
// call it first (see OpenVerifiedLate).
func (s *Store) trusted(ctx context.Context) error {
	if s.verifier == nil {
		return nil
	}
	err := s.verifier.VerifyStore(ctx)
	s.markCorrupt(err)
	return err
}

// markCorrupt marks s broken when err is ErrCorrupt (the first damage
// found is the one every later call returns).
func (s *Store) markCorrupt(err error) {
	if errors.Is(err, ErrCorrupt) && s.broken.CompareAndSwap(nil, &err) {
		close(s.brokenCh)
	}
}

// OpenWith is Open with test hooks into the backend (nil: none), so a
// test can fail a write half-way or stop at a checkpoint block.
func OpenWith(ctx context.Context, url string, h *Hooks) (*Store, error) {
	reg, arg, err := backend.Lookup(url)
	if err != nil {
		return nil, err
	}
	if h == nil {
		h = &backend.Hooks{}
	}
	b, err := reg.Open(ctx, url, arg, h)
	if err != nil {
		return nil, err
	}
	s := &Store{url: url, b: b, reg: reg, hooks: h, brokenCh: make(chan struct{})}
	s.stamper, _ = b.(backend.Stamper)
	s.ckpt, _ = b.(backend.Checkpointer)
	s.finder, _ = b.(backend.Finder)
	s.deltas, _ = b.(backend.DeltaReader)
	if h.VerifyLater && !h.VerifyPages {
		s.verifier, _ = b.(backend.Verifier)
	}
	return s, nil
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
	return s.b.Close()
}

// Version returns the graph version counter: 0 for a new store.
func (s *Store) Version(ctx context.Context) (v int64, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, err
	}
	defer s.readLock()()
	return backend.Version(ctx, s.b.Scan)
}

// GraphQuads returns every quad labelled with the named graph.
func (s *Store) GraphQuads(ctx context.Context, label string) (_ []quad.Quad, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	if empty, err := s.empty(ctx); empty || err != nil {
		return nil, err
	}
	return s.b.GraphQuads(ctx, label)
}

// empty reports whether the store holds no committed version: version 0
// is an empty store whatever an unfinished first write left in it (issue
// 28.4), so the lookups an ingest plans with (GraphQuads, Stamps,
// HasDigest, SourcesOf) find nothing there, as Read does, and the first
// write is planned whole. Call it with the lock held.
func (s *Store) empty(ctx context.Context) (bool, error) {
	if s.committed.Load() {
		return false, nil
	}
	v, err := backend.Version(ctx, s.b.Scan)
	if err != nil {
		return false, err
	}
	s.noteVersion(v)
	return v == 0, nil
}

// noteVersion records that version v was read or written.
func (s *Store) noteVersion(v int64) {
	if v > 0 {
		s.committed.Store(true)
	}
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
	if fail := s.hooks.FailRead; fail != nil {
		inner, n := fn, 0
		fn = func(q quad.Quad) error {
			if err := fail(n); err != nil {
				return err
			}
			n++
			return inner(q)
		}
	}
	v, fromCheckpoint, err := s.readVersion(ctx, backend.ReadRequest{UseCheckpoint: useCheckpoint, Workers: 1, Blocks: eachQuad(fn), Quad: fn})
	if err == nil && fromCheckpoint {
		err = fn(backend.VersionQuad(v))
	}
	return v, err
}

// eachQuad turns a per-quad callback into the per-graph one the
// checkpoint's blocks are read with (with one worker: fn is called from
// one goroutine, in order).
func eachQuad(fn func(quad.Quad) error) func(string, []quad.Quad) error {
	return func(_ string, qs []quad.Quad) error {
		for _, q := range qs {
			if err := fn(q); err != nil {
				return err
			}
		}
		return nil
	}
}

// ReadGraphs is Read by named graph, for building a snapshot: fn is called
// once for every graph of the current version but the meta graph, with
// all of its quads, and may be called from several goroutines at once
// (the checkpoint's blocks are decoded in parallel, one goroutine per
// CPU). fn must not keep the slice, only the quads in it.
func (s *Store) ReadGraphs(ctx context.Context, fn func(label string, quads []quad.Quad) error) (int64, error) {
	byGraph := map[string][]quad.Quad{}
	v, fromCheckpoint, err := s.readVersion(ctx, backend.ReadRequest{
		UseCheckpoint: !s.noCheckpoint, Workers: runtime.GOMAXPROCS(0), Blocks: fn,
		Quad: func(q quad.Quad) error {
			l, _ := q.Label.(quad.IRI) // "": the default graph
			if string(l) != MetaGraph {
				byGraph[string(l)] = append(byGraph[string(l)], q)
			}
			return nil
		}})
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

// readVersion reads every quad of the current version through the
// backend, under the read lock (see backend.ReadRequest).
func (s *Store) readVersion(ctx context.Context, r backend.ReadRequest) (v int64, fromCheckpoint bool, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, false, err
	}
	defer s.readLock()()
	v, fromCheckpoint, err = s.b.Read(ctx, r)
	s.markCorrupt(err) // a late walk's damage (see OpenVerifiedLate)
	return v, fromCheckpoint, err
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

// Apply replaces each changed graph with its new quads — only the difference
// is written — and bumps the graph version, all as one atomic write: a
// reader (in this process, in one started after a crash, or a replica of a
// shared database) sees every graph of the previous version or every graph
// of the new one, never a mix, and the version it reads names exactly the
// data it reads (SPEC §7, docs/decisions.md "An ingest is one
// transaction"). How each backend makes it atomic is its Apply's doc
// (graph/backend/bolt, graph/backend/postgres, graph/backend/memory).
//
// It returns the new version.
func (s *Store) Apply(ctx context.Context, changes []Change) (v int64, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, err
	}
	if err := s.trusted(ctx); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Apply(ctx, changes)
}

// Stamps are what ingest recorded about the file behind each source graph
// when it last read it (its size and modification time, and those of what
// its parse read elsewhere): opaque bytes to the store, kept beside the
// graphs so that a re-ingest can skip reading a file whose stamp still
// holds (SPEC §3.3, issue #14). The rule that keeps them honest: a stamp is
// written in the same transaction as its graph (Change.Stamp), every other
// write of a graph deletes its stamp, and PutStamps only records stamps for
// graphs whose stored content the caller has just confirmed. A backend
// without stamps (PostgreSQL) returns none: a re-ingest reads every file.
//
// Stamps returns every graph's stamp, by graph label.
func (s *Store) Stamps(ctx context.Context) (_ map[string][]byte, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	if s.stamper == nil {
		return map[string][]byte{}, nil
	}
	if empty, err := s.empty(ctx); empty || err != nil {
		return map[string][]byte{}, err
	}
	return s.stamper.Stamps(ctx)
}

// PutStamps records stamps of graphs that are not changed (an ingest read
// the file and found the stored graph current), without a new graph
// version. A nil stamp deletes the graph's stamp.
func (s *Store) PutStamps(ctx context.Context, stamps map[string][]byte) (err error) {
	if len(stamps) == 0 || s.stamper == nil {
		return nil
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return err
	}
	if err := s.trusted(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stamper.PutStamps(ctx, stamps)
}

// CheckpointCurrent reports whether Read is served from the checkpoint:
// it is stamped with the current version and every block verifies.
func (s *Store) CheckpointCurrent(ctx context.Context) bool {
	v, err := s.Version(ctx)
	if err != nil || s.ckpt == nil {
		return false
	}
	defer s.readLock()()
	return s.ckpt.CheckpointCurrent(ctx, v)
}

// RefreshCheckpoint rebuilds the checkpoint from the store when it is not
// current — stamped with another version, a block damaged or written in an
// older format — and reports whether it did. An ingest that changes
// nothing calls it, so a store written by an older skillgraph gets its
// warm start back without a change to the corpus; the graph version stays.
func (s *Store) RefreshCheckpoint(ctx context.Context) (rebuilt bool, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return false, err
	}
	if err := s.trusted(ctx); err != nil {
		return false, err
	}
	if s.ckpt == nil || s.CheckpointCurrent(ctx) {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ckpt.RefreshCheckpoint(ctx)
}

// HasDigest reports whether the source graph label is stored with exactly
// this digest. It looks the digest value up through the object index, which
// is cheaper than reading the source node when nothing changed.
func (s *Store) HasDigest(ctx context.Context, label, digest string) (_ bool, err error) {
	if digest == "" {
		return false, nil
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return false, err
	}
	if err := s.trusted(ctx); err != nil {
		return false, err
	}
	defer s.readLock()()
	if empty, err := s.empty(ctx); empty || err != nil {
		return false, err
	}
	if s.finder != nil {
		return s.finder.HasDigest(ctx, label, digest)
	}
	return backend.HasDigest(ctx, s.b.Scan, label, digest)
}

// SameDigests reports, for each source graph labels[i], whether it is
// stored with exactly digests[i]: HasDigest for every graph an ingest read,
// under one lock and one damage check (an ingest asks it of every file
// whose stamp did not hold).
func (s *Store) SameDigests(ctx context.Context, labels, digests []string) (_ []bool, err error) {
	if len(labels) != len(digests) {
		return nil, fmt.Errorf("same digests: %d graphs and %d digests", len(labels), len(digests))
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	out := make([]bool, len(labels))
	// Version 0 holds nothing, whatever a killed first write left
	// (HasDigest's rule, issue 28 row 4).
	if empty, err := s.empty(ctx); empty || err != nil {
		return out, err
	}
	for i, label := range labels {
		if digests[i] == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.finder != nil {
			out[i], err = s.finder.HasDigest(ctx, label, digests[i])
		} else {
			out[i], err = backend.HasDigest(ctx, s.b.Scan, label, digests[i])
		}
		if err != nil {
			return nil, fmt.Errorf("read digest of %s: %w", label, err)
		}
	}
	return out, nil
}

// SourcesOf lists the source graphs stored for one instance document IRI.
func (s *Store) SourcesOf(ctx context.Context, docIRI string) (_ []string, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	if empty, err := s.empty(ctx); empty || err != nil {
		return nil, err
	}
	var out []string
	if s.finder != nil {
		out, err = s.finder.SourcesOf(ctx, docIRI)
	} else {
		out, err = backend.SourcesOf(ctx, s.b.Scan, docIRI)
	}
	if err != nil {
		return nil, fmt.Errorf("read sources of %s: %w", docIRI, err)
	}
	slices.Sort(out)
	return out, nil
}

// guard makes the damage a fragile backend (bbolt) finds an error instead
// of a crash (see backend.Protect): the first damage found marks the
// store, and every later call (Close included, which would wait forever
// on the lock of the transaction the panic abandoned) returns the same
// error. Use as `defer s.guard(&err)()` before taking s.mu, so the lock is
// released before the panic is recovered.
func (s *Store) guard(err *error) func() {
	if !s.reg.Fragile {
		return func() {}
	}
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			e := backend.Corruptf("%s: reading it failed: %v", s.url, r)
			if s.broken.CompareAndSwap(nil, &e) {
				close(s.brokenCh)
			}
			*err = *s.broken.Load()
		}
	}
}

// Broken is closed once the store is found damaged, whichever call found
// it: a server reading it for a request then exits (issue 28.7: a replica
// stayed up, unready, for good), and Damaged says why.
func (s *Store) Broken() <-chan struct{} { return s.brokenCh }

// Damaged returns the ErrCorrupt that marked the store, or nil.
func (s *Store) Damaged() error { return s.damaged() }

// damaged returns the error that marked the store, if any.
func (s *Store) damaged() error {
	if p := s.broken.Load(); p != nil {
		return *p
	}
	return nil
}
