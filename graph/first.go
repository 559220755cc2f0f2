package graph

import (
	"context"
	"errors"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// FirstWriter writes the first ingest into an empty store while the
// ingest is still converting files: the changes are handed over as they
// are converted (Add) and their quads committed in steps, and Commit then
// writes the rest, the version bump, the stamps and the checkpoint in one
// last transaction. Add keeps only what Commit needs of each change (its
// stamp and its compact checkpoint block, a twentieth of its quads'
// memory), so the caller may drop a change's quads once Add returns: a
// first write then never holds them all, and the durable write costs the
// longer of conversion and write instead of their sum (issue #14). Only a
// backend that can (backend.FirstWriting: bbolt) offers one.
//
// Crash safety is that of Apply's first write: the version stays 0 until
// Commit's last transaction, Read serves nothing at version 0, so a crash,
// a conversion error or a cancel before Commit leaves an empty store to
// every reader (the steps' quads stay in the file and the next ingest
// writes the difference).
//
// While a FirstWriter is open it holds the store's lock: every other call
// on the store waits for Commit or Abort. Its methods must not be called
// concurrently.
type FirstWriter struct {
	s      *Store
	w      backend.FirstWriter
	closed bool
}

// Packed is one change of a first ingest in the checkpoint's compact form
// (see backend.Packed and AddPacked).
type Packed = backend.Packed

// Pack is c in compact form, for AddPacked.
func Pack(c Change) (Packed, error) { return backend.Pack(c) }

// BeginFirst opens a FirstWriter when s's backend writes first ingests in
// steps and s is at version 0 and holds no quad at all (nothing to compare
// with, nothing to keep); otherwise it returns nil, and the caller writes
// with Apply.
func (s *Store) BeginFirst(ctx context.Context) (w *FirstWriter, err error) {
	defer s.guard(&err)()
	fw, ok := s.b.(backend.FirstWriting)
	if !ok {
		return nil, nil
	}
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	bw, err := fw.BeginFirst(ctx)
	if err != nil || bw == nil {
		s.mu.Unlock()
		return nil, err
	}
	return &FirstWriter{s: s, w: bw}, nil
}

// Add plans changes (each a graph not yet handed to w) and commits every
// full step.
func (w *FirstWriter) Add(ctx context.Context, changes []Change) (err error) {
	defer w.s.guard(&err)()
	return w.w.Add(ctx, changes)
}

// AddPacked is Add for packed changes: each is decoded from its block.
func (w *FirstWriter) AddPacked(ctx context.Context, changes []Packed) (err error) {
	defer w.s.guard(&err)()
	return w.w.AddPacked(ctx, changes)
}

// Steps is the number of step transactions committed so far.
func (w *FirstWriter) Steps() int { return w.w.Steps() }

// Commit writes what is left of the ingest, the stamps and checkpoint of
// every change handed to Add, and the version bump to 1 in one
// transaction, releases the store and returns the new version.
func (w *FirstWriter) Commit(ctx context.Context) (v int64, err error) {
	if w.closed {
		return 0, errors.New("first ingest writer is closed")
	}
	defer w.close()
	defer w.s.guard(&err)()
	return w.w.Commit(ctx)
}

// Abort releases the store without committing a version: the steps
// already committed stay unserved (version 0). It does nothing after
// Commit or a previous Abort.
func (w *FirstWriter) Abort() {
	if !w.closed {
		w.w.Abort()
		w.close()
	}
}

func (w *FirstWriter) close() {
	w.closed = true
	w.s.mu.Unlock()
}
