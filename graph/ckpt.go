package graph

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"

	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// The checkpoint (issue 14): every source graph's quads in compact form
// (graph/checkpoint), beside the store and stamped with the graph version
// they belong to, so a start reads the snapshot's input without decoding
// each quad through Cayley. A stamp that is not the current version, a
// missing block or one failing its checksum makes Read use the store.
//
// bbolt: the bucket ckptBucket of the same file, written in the ingest's
// own transaction, so it can never name a version it does not hold.
// PostgreSQL: the tables skillgraph_checkpoint and
// skillgraph_checkpoint_stamp, written by the writer right after its
// ingest commits (Cayley commits its own transaction); a crash in between
// leaves the old stamp, and replicas read the store until the next ingest.

var (
	ckptBucket = []byte("skillgraph_checkpoint")
	ckptStamp  = []byte("\x00version") // never a graph label (IRIs start with a letter)
)

func ckptKey(k []byte) hkv.Key { return hkv.Key{ckptBucket, k} }

// versionQuad is the meta graph's version quad as the store reads it back.
func versionQuad(v int64) quad.Quad {
	return quad.Quad{Subject: quad.IRI(versionSubject), Predicate: quad.IRI(versionPredicate),
		Object: quad.Int(v), Label: quad.IRI(MetaGraph)}
}

// block is one checkpoint block and the graph it holds.
type block struct {
	label string
	data  []byte
}

// readCheckpointKV decodes the checkpoint to fn (see decodeBlocks) if it
// is stamped v and every block verifies; ok false means read the store
// (fn was not called).
func (s *Store) readCheckpointKV(ctx context.Context, v int64, workers int, fn func(string, []quad.Quad) error) (ok bool, err error) {
	if s.kv == nil {
		return false, nil
	}
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return false, err
	}
	defer tx.Close()
	blocks, ok := checkpointKV(ctx, tx, v)
	if !ok {
		s.ckptWhole.Store(0) // damaged: the next write rebuilds it
		return false, nil
	}
	return true, decodeBlocks(ctx, blocks, workers, fn)
}

// checkpointKV returns the checkpoint's blocks (bbolt's memory, valid while
// tx is open) if it is stamped v and every block verifies; ok false means
// read the store.
func checkpointKV(ctx context.Context, tx hkv.Tx, v int64) (blocks []block, ok bool) {
	if kvStamp(ctx, tx) != v {
		return nil, false
	}
	return kvBlocks(ctx, tx)
}

// kvBlocks lists the checkpoint's blocks (bbolt's memory, valid while tx
// is open); ok is false when one does not verify.
func kvBlocks(ctx context.Context, tx hkv.Tx) (blocks []block, ok bool) {
	it := tx.Scan(ctx)
	pit, isPrefix := it.(hkv.PrefixIterator)
	if !isPrefix {
		it.Close()
		return nil, false
	}
	it = pit.WithPrefix(ckptKey([]byte{}))
	defer it.Close()
	for it.Next(ctx) {
		k := it.Key()
		if len(k) != 2 || string(k[0]) != string(ckptBucket) || string(k[1]) == string(ckptStamp) {
			continue
		}
		if checkpoint.Verify(it.Val()) != nil {
			return nil, false
		}
		blocks = append(blocks, block{label: string(k[1]), data: it.Val()})
	}
	return blocks, it.Err() == nil
}

