package bolt

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"

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
// store (fn was not called). A store opened with Hooks.VerifyLater reads
// it unwalked only when its manifest proves the blocks read are the ones
// written; else the whole store is walked first (see trust).
func (s *store) readCheckpoint(ctx context.Context, v int64, workers int, fn func(string, []quad.Quad) error) (ok bool, err error) {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return false, err
	}
	defer tx.Close()
	m, hasManifest := readManifest(ctx, tx)
	limit := -1
	if s.hooks.VerifyLater && hasManifest && m.version == v {
		// A damaged branch page may lead the walk in a circle: never
		// more blocks than the manifest names.
		limit = int(min(m.count, 1<<40))
	}
	// Every block is read to verify it; the manifest's sum is taken in
	// the same pass, and the pages read are dropped as it goes (then
	// mapped again from the page cache as they are decoded). Read in a
	// pass of their own, the blocks' last bytes alone mapped ≈ 3 GB at
	// 100k skills: the kernel maps the pages around each fault too
	// (issue #27, the warm start's peak).
	var got manifest
	blocks, ok := s.verifiedBlocks(ctx, tx, v, limit, func(b backend.Block) { got.add(b.Label, b.Data) })
	if ok && hasManifest && m.version == v && !m.matches(v, got) {
		ok = false // blocks lost, repeated or swapped: not the checkpoint written
	}
	if !ok {
		s.ckptWhole.Store(0) // damaged: the next write rebuilds it
		return false, nil
	}
	if !hasManifest || m.version != v {
		// Written by a skillgraph from before the manifest: nothing
		// proves the blocks whole but a walk of the store.
		if err := s.trust(ctx); err != nil {
			return false, err
		}
	}
	// The blocks are bbolt's map of the file: every page read stays
	// resident (counted in RSS) beside the quads decoded from it until
	// bbolt remaps. Unmapped as the decoding goes (every dropEvery quads)
	// and at its end, the raw and decoded forms are not held together
	// (a page still being read is mapped again from the page cache).
	var decoded atomic.Int64
	err = backend.DecodeBlocks(ctx, blocks, workers, func(label string, qs []quad.Quad) error {
		if err := fn(label, qs); err != nil {
			return err
		}
		if n := decoded.Add(int64(len(qs))); n/dropEvery != (n-int64(len(qs)))/dropEvery {
			_ = s.kv.dropMapped() // costs memory, not data, when it fails
		}
		return nil
	})
	_ = s.kv.dropMapped()
	return true, err
}

// dropEvery is how many quads a checkpoint read decodes between two drops
// of the file's mapped pages (at 10k skills ≈ 1 M quads: four drops).
const dropEvery = 1 << 18

// checkpointKV returns the checkpoint's blocks (bbolt's memory, valid while
// tx is open) if it is stamped v and every block verifies; ok false means
// read the store. limit (when not negative) is the most blocks it lists.
func checkpointKV(ctx context.Context, tx hkv.Tx, v int64, limit int, visit func(backend.Block)) (blocks []backend.Block, ok bool) {
	if kvStamp(ctx, tx) != v {
		return nil, false
	}
	return kvBlocksVisiting(ctx, tx, limit, visit)
}

// verifiedBlocks is checkpointKV in a read transaction of this store,
// calling visit (when set) with each block as it verifies and dropping
// the pages read every dropBlocks blocks and at the end (see
// readCheckpoint): a dropped page is mapped again from the page cache
// when a block is read later.
func (s *store) verifiedBlocks(ctx context.Context, tx hkv.Tx, v int64, limit int, visit func(backend.Block)) ([]backend.Block, bool) {
	n := 0
	blocks, ok := checkpointKV(ctx, tx, v, limit, func(b backend.Block) {
		if visit != nil {
			visit(b)
		}
		if n++; n%dropBlocks == 0 {
			_ = s.kv.dropMapped()
		}
	})
	_ = s.kv.dropMapped()
	return blocks, ok
}

// kvBlocks lists the checkpoint's blocks (bbolt's memory, valid while tx
// is open); ok is false when one does not verify, or when there are more
// than limit (when not negative).
func kvBlocks(ctx context.Context, tx hkv.Tx, limit int) (blocks []backend.Block, ok bool) {
	return kvBlocksVisiting(ctx, tx, limit, nil)
}

