package bolt

import (
	"context"
	"errors"
	"fmt"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/backend"
	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// firstWriter writes the first ingest into an empty store while it is
// still being converted (see graph.FirstWriter, which holds the store's
// lock around it): the changes' quads are committed in steps of
// coldCommit deltas as they are handed over, and Commit writes the rest,
// the version bump, the stamps and the checkpoint in one last
// transaction. It is the step path of writeKV, fed by a stream instead of
// a finished list. Its methods must not be called concurrently.
type firstWriter struct {
	s       *store
	pending []graph.Delta // planned adds not yet committed
	stamps  map[string][]byte
	blocks  []backend.Block // the checkpoint blocks of the changes added, not written yet
	written manifest        // the blocks written by the steps (count and sum)
	steps   int
	closed  bool
	err     error // the first failure: later calls return it
}

// BeginFirst is backend.FirstWriting.BeginFirst: a writer when the store
// is at version 0 and holds no quad and no checkpoint block at all
// (nothing to compare with, nothing to keep), else nil.
//
// What an unfinished first write left at version 0 is cleared first
// (clearLeftovers): version 0 is an empty store.
func (s *store) BeginFirst(ctx context.Context) (backend.FirstWriter, error) {
	zero, err := s.atVersionZero(ctx)
	if err != nil || !zero {
		return nil, err
	}
	if err := s.clearLeftovers(ctx); err != nil {
		return nil, err
	}
	if s.AnyQuad(ctx) || s.anyBlock(ctx) {
		return nil, nil
	}
	return &firstWriter{s: s, stamps: map[string][]byte{}}, nil
}

// firstDeltas are the deltas of a change into a store that holds none of
// its graph: what backend.PlanApply gives for a graph with no stored
// quads (its distinct quads and their subjects' registry), without
// reading the store. distinct says c's quads are known distinct and
// labelled (decoded from its block), so they need no comparing.
func firstDeltas(c backend.Change, distinct bool) []graph.Delta {
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
			k := backend.Key(q)
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
		out = append(out, graph.Delta{Quad: backend.RegistryQuad(c.Graph, subj), Action: graph.Add})
	}
	return out
}

// Add is backend.FirstWriter.Add.
func (w *firstWriter) Add(ctx context.Context, changes []backend.Change) (err error) {
	if err := w.open(); err != nil {
		return err
	}
	defer w.fail(&err)
	for _, c := range changes {
		p, err := backend.Pack(c)
		if err != nil {
			return err
		}
		if err := w.plan(p, firstDeltas(c, false)); err != nil {
			return err
		}
	}
	return w.step(ctx)
}

// AddPacked is backend.FirstWriter.AddPacked: each change is decoded from
// its block.
func (w *firstWriter) AddPacked(ctx context.Context, changes []backend.Packed) (err error) {
	if err := w.open(); err != nil {
		return err
	}
	defer w.fail(&err)
	d := checkpoint.NewDecoder() // per call: it keeps every value it decoded
	for _, p := range changes {
		var qs []quad.Quad
		if p.Block.Data != nil {
			if qs, err = d.Append(nil, p.Block.Data); err != nil {
				return fmt.Errorf("write graphs: decode %s: %w", p.Block.Label, err)
			}
		}
		if err := w.plan(p, firstDeltas(backend.Change{Graph: p.Block.Label, Quads: qs, Delete: p.Block.Data == nil}, true)); err != nil {
			return err
		}
	}
	return w.step(ctx)
}

// open fails once w failed or was closed.
func (w *firstWriter) open() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("first ingest writer is closed")
	}
	return nil
}

// fail records the first failure: every later call returns it.
func (w *firstWriter) fail(err *error) {
	if *err != nil && w.err == nil {
		w.err = *err
	}
}

// plan keeps p's block and stamp for Commit and queues its deltas.
func (w *firstWriter) plan(p backend.Packed, deltas []graph.Delta) error {
	if _, dup := w.stamps[p.Block.Label]; dup {
		return fmt.Errorf("write graphs: %s handed over twice", p.Block.Label)
	}
	w.blocks = append(w.blocks, p.Block)
	w.stamps[p.Block.Label] = p.Stamp
	w.pending = append(w.pending, deltas...)
	return nil
}

// step commits every full step of coldCommit pending deltas.
func (w *firstWriter) step(ctx context.Context) error {
	step := w.s.coldCommit()
	for len(w.pending) > step {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The blocks planned so far go with the step: held to the end
		// they were a sixth of a cold serve's live heap at 10k. Until the
		// version is committed nothing reads them, and after a crash the
		// next first write clears them (clearLeftovers).
		ready := w.unwritten()
		if err := w.s.commitChunk(ctx, w.pending[:step], false, ready); err != nil {
			return err
		}
		w.blocks = nil
		w.written.addBlocks(ready)
		w.pending = w.pending[step:]
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
func (w *firstWriter) unwritten() []backend.Block {
	out := make([]backend.Block, 0, len(w.blocks))
	for _, b := range w.blocks {
		if b.Data != nil {
			out = append(out, b)
		}
	}
	backend.SortBlocks(out)
	return out
}

// Steps is backend.FirstWriter.Steps.
func (w *firstWriter) Steps() int { return w.steps }

// Commit is backend.FirstWriter.Commit: what is left of the ingest, the
// stamps and checkpoint of every change handed over, and the version bump
// to 1 in one transaction.
func (w *firstWriter) Commit(ctx context.Context) (int64, error) {
	defer w.close()
	if w.err != nil {
		return 0, w.err
	}
	adds := append(w.pending, graph.Delta{Quad: backend.VersionQuad(1), Action: graph.Add})
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

// Abort is backend.FirstWriter.Abort: the steps already committed stay
// unserved (version 0).
func (w *firstWriter) Abort() { w.close() }

func (w *firstWriter) close() {
	w.closed = true
	w.pending, w.blocks, w.stamps = nil, nil, nil
}