// decodeBlocks decodes the blocks on up to workers goroutines and calls fn
// with each block's quads, from those goroutines (at most one call per
// goroutine at a time). The first error stops every worker; a damaged
// block found while decoding is ErrCorrupt of the checkpoint.
func decodeBlocks(ctx context.Context, blocks []block, workers int, fn func(label string, quads []quad.Quad) error) error {
	workers = max(1, min(workers, len(blocks)))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			d := checkpoint.NewDecoder()
			var qs []quad.Quad
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(blocks) {
					return
				}
				// The blocks may be bbolt's memory map: a fault reading
				// one is an error, not a crash (see protect).
				err := protect(func() error {
					var err error
					qs, err = d.Append(qs[:0], blocks[i].data)
					return err
				})
				if err == nil {
					err = fn(blocks[i].label, qs)
				} else {
					err = fmt.Errorf("read checkpoint block %s: %w", blocks[i].label, err)
				}
				if err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// eachQuad turns a per-quad callback into the per-graph one decodeBlocks
// calls (with one worker: fn is called from one goroutine, in order).
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

// kvStamp is the version the bbolt checkpoint is stamped with (-1: none).
func kvStamp(ctx context.Context, tx hkv.Tx) int64 {
	stamp, err := tx.Get(ctx, ckptKey(ckptStamp))
	if err != nil || len(stamp) != 8 {
		return -1
	}
	return int64(binary.BigEndian.Uint64(stamp))
}

// CheckpointCurrent reports whether Read is served from the checkpoint:
// it is stamped with the current version and every block verifies.
func (s *Store) CheckpointCurrent(ctx context.Context) bool {
	v, err := s.Version(ctx)
	if err != nil {
		return false
	}
	switch {
	case s.kv != nil:
		tx, err := s.kv.Tx(ctx, false)
		if err != nil {
			return false
		}
		defer tx.Close()
		_, ok := checkpointKV(ctx, tx, v)
		return ok
	case s.db != nil:
		tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
		if err != nil {
			return false
		}
		defer tx.Rollback()
		if v, err = sqlVersion(ctx, tx); err != nil {
			return false
		}
		_, ok, err := s.checkpointSQL(ctx, tx, v)
		return ok && err == nil
	}
	return false
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
	if (s.kv == nil && s.sqlKind != "postgres") || s.CheckpointCurrent(ctx) {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil {
		unlock, err := s.lockWriter(ctx)
		if err != nil {
			return false, err
		}
		defer unlock()
	}
	v, err := s.versionLocked(ctx)
	if err != nil || v == 0 {
		return false, err
	}
	if s.db != nil {
		// Stamped -1 never matches: every block is rebuilt.
		if err := s.writeCheckpointSQL(ctx, -1, v, nil); err != nil {
			return false, fmt.Errorf("rebuild checkpoint: %w", err)
		}
		return true, nil
	}
	if err := s.kv.begin(ctx); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	defer s.kv.abort() // a no-op once committed
	if err := s.writeCheckpointKV(ctx, -1, v, nil, 0, false); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	if err := s.kv.commit(ctx); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	s.ckptWhole.Store(v)
	return true, nil
}

// writeCheckpointKV brings the checkpoint from version old to next inside
// the ingest transaction: the changed graphs' blocks (blocks, in label
// order; a nil block removes its graph's) when it was stamped old (or is
// absent from a new store, or holding only the own blocks a first write's
// steps wrote), else every graph's block afresh, read back from the
// transaction.
func (s *Store) writeCheckpointKV(ctx context.Context, old, next int64, blocks []block, own int, leftovers bool) error {
	tx, _ := s.kv.Tx(ctx, true) // the ingest transaction
	stamp := kvStamp(ctx, tx)
	// Verifying every block costs a pass over the whole checkpoint (at 10k
	// skills most of a one-file ingest): skipped when this process wrote
	// or verified it at version old, as nothing else writes the file.
	// A first write's own blocks (own > 0) were written under the store's
	// lock, held since BeginFirst found no block at all: nothing to read
	// back (at 10k, reading them mapped 54 MB more at its peak).
	var stored []block
	whole := true
	if known := s.ckptWhole.Load(); own == 0 && (known <= 0 || known != old || stamp != old) {
		stored, whole = kvBlocks(ctx, tx)
	}
	// Blocks are only updated from a checkpoint known whole: stamped with
	// the previous version (or none at all in a new store) and every block
	// verifying. Anything else is rebuilt from the store.
	current := whole && (stamp == old && old > 0 || stamp == -1 && old == 0 && len(stored) == 0 && !leftovers)
	if current {
		// In key order: bbolt inserts into a node it splits only at commit,
		// so appending keeps every insert cheap.
		for _, b := range blocks {
			if b.data == nil {
				if err := tx.Del(ctx, ckptKey([]byte(b.label))); err != nil {
					return err
				}
				continue
			}
			if err := tx.Put(ctx, ckptKey([]byte(b.label)), b.data); err != nil {
				return err
			}
			s.blockWritten()
		}
	} else {
		if err := s.rebuildCheckpoint(ctx, func(label string, block []byte) error {
			return tx.Put(ctx, ckptKey([]byte(label)), block)
		}, func() error { return clearBucket(ctx, tx) }); err != nil {
			return err
		}
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(next))
	return tx.Put(ctx, ckptKey(ckptStamp), buf[:])
}

// blocksOf are the checkpoint blocks of changes in label order: each
// written graph's block, nil for a graph deleted or left empty.
func blocksOf(changes []Change) ([]block, error) {
	out := make([]block, 0, len(changes))
	for _, c := range changes {
		b, err := blockOf(c)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b block) int { return strings.Compare(a.label, b.label) })
	return out, nil
}

// blockOf is the checkpoint block of one change (nil data: none).
func blockOf(c Change) (block, error) {
	if c.Delete || len(c.Quads) == 0 {
		return block{label: c.Graph}, nil
	}
	b, err := encodeGraph(c)
	if err != nil {
		return block{}, fmt.Errorf("checkpoint of %s: %w", c.Graph, err)
	}
	return block{label: c.Graph, data: b}, nil
}

// encodeGraph is the block of one change, its quads labelled as stored.
func encodeGraph(c Change) ([]byte, error) {
	qs := make([]quad.Quad, len(c.Quads))
	for i, q := range c.Quads {
		q.Label = quad.IRI(c.Graph)
		qs[i] = q
	}
	return checkpoint.Encode(dedupe(qs))
}

// dedupe drops repeated quads (the store holds each once).
func dedupe(qs []quad.Quad) []quad.Quad {
	seen := make(map[string]bool, len(qs))
	out := qs[:0]
	for _, q := range qs {
		k := key(q)
		if !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	return out
}

func clearBucket(ctx context.Context, tx hkv.Tx) error {
	var keys []hkv.Key
	it := tx.Scan(ctx)
	if pit, ok := it.(hkv.PrefixIterator); ok {
		it = pit.WithPrefix(ckptKey([]byte{}))
	}
	for it.Next(ctx) {
		if k := it.Key(); len(k) == 2 && string(k[0]) == string(ckptBucket) {
			keys = append(keys, k)
		}
	}
	it.Close()
	for _, k := range keys {
		if err := tx.Del(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// rebuildCheckpoint reads every quad back from the store (s.mu held), and
// hands each graph's block to put after clear.
func (s *Store) rebuildCheckpoint(ctx context.Context, put func(label string, block []byte) error, clear func() error) error {
	byGraph := map[string][]quad.Quad{}
	err := s.scanLocked(ctx, quad.Any, nil, func(q quad.Quad) error {
		l, ok := q.Label.(quad.IRI)
		if !ok || string(l) == MetaGraph {
			return nil
		}
		byGraph[string(l)] = append(byGraph[string(l)], q)
		return nil
	})
	if err != nil {
		return err
	}
	if err := clear(); err != nil {
		return err
	}
	for _, l := range slices.Sorted(maps.Keys(byGraph)) {
		qs := byGraph[l]
		b, err := checkpoint.Encode(qs)
		if err != nil {
			return err
		}
		if err := put(l, b); err != nil {
			return err
		}
		s.blockWritten()
	}
	return nil
}

// blockWritten calls the test hook ckptWritten, if set.
func (s *Store) blockWritten() {
	if s.ckptWritten != nil {
		s.ckptWritten()
	}
}

// The PostgreSQL checkpoint tables, created with the schema.
const sqlCheckpointSchema = `CREATE TABLE IF NOT EXISTS skillgraph_checkpoint (label text PRIMARY KEY, block bytea NOT NULL);
CREATE TABLE IF NOT EXISTS skillgraph_checkpoint_stamp (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`

// readSQL is readVersion on PostgreSQL: the version, the stamp and the
// quads in one REPEATABLE READ transaction, so they are of one committed
// state.
func (s *Store) readSQL(ctx context.Context, useCheckpoint bool, workers int, blocks func(string, []quad.Quad) error, scan func(quad.Quad) error) (int64, bool, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	v, err := sqlVersion(ctx, tx)
	if err != nil {
		return 0, false, err
	}
	if useCheckpoint {
		bl, ok, err := s.checkpointSQL(ctx, tx, v)
		if err != nil {
			return v, false, err
		}
		if ok {
			return v, true, decodeBlocks(ctx, bl, workers, blocks)
		}
	}
	return v, false, sqlScan(ctx, tx, quad.Any, nil, scan)
}

// checkpointSQL returns the checkpoint's blocks if it is stamped v and
// every block verifies; ok false means read the store.
func (s *Store) checkpointSQL(ctx context.Context, tx *sql.Tx, v int64) (blocks []block, ok bool, err error) {
	if v == 0 || s.sqlKind != "postgres" {
		return nil, false, nil
	}
	var stamp int64
	if err := tx.QueryRowContext(ctx, `SELECT version FROM skillgraph_checkpoint_stamp WHERE id = 1`).Scan(&stamp); err != nil || stamp != v {
		return nil, false, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT label, block FROM skillgraph_checkpoint`)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var b block
		if err := rows.Scan(&b.label, &b.data); err != nil {
			return nil, false, err
		}
		if checkpoint.Verify(b.data) != nil {
			return nil, false, nil
		}
		blocks = append(blocks, b)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return blocks, true, nil
}

// writeCheckpointSQL brings the PostgreSQL checkpoint from old to next
// after the ingest committed (the writer lock still held). A failure only
// costs replicas a full read, so Apply does not fail on it; the stamp then
// stays old and the next ingest rebuilds it.
func (s *Store) writeCheckpointSQL(ctx context.Context, old, next int64, changes []Change) error {
	if s.sqlKind != "postgres" {
		return nil
	}
	return func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var stamp int64
		err = tx.QueryRowContext(ctx, `SELECT version FROM skillgraph_checkpoint_stamp WHERE id = 1 FOR UPDATE`).Scan(&stamp)
		current := (err == nil && stamp == old) || (errors.Is(err, sql.ErrNoRows) && old == 0)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		put := func(label string, block []byte) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint (label, block) VALUES ($1, $2)
				ON CONFLICT (label) DO UPDATE SET block = EXCLUDED.block`, label, block)
			return err
		}
		if current {
			for _, c := range changes {
				if c.Delete || len(c.Quads) == 0 {
					if _, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint WHERE label = $1`, c.Graph); err != nil {
						return err
					}
					continue
				}
				b, err := encodeGraph(c)
				if err != nil {
					return err
				}
				if err := put(c.Graph, b); err != nil {
					return err
				}
				s.blockWritten()
			}
		} else if err := s.rebuildCheckpoint(ctx, put, func() error {
			_, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint`)
			return err
		}); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint_stamp (id, version) VALUES (1, $1)
			ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`, next); err != nil {
			return err
		}
		return tx.Commit()
	}()
}
