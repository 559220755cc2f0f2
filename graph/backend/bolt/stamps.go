package bolt

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	hkv "github.com/hidal-go/hidalgo/kv"
)

// The stamps (see graph.Store.Stamps) are kept in a bucket of the store
// file, written in the transaction of their graph.
var stampBucket = []byte("skillgraph_stamps")

func stampKey(label string) hkv.Key { return hkv.Key{stampBucket, []byte(label)} }

// Stamps is backend.Stamper.Stamps.
func (s *store) Stamps(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("read stamps: %w", err)
	}
	defer tx.Close()
	it := tx.Scan(ctx)
	if pit, ok := it.(hkv.PrefixIterator); ok {
		it = pit.WithPrefix(hkv.Key{stampBucket, {}})
	}
	defer it.Close()
	for it.Next(ctx) {
		if k := it.Key(); len(k) == 2 && bytes.Equal(k[0], stampBucket) {
			out[string(k[1])] = bytes.Clone(it.Val())
		}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("read stamps: %w", err)
	}
	return out, nil
}

// PutStamps is backend.Stamper.PutStamps, in a transaction of its own.
func (s *store) PutStamps(ctx context.Context, stamps map[string][]byte) error {
	if err := s.kv.begin(ctx); err != nil {
		return fmt.Errorf("write stamps: %w", err)
	}
	tx, _ := s.kv.Tx(ctx, true) // the transaction just begun
	if err := putStamps(ctx, tx, stamps); err != nil {
		s.kv.abort()
		return fmt.Errorf("write stamps: %w", err)
	}
	if err := s.kv.commit(ctx); err != nil {
		return fmt.Errorf("commit stamps: %w", err)
	}
	return nil
}

// putStamps writes stamps in key order (bbolt appends cheaply), deleting
// those that are nil.
func putStamps(ctx context.Context, tx hkv.Tx, stamps map[string][]byte) error {
	for _, l := range slices.SortedFunc(maps.Keys(stamps), strings.Compare) {
		var err error
		if v := stamps[l]; v == nil {
			err = tx.Del(ctx, stampKey(l))
		} else {
			err = tx.Put(ctx, stampKey(l), v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
