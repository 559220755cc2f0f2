package bolt

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"

	"github.com/skillgraph/skillgraph/graph/backend"
	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// The checkpoint lives in the bucket ckptBucket of the store file, written
// in the ingest's own transaction, so it can never name a version it does
// not hold.
var (
	ckptBucket = []byte("skillgraph_checkpoint")
	ckptStamp  = []byte("\x00version") // never a graph label (IRIs start with a letter)
)

func ckptKey(k []byte) hkv.Key { return hkv.Key{ckptBucket, k} }

// readCheckpoint decodes the checkpoint to fn (see backend.DecodeBlocks)
// if it is stamped v and every block verifies; ok false means read the
// store (fn was not called).
func (s *store) readCheckpoint(ctx context.Context, v int64, workers int, fn func(string, []quad.Quad) error) (ok bool, err error) {
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
	return true, backend.DecodeBlocks(ctx, blocks, workers, fn)
}

// checkpointKV returns the checkpoint's blocks (bbolt's memory, valid while
// tx is open) if it is stamped v and every block verifies; ok false means
// read the store.
func checkpointKV(ctx context.Context, tx hkv.Tx, v int64) (blocks []backend.Block, ok bool) {
	if kvStamp(ctx, tx) != v {
		return nil, false
	}
	return kvBlocks(ctx, tx)
}

// kvBlocks lists the checkpoint's blocks (bbolt's memory, valid while tx
// is open); ok is false when one does not verify.
func kvBlocks(ctx context.Context, tx hkv.Tx) (blocks []backend.Block, ok bool) {
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
		blocks = append(blocks, backend.Block{Label: string(k[1]), Data: it.Val()})
	}
	return blocks, it.Err() == nil
}

// kvStamp is the version the checkpoint is stamped with (-1: none).
func kvStamp(ctx context.Context, tx hkv.Tx) int64 {
	stamp, err := tx.Get(ctx, ckptKey(ckptStamp))
	if err != nil || len(stamp) != 8 {
		return -1
	}
	return int64(binary.BigEndian.Uint64(stamp))
}

// anyBlock reports whether the store holds any checkpoint block.
func (s *store) anyBlock(ctx context.Context) bool {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return true // unknown: not the first write's to take
	}
	defer tx.Close()
	blocks, ok := kvBlocks(ctx, tx)
	return !ok || len(blocks) > 0
}

// CheckpointCurrent is backend.Checkpointer.CheckpointCurrent.
func (s *store) CheckpointCurrent(ctx context.Context, v int64) bool {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return false
	}
	defer tx.Close()
	_, ok := checkpointKV(ctx, tx, v)
	return ok
}

// RefreshCheckpoint is backend.Checkpointer.RefreshCheckpoint: every block
// rebuilt from the store in a transaction of its own.
func (s *store) RefreshCheckpoint(ctx context.Context) (bool, error) {
	v, err := backend.Version(ctx, s.Scan)
	if err != nil || v == 0 {
		return false, err
	}
	if err := s.kv.begin(ctx); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	defer s.kv.abort() // a no-op once committed
	if err := s.writeCheckpoint(ctx, -1, v, nil, 0, false); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	if err := s.kv.commit(ctx); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	s.ckptWhole.Store(v)
	return true, nil
}

// writeCheckpoint brings the checkpoint from version old to next inside
// the ingest transaction: the changed graphs' blocks (blocks, in label
// order; a nil block removes its graph's) when it was stamped old (or is
// absent from a new store, or holding only the own blocks a first write's
// steps wrote), else every graph's block afresh, read back from the
// transaction.
func (s *store) writeCheckpoint(ctx context.Context, old, next int64, blocks []backend.Block, own int, leftovers bool) error {
	tx, _ := s.kv.Tx(ctx, true) // the ingest transaction
	stamp := kvStamp(ctx, tx)
	// Verifying every block costs a pass over the whole checkpoint (at 10k
	// skills most of a one-file ingest): skipped when this process wrote
	// or verified it at version old, as nothing else writes the file.
	// A first write's own blocks (own > 0) were written under the store's
	// lock, held since BeginFirst found no block at all: nothing to read
	// back (at 10k, reading them mapped 54 MB more at its peak).
	var stored []backend.Block
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
			if b.Data == nil {
				if err := tx.Del(ctx, ckptKey([]byte(b.Label))); err != nil {
					return err
				}
				continue
			}
			if err := tx.Put(ctx, ckptKey([]byte(b.Label)), b.Data); err != nil {
				return err
			}
			s.hooks.Written()
		}
	} else {
		if err := backend.RebuildCheckpoint(ctx, s.Scan, s.hooks, func(label string, block []byte) error {
			return tx.Put(ctx, ckptKey([]byte(label)), block)
		}, func() error { return clearBucket(ctx, tx) }); err != nil {
			return err
		}
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(next))
	return tx.Put(ctx, ckptKey(ckptStamp), buf[:])
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
