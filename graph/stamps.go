package graph

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	hkv "github.com/hidal-go/hidalgo/kv"
)

// Stamps are what ingest recorded about the file behind each source graph
// when it last read it (its size and modification time, and those of what
// its parse read elsewhere): opaque bytes to the store, kept beside the
// graphs so that a re-ingest can skip reading a file whose stamp still
// holds (SPEC §3.3, issue #14). The rule that keeps them honest: a stamp is
// written in the same transaction as its graph (Change.Stamp), every other
// write of a graph deletes its stamp, and PutStamps only records stamps for
// graphs whose stored content the caller has just confirmed.
//
// bbolt keeps them in a bucket of the store file, memory in a map; the SQL
// backends keep none (Stamps is empty, a re-ingest reads every file).
var stampBucket = []byte("skillgraph_stamps")

func stampKey(label string) hkv.Key { return hkv.Key{stampBucket, []byte(label)} }

// Stamps returns every graph's stamp, by graph label.
func (s *Store) Stamps(ctx context.Context) (_ map[string][]byte, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	defer s.readLock()()
	out := map[string][]byte{}
	switch {
	case s.kv != nil:
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
	case s.db == nil:
		for k, v := range s.stamps {
			out[k] = bytes.Clone(v)
		}
	}
	return out, nil
}

// PutStamps records stamps of graphs that are not changed (an ingest read
// the file and found the stored graph current), without a new graph
// version. A nil stamp deletes the graph's stamp.
func (s *Store) PutStamps(ctx context.Context, stamps map[string][]byte) (err error) {
	if len(stamps) == 0 || s.db != nil {
		return nil
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kv == nil {
		s.putStampsMemory(stamps)
		return nil
	}
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

// changeStamps is the stamp write of an Apply: each changed graph's new
// stamp, or its deletion.
func changeStamps(changes []Change) map[string][]byte {
	out := make(map[string][]byte, len(changes))
	for _, c := range changes {
		if c.Delete {
			out[c.Graph] = nil
			continue
		}
		out[c.Graph] = c.Stamp
	}
	return out
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

// putStampsMemory is putStamps for the memory backend (s.mu held).
func (s *Store) putStampsMemory(stamps map[string][]byte) {
	if s.stamps == nil {
		s.stamps = map[string][]byte{}
	}
	for l, v := range stamps {
		if v == nil {
			delete(s.stamps, l)
		} else {
			s.stamps[l] = bytes.Clone(v)
		}
	}
}
