package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	hkv "github.com/hidal-go/hidalgo/kv"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// The tally records (see backend.TallyKeeper) are a bucket of the store
// file: key the version as 8 big-endian bytes (so a scan is in version
// order), value the record's time in Unix nanoseconds (8 bytes) and its
// data.
var tallyBucket = []byte("skillgraph_tallies")

func tallyKey(v int64) hkv.Key {
	return hkv.Key{tallyBucket, binary.BigEndian.AppendUint64(nil, uint64(v))}
}

// PutTallies is backend.TallyKeeper.PutTallies, in a transaction of its
// own.
func (s *store) PutTallies(ctx context.Context, recs []backend.TallyRecord, drop []int64) error {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write tallies: %w", err)
	}
	tx, _ := s.kv.Tx(ctx, true) // the transaction just begun
	if err := putTally(ctx, tx, recs, drop); err != nil {
		s.kv.abort()
		return err
	}
	if err := s.kv.commit(ctx); err != nil {
		return fmt.Errorf("commit tallies: %w", err)
	}
	return nil
}

// Tallies is backend.TallyKeeper.Tallies. A value too short to hold its
// time is damage, reported as such.
func (s *store) Tallies(ctx context.Context, data bool) ([]backend.TallyRecord, error) {
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	it := tx.Scan(ctx)
	if pit, ok := it.(hkv.PrefixIterator); ok {
		it = pit.WithPrefix(hkv.Key{tallyBucket, {}})
	}
	defer it.Close()
	var out []backend.TallyRecord
	for it.Next(ctx) {
		k := it.Key()
		if len(k) != 2 || !bytes.Equal(k[0], tallyBucket) {
			continue
		}
		val := it.Val()
		if len(k[1]) != 8 || len(val) < 8 {
			return nil, backend.Corruptf("tally record %x: %d key and %d value bytes", k[1], len(k[1]), len(val))
		}
		r := backend.TallyRecord{Version: int64(binary.BigEndian.Uint64(k[1])), At: time.Unix(0, int64(binary.BigEndian.Uint64(val))).UTC()}
		if data {
			r.Data = bytes.Clone(val[8:])
		}
		out = append(out, r)
	}
	return out, it.Err()
}

// putTally writes recs and deletes the records of drop in tx.
func putTally(ctx context.Context, tx hkv.Tx, recs []backend.TallyRecord, drop []int64) error {
	var err error
	for _, rec := range recs {
		if err != nil {
			break
		}
		val := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(rec.Data)), uint64(rec.At.UnixNano()))
		err = tx.Put(ctx, tallyKey(rec.Version), append(val, rec.Data...))
	}
	for _, v := range drop {
		if err != nil {
			break
		}
		err = tx.Del(ctx, tallyKey(v))
	}
	if err != nil {
		return fmt.Errorf("write tallies: %w", err)
	}
	return nil
}

// ApplyTallied is backend.TallyApplier.ApplyTallied: Apply, with the
// hook's record written by finishKV in the ingest's last transaction, the
// one that commits the version bump.
func (s *store) ApplyTallied(ctx context.Context, changes []backend.Change, hook backend.TallyHook) (int64, error) {
	s.tally = hook
	defer func() { s.tally = nil }()
	return s.Apply(ctx, changes)
}

// writeTally writes, in tx (the transaction committing version next), the
// record the running ApplyTallied's hook gives, if any.
func (s *store) writeTally(ctx context.Context, tx hkv.Tx, next int64) error {
	if s.tally == nil {
		return nil
	}
	recs, drop, err := s.tally(ctx, next)
	if err != nil || len(recs)+len(drop) == 0 {
		return err
	}
	return putTally(ctx, tx, recs, drop)
}