// dropBlocks is how many blocks a checkpoint read verifies between two
// drops of the mapped pages (at 100k skills ≈ 36 MB of blocks).
var dropBlocks = 1 << 13 // a variable for tests

// kvBlocksVisiting is kvBlocks calling visit, when set, with each block
// once it verifies: a reader that needs something of every block takes it
// then, in the same pass (see readCheckpoint).
func kvBlocksVisiting(ctx context.Context, tx hkv.Tx, limit int, visit func(backend.Block)) (blocks []backend.Block, ok bool) {
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
		if checkpoint.Verify(it.Val()) != nil || limit >= 0 && len(blocks) >= limit {
			return nil, false
		}
		blocks = append(blocks, backend.Block{Label: string(k[1]), Data: it.Val()})
		if visit != nil {
			visit(blocks[len(blocks)-1])
		}
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
	blocks, ok := kvBlocks(ctx, tx, -1)
	return !ok || len(blocks) > 0
}

// CheckpointCurrent is backend.Checkpointer.CheckpointCurrent.
func (s *store) CheckpointCurrent(ctx context.Context, v int64) bool {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return false
	}
	defer tx.Close()
	_, ok := s.verifiedBlocks(ctx, tx, v, -1, nil)
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
	if err := s.writeCheckpoint(ctx, -1, v, nil, manifest{}, false); err != nil {
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
// transaction. The manifest (see manifest.go) goes with it: updated from
// the changed blocks when the stored one names old, else summed afresh.
func (s *store) writeCheckpoint(ctx context.Context, old, next int64, blocks []backend.Block, own manifest, leftovers bool) error {
	tx, _ := s.kv.Tx(ctx, true) // the ingest transaction
	stamp := kvStamp(ctx, tx)
	// Verifying every block costs a pass over the whole checkpoint (at 10k
	// skills most of a one-file ingest): skipped when this process wrote
	// or verified it at version old, as nothing else writes the file.
	// A first write's own blocks (own.count > 0) were written under the store's
	// lock, held since BeginFirst found no block at all: nothing to read
	// back (at 10k, reading them mapped 54 MB more at its peak).
	var stored []backend.Block
	whole := true
	if known := s.ckptWhole.Load(); own.count == 0 && (known <= 0 || known != old || stamp != old) {
		stored, whole = kvBlocks(ctx, tx, -1)
	}
	// Blocks are only updated from a checkpoint known whole: stamped with
	// the previous version (or none at all in a new store) and every block
	// verifying. Anything else is rebuilt from the store.
	current := whole && (stamp == old && old > 0 || stamp == -1 && old == 0 && len(stored) == 0 && !leftovers)
	var m manifest
	if current {
		// The sum is carried over only from a manifest of version old (a
		// first write starts from its steps' blocks); else it is summed
		// again below, once (a binary from before the manifest wrote last).
		summed := old == 0
		if old == 0 {
			m = own
		} else if prev, ok := readManifest(ctx, tx); ok && prev.version == old {
			m, summed = prev, true
		}
		// In key order: bbolt inserts into a node it splits only at commit,
		// so appending keeps every insert cheap.
		for _, b := range blocks {
			key := ckptKey([]byte(b.Label))
			if summed && old > 0 {
				prev, err := tx.Get(ctx, key)
				switch {
				case err == nil && checkpoint.Verify(prev) == nil:
					m.sub(b.Label, prev)
				case err == nil:
					summed = false // a damaged block: summed again below
				case !errors.Is(err, hkv.ErrNotFound):
					return err
				}
			}
			if b.Data == nil {
				if err := tx.Del(ctx, key); err != nil {
					return err
				}
				continue
			}
			if err := tx.Put(ctx, key, b.Data); err != nil {
				return err
			}
			m.add(b.Label, b.Data)
			s.hooks.Written()
		}
		if !summed {
			all, ok := kvBlocks(ctx, tx, -1)
			if !ok {
				return errors.New("a checkpoint block does not verify")
			}
			m = manifest{}
			m.addBlocks(all)
		}
	} else {
		if err := backend.RebuildCheckpoint(ctx, s.Scan, s.hooks, func(label string, block []byte) error {
			m.add(label, block)
			return tx.Put(ctx, ckptKey([]byte(label)), block)
		}, func() error { return clearBucket(ctx, tx) }); err != nil {
			return err
		}
	}
	m.version = next
	if err := tx.Put(ctx, sumKey, m.encode()); err != nil {
		return err
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
