// Package bolt is the "bbolt:PATH" store backend (the default): Cayley's kv
// QuadStore over one bbolt file, with the checkpoint and the stamps in
// buckets of the same file, so that one ingest — every graph, the version
// bump, the stamps and the checkpoint — is one bbolt transaction (txKV).
// The file is checked before bbolt maps it and is held by one process at a
// time (a file lock that fails fast).
package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/cayleygraph/cayley/graph"
	ckv "github.com/cayleygraph/cayley/graph/kv"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// ErrStoreBusy is returned when another process holds a bbolt store.
var ErrStoreBusy = errors.New("the bbolt store is in use by another process")

// ErrNotStore is returned when a bbolt store's file is not a regular file.
var ErrNotStore = errors.New("not a bbolt store")

// kvOptions are the options of Cayley's kv QuadStore over bbolt.
var kvOptions = graph.Options{"no_bloom": true}

func init() {
	backend.Register(backend.Registration{
		Name:  "bbolt",
		Usage: "bbolt:PATH",
		Open:  open,
		// bbolt asserts on the pages it reads and reads them through a
		// memory map: a damaged file panics or faults.
		Fragile: true,
	})
}

func open(_ context.Context, url, arg string, h *backend.Hooks) (backend.Backend, error) {
	if arg == "" {
		return nil, fmt.Errorf("store %q: bbolt needs a path (bbolt:PATH)", url)
	}
	if err := os.MkdirAll(filepath.Dir(arg), 0o755); err != nil {
		return nil, fmt.Errorf("store %q: %w", url, err)
	}
	qs, kv, err := openBolt(arg, h)
	if err != nil {
		return nil, fmt.Errorf("store %q: %w", url, err)
	}
	return &store{Cayley: backend.Cayley{QS: qs}, kv: kv, hooks: h, path: filepath.Join(arg, boltFile)}, nil
}

// store is a bbolt store. graph.Store's lock covers every call; other
// processes cannot write (the file lock), so the version and the quads
// read under the lock agree.
type store struct {
	backend.Cayley
	kv    *txKV // the KV under Cayley, for whole-ingest transactions
	hooks *backend.Hooks
	path  string // the bbolt file, for errors
	// late is the page walk of a store opened with Hooks.VerifyLater.
	late lateWalk
	// ckptWhole is the version at which this process last wrote the
	// checkpoint whole (0: not known): the next write need not verify
	// every block again (the file lock keeps other writers out; readers
	// still verify what they read).
	ckptWhole atomic.Int64
	// tally is the hook of the ApplyTallied running (nil otherwise; the
	// graph.Store lock serialises writes), called by finishKV.
	tally backend.TallyHook
}

// Close is backend.Backend.Close. It stops a page walk still running
// (VerifyStore) first; a store the walk found damaged is left open (see
// stopWalk).
func (s *store) Close() error {
	if !s.stopWalk() {
		return nil
	}
	return s.QS.Close()
}

// Read is backend.Backend.Read: from the checkpoint when allowed and
// current, else from the store.
func (s *store) Read(ctx context.Context, r backend.ReadRequest) (int64, bool, error) {
	v, err := backend.Version(ctx, s.Scan)
	if err != nil {
		return 0, false, err
	}
	if v == 0 {
		return 0, false, nil // nothing committed: at most an unfinished first ingest (see writeKV)
	}
	if r.UseCheckpoint {
		if ok, err := s.readCheckpoint(ctx, v, r.Workers, r.Blocks); ok || err != nil {
			return v, ok, err
		}
	}
	if err := s.trust(ctx); err != nil {
		return v, false, err
	}
	return v, false, s.ScanData(ctx, r.Quad)
}

// Apply is backend.Backend.Apply: every ApplyDeltas call of the ingest,
// the version bump, the stamps and the checkpoint run inside one bbolt
// write transaction (txKV), committed once at the end; a crash, a full
// disk or a cancelled context before that commit leaves the file as it
// was.
//
// A first write (version 0) clears what an unfinished one left first (see
// clearLeftovers), so it is planned against an empty store.
func (s *store) Apply(ctx context.Context, changes []backend.Change) (int64, error) {
	zero, err := s.atVersionZero(ctx)
	if err != nil {
		return 0, err
	}
	if zero {
		if err := s.clearLeftovers(ctx); err != nil {
			return 0, err
		}
	}
	p, err := backend.PlanApply(ctx, s, s.IndexDeltas, changes)
	if err != nil {
		return 0, err
	}
	if err := s.writeKV(ctx, p, changes); err != nil {
		return 0, err
	}
	return p.Next, nil
}

// coldCommit is the number of deltas per bbolt transaction of a first
// ingest (see writeKV), unless the hooks say otherwise.
const coldCommit = 4 * backend.BatchSize

func (s *store) coldCommit() int {
	if s.hooks.StepDeltas > 0 {
		return s.hooks.StepDeltas
	}
	return coldCommit
}

