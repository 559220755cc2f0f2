package bolt

import (
	"context"
	"fmt"

	ckv "github.com/cayleygraph/cayley/graph/kv"
	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// clearLeftovers empties a store at version 0 that still holds what an
// unfinished first write left (the steps it committed before a kill, see
// writeKV): version 0 means an empty store, so nothing of it may become
// part of the next version (issue 28.4: a killed first ingest's quads were
// served after the next ingest of another corpus, and the same corpus's
// files were "unchanged"). Every bucket is dropped in one bbolt
// transaction and Cayley's are made again, so a kill at any moment leaves
// either the leftovers at version 0 or an empty store. It does nothing to
// a store that holds no quad, block or stamp, and must only be called at
// version 0 with the store's lock held.
func (s *store) clearLeftovers(ctx context.Context) error {
	stamps, err := s.Stamps(ctx)
	if err != nil {
		return err
	}
	if !s.AnyQuad(ctx) && !s.anyBlock(ctx) && len(stamps) == 0 {
		return nil
	}
	err = s.kv.bolt.Update(func(tx *bolt.Tx) error {
		var names [][]byte
		if err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			names = append(names, append([]byte(nil), name...))
			return nil
		}); err != nil {
			return err
		}
		for _, n := range names {
			if err := tx.DeleteBucket(n); err != nil {
				return fmt.Errorf("drop bucket %q: %w", n, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("clear an unfinished first write: %w", err)
	}
	// Cayley's buckets and its format marker (openBolt makes them too, so
	// a kill between the two transactions is an empty store either way).
	if err := ckv.Init(s.kv, kvOptions); err != nil {
		return fmt.Errorf("clear an unfinished first write: %w", err)
	}
	s.ckptWhole.Store(0)
	// Cayley caches nodes by id; every id of the old buckets is gone.
	return s.reopen()
}

// atVersionZero reports whether the store has no committed version.
func (s *store) atVersionZero(ctx context.Context) (bool, error) {
	v, err := backend.Version(ctx, s.Scan)
	return v == 0, err
}
