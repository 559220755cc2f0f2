package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"
)

// FirstWriter writes the first ingest into an empty bbolt store while the
// ingest is still converting files: the changes are handed over as they
// are converted (Add) and their quads committed in steps of coldCommit
// deltas, and Commit then writes the rest, the version bump, the stamps
// and the checkpoint in one last transaction. It is the step path of
// writeKV, fed by a stream instead of a finished list, so the durable
// write costs the longer of conversion and write instead of their sum
// (issue #14).
//
// Crash safety is that of the step path: the version stays 0 until
// Commit's last transaction, Read serves nothing at version 0, so a crash,
// a conversion error or a cancel before Commit leaves an empty store to
// every reader (the steps' quads stay in the file and the next ingest
// writes the difference, as after a crash today).
//
// While a FirstWriter is open it holds the store's lock: every other call
// on the store waits for Commit or Abort. Its methods must not be called
// concurrently.
type FirstWriter struct {
	s       *Store
	pending []graph.Delta // planned adds not yet committed
	steps   int
	closed  bool
	err     error // the first failure: later calls return it
}

// BeginFirst opens a FirstWriter when s is a bbolt store at version 0
// that holds no quad at all (nothing to compare with, nothing to keep);
// otherwise it returns nil, and the caller writes with Apply.
func (s *Store) BeginFirst(ctx context.Context) (w *FirstWriter, err error) {
	defer s.guard(&err)()
	if s.kv == nil {
		return nil, nil
	}
	if err := s.damaged(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	v, err := s.versionLocked(ctx)
	if err != nil || v != 0 || s.anyQuadLocked(ctx) {
		s.mu.Unlock()
		return nil, err
	}
	return &FirstWriter{s: s}, nil
}

// firstDeltas are the deltas of a change into a store that holds none of
// its graph: what planLocked gives for a graph with no stored quads (its
// distinct quads and their subjects' registry), without reading the store.
func firstDeltas(c Change) []graph.Delta {
	if c.Delete {
		return nil // nothing stored to delete
	}
	seen := make(map[string]bool, len(c.Quads))
	subjects := map[string]quad.Value{}
	out := make([]graph.Delta, 0, len(c.Quads)+8)
	for _, q := range c.Quads {
		q.Label = quad.IRI(c.Graph)
		k := key(q)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, graph.Delta{Quad: q, Action: graph.Add})
		if q.Subject != quad.IRI(c.Graph) {
			subjects[quad.ToString(q.Subject)] = q.Subject
		}
	}
	for _, subj := range subjects {
		out = append(out, graph.Delta{Quad: quad.Quad{Subject: quad.IRI(c.Graph), Predicate: quad.IRI(registryPredicate),
			Object: subj, Label: quad.IRI(MetaGraph)}, Action: graph.Add})
	}
	return out
}

// Add plans changes (each a graph not yet handed to w) and commits every
// full step of coldCommit deltas.
func (w *FirstWriter) Add(ctx context.Context, changes []Change) (err error) {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("first ingest writer is closed")
	}
	defer w.s.guard(&err)()
	defer func() {
		if err != nil {
			w.err = err
		}
	}()
	for _, c := range changes {
		if c.Graph == MetaGraph {
			return fmt.Errorf("write graphs: %s is the store's own graph", MetaGraph)
		}
		w.pending = append(w.pending, firstDeltas(c)...)
	}
	for len(w.pending) > coldCommit {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.s.commitChunk(ctx, w.pending[:coldCommit], false); err != nil {
			return err
		}
		w.pending = w.pending[coldCommit:]
		w.steps++
	}
	return nil
}

// Steps is the number of step transactions committed so far.
func (w *FirstWriter) Steps() int { return w.steps }

// Commit writes what is left of the ingest, its stamps, the checkpoint of
// changes (every change of the ingest, each one handed to Add) and the
// version bump to 1 in one transaction, releases the store and returns
// the new version.
func (w *FirstWriter) Commit(ctx context.Context, changes []Change) (v int64, err error) {
	if w.closed {
		return 0, errors.New("first ingest writer is closed")
	}
	defer w.close()
	if w.err != nil {
		return 0, w.err
	}
	defer w.s.guard(&err)()
	adds := append(w.pending, graph.Delta{Quad: versionQuad(1), Action: graph.Add})
	w.pending = nil
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := w.s.finishKV(ctx, 0, 1, nil, adds, changes, false); err != nil {
		return 0, err
	}
	return 1, nil
}

// Abort releases the store without committing a version: the steps
// already committed stay unserved (version 0). It does nothing after
// Commit or a previous Abort.
func (w *FirstWriter) Abort() {
	if !w.closed {
		w.close()
	}
}

func (w *FirstWriter) close() {
	w.closed = true
	w.pending = nil
	w.s.mu.Unlock()
}