// writeCold commits all but the last coldCommit of the deltas of a first
// ingest, in transactions of coldCommit, and returns the rest.
func (s *store) writeCold(ctx context.Context, dels, adds []graph.Delta) ([]graph.Delta, []graph.Delta, error) {
	step := s.coldCommit()
	for _, part := range []*[]graph.Delta{&dels, &adds} {
		for len(*part) > step {
			chunk := (*part)[:step]
			if err := s.commitChunk(ctx, chunk, part == &dels, nil); err != nil {
				return nil, nil, err
			}
			*part = (*part)[step:]
			_ = s.kv.dropMapped() // see firstWriter.step
		}
	}
	return dels, adds, nil
}

// reopen replaces Cayley's QuadStore after a rolled-back transaction: it
// caches values by node id, and the ids handed out in the rolled-back
// transaction will be handed out again.
func (s *store) reopen() error {
	qs, err := ckv.New(s.kv, kvOptions)
	if err != nil {
		return err
	}
	s.QS = qs
	return nil
}

// commitChunk writes deltas (all deletes or all adds) in a bbolt
// transaction of their own, with blocks (checkpoint blocks of a first
// write, see firstWriter.step).
func (s *store) commitChunk(ctx context.Context, deltas []graph.Delta, isDel bool, blocks []backend.Block) (err error) {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	defer func() {
		if err != nil {
			s.kv.abort()
			_ = s.reopen()
		}
	}()
	if isDel {
		err = backend.WriteBatches(ctx, s.QS, deltas, nil)
	} else {
		err = backend.WriteBatches(ctx, s.QS, nil, deltas)
	}
	if err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	if len(blocks) > 0 {
		tx, _ := s.kv.Tx(ctx, true) // the step's transaction
		for _, b := range blocks {
			if err = tx.Put(ctx, ckptKey([]byte(b.Label)), b.Data); err != nil {
				return fmt.Errorf("write checkpoint: %w", err)
			}
		}
	}
	return s.kv.commit(ctx)
}

// writeKV writes an ingest as one transaction. On any failure the
// transaction is rolled back and Cayley's QuadStore is reopened over the
// unchanged file (see reopen).
func (s *store) writeKV(ctx context.Context, p backend.Plan, changes []backend.Change) (err error) {
	// Quads in a store at version 0 are what a failed first ingest left
	// (Apply clears them first; this stays the safe side should any
	// remain): the checkpoint is then built from the store, not changes.
	leftovers := p.Old == 0 && s.AnyQuad(ctx)
	dels, adds := p.Dels, p.Adds
	if p.Old == 0 {
		// The first ingest into an empty store: bbolt keeps a transaction's
		// new keys in memory nodes it splits only at commit, so one
		// transaction of a million quads into empty buckets inserts into
		// one ever larger node (quadratic: a 10k-skill first ingest did not
		// finish in 15 minutes; steps of 160 000 still cost 1.6x the CPU of
		// 16 000 at 1k skills). With nothing to preserve, its quads are
		// committed in steps of coldCommit deltas; Read serves nothing at
		// version 0, so a crash half-way shows an empty store, and the next
		// first write clears what it left. The version bump and the
		// checkpoint still commit together, last.
		var err error
		if dels, adds, err = s.writeCold(ctx, dels, adds); err != nil {
			return err
		}
	}
	blocks, err := backend.BlocksOf(changes)
	if err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	return s.finishKV(ctx, p.Old, p.Next, dels, adds, backend.ChangeStamps(changes), blocks, manifest{}, leftovers)
}

// finishKV is the last transaction of an ingest: the deltas left, the
// stamps, the checkpoint and so the version bump, committed together or
// not at all. stamps are the changed graphs' stamps (nil: deleted), blocks
// their checkpoint blocks and own the blocks this ingest's steps wrote
// already, as a manifest (see writeCheckpoint). leftovers says the store held
// quads at version 0 before the ingest (see writeKV).
func (s *store) finishKV(ctx context.Context, old, next int64, dels, adds []graph.Delta, stamps map[string][]byte, blocks []backend.Block, own manifest, leftovers bool) (err error) {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	defer func() {
		if err == nil {
			return
		}
		s.kv.abort()
		if rerr := s.reopen(); rerr != nil {
			err = errors.Join(err, fmt.Errorf("reopen after a failed write: %w", rerr))
		}
	}()
	// One call each (see WriteWhole): this transaction keeps the stored
	// graphs, so its index keys must go in in order to stay linear.
	if err := backend.WriteWhole(ctx, s.QS, dels, adds); err != nil {
		return fmt.Errorf("write graphs: %w", err)
	}
	tx, _ := s.kv.Tx(ctx, true) // the ingest transaction
	if err := putStamps(ctx, tx, stamps); err != nil {
		return fmt.Errorf("write stamps: %w", err)
	}
	if err := s.writeCheckpoint(ctx, old, next, blocks, own, leftovers); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	if err := s.writeTally(ctx, tx, next); err != nil {
		return err
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
