package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// FirstWriter writes the first ingest into an empty bbolt store while the
// ingest is still converting files: the changes are handed over as they
// are converted (Add) and their quads committed in steps of coldCommit
// deltas, and Commit then writes the rest, the version bump, the stamps
// and the checkpoint in one last transaction. Add keeps only what Commit
// needs of each change (its stamp and its compact checkpoint block, a
// twentieth of its quads' memory), so the caller may drop a change's
// quads once Add returns: a first write then never holds them all. It is the step path of
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
	stamps  map[string][]byte
	blocks  []block // the checkpoint blocks of the changes added, not written yet
	written int     // blocks written by the steps
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
	if err != nil || v != 0 || s.anyQuadLocked(ctx) || s.anyBlockLocked(ctx) {
		s.mu.Unlock()
		return nil, err
	}
	return &FirstWriter{s: s, stamps: map[string][]byte{}}, nil
}

// firstDeltas are the deltas of a change into a store that holds none of
// its graph: what planLocked gives for a graph with no stored quads (its
// distinct quads and their subjects' registry), without reading the store.
// distinct says c's quads are known distinct and labelled (decoded from
// its block), so they need no comparing.
func firstDeltas(c Change, distinct bool) []graph.Delta {
	if c.Delete {
		return nil // nothing stored to delete
	}
	var seen map[string]bool
	if !distinct {
		seen = make(map[string]bool, len(c.Quads))
	}
	subjects := map[string]quad.Value{}
	out := make([]graph.Delta, 0, len(c.Quads)+8)
	for _, q := range c.Quads {
		if !distinct {
			q.Label = quad.IRI(c.Graph)
			k := key(q)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
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

// Packed is one change of a first ingest in the checkpoint's compact form
// (its block and its stamp) instead of its quads: about a quarter of their
// memory. A caller that must keep every change until the write starts
// (`serve`'s cold start, which builds its early snapshot from them) packs
// them and drops the quads; AddPacked decodes each back as it is written.
type Packed struct {
	b     block
	stamp []byte
}

// Pack is c in compact form, for AddPacked.
func Pack(c Change) (Packed, error) {
	if c.Graph == MetaGraph {
		return Packed{}, fmt.Errorf("write graphs: %s is the store's own graph", MetaGraph)
	}
	b, err := blockOf(c)
	if err != nil {
		return Packed{}, fmt.Errorf("write checkpoint: %w", err)
	}
	// Held until Commit: without the slack of the encoder's appends (a
	// third more at 10k skills).
	b.data = bytes.Clone(b.data)
	return Packed{b: b, stamp: c.Stamp}, nil
}

// Graph is the graph of a packed change.
func (p Packed) Graph() string { return p.b.label }

// Add plans changes (each a graph not yet handed to w) and commits every
// full step of coldCommit deltas.
func (w *FirstWriter) Add(ctx context.Context, changes []Change) (err error) {
	if err := w.open(); err != nil {
		return err
	}
	defer w.s.guard(&err)()
	defer w.fail(&err)
	for _, c := range changes {
		p, err := Pack(c)
		if err != nil {
			return err
		}
		if err := w.plan(p, firstDeltas(c, false)); err != nil {
			return err
		}
	}
	return w.step(ctx)
}

// AddPacked is Add for packed changes: each is decoded from its block.
func (w *FirstWriter) AddPacked(ctx context.Context, changes []Packed) (err error) {
	if err := w.open(); err != nil {
		return err
	}
	defer w.s.guard(&err)()
	defer w.fail(&err)
	d := checkpoint.NewDecoder() // per call: it keeps every value it decoded
	for _, p := range changes {
		var qs []quad.Quad
		if p.b.data != nil {
			if qs, err = d.Append(nil, p.b.data); err != nil {
				return fmt.Errorf("write graphs: decode %s: %w", p.b.label, err)
			}
		}
		if err := w.plan(p, firstDeltas(Change{Graph: p.b.label, Quads: qs, Delete: p.b.data == nil}, true)); err != nil {
			return err
		}
	}
	return w.step(ctx)
}

// open fails once w failed or was closed.
func (w *FirstWriter) open() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("first ingest writer is closed")
	}
	return nil
}

// fail records the first failure: every later call returns it.
func (w *FirstWriter) fail(err *error) {
	if *err != nil && w.err == nil {
		w.err = *err
	}
}

// plan keeps p's block and stamp for Commit and queues its deltas.
func (w *FirstWriter) plan(p Packed, deltas []graph.Delta) error {
	if _, dup := w.stamps[p.b.label]; dup {
		return fmt.Errorf("write graphs: %s handed over twice", p.b.label)
	}
	w.blocks = append(w.blocks, p.b)
	w.stamps[p.b.label] = p.stamp
	w.pending = append(w.pending, deltas...)
	return nil
}

// step commits every full step of coldCommit pending deltas.
func (w *FirstWriter) step(ctx context.Context) error {
	for len(w.pending) > coldCommit {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The blocks planned so far go with the step: held to the end
		// they were a sixth of a cold serve's live heap at 10k. Until the
		// version is committed nothing reads them, and after a crash the
		// next ingest finds quads at version 0 and rebuilds the checkpoint
		// from the store (writeKV's leftovers).
		ready := w.unwritten()
		if err := w.s.commitChunk(ctx, w.pending[:coldCommit], false, ready); err != nil {
			return err
		}
		w.blocks = nil
		w.written += len(ready)
		w.pending = w.pending[coldCommit:]
		w.steps++
		// What the step read of the file need not stay resident; failing
		// that costs memory, not data.
		_ = w.s.kv.dropMapped()
	}
	return nil
}

// unwritten are the blocks planned and not written yet, in label order
// (bbolt appends cheaply), without those of graphs left empty: there is
// no block of theirs to remove from a new store.
func (w *FirstWriter) unwritten() []block {
	out := make([]block, 0, len(w.blocks))
	for _, b := range w.blocks {
		if b.data != nil {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b block) int { return strings.Compare(a.label, b.label) })
	return out
}

// Steps is the number of step transactions committed so far.
func (w *FirstWriter) Steps() int { return w.steps }

// Commit writes what is left of the ingest, the stamps and checkpoint of
// every change handed to Add, and the version bump to 1 in one
// transaction, releases the store and returns the new version.
func (w *FirstWriter) Commit(ctx context.Context) (v int64, err error) {
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
	if err := w.s.finishKV(ctx, 0, 1, nil, adds, w.stamps, w.unwritten(), w.written, false); err != nil {
		return 0, err
	}
	_ = w.s.kv.dropMapped() // nor what the last one read: the server goes on from here
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
	w.pending, w.blocks, w.stamps = nil, nil, nil
	w.s.mu.Unlock()
}
