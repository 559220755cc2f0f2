package graph

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// TallyRecord is one graph version's tallies as the store keeps them (see
// PutTallies).
type TallyRecord = backend.TallyRecord

// MaxTallyRecord bounds the bytes of one TallyRecord's Data: a record is a
// bounded summary of a version (its tallies and a capped list of what
// changed state in it), never a copy of its graph.
const MaxTallyRecord = 64 << 10

// TallyMerge merges the data of a record the pruning rule drops (earlier)
// into the data of the next record it keeps (later), so that what the
// kept one says changed is what changed since the record kept before it.
// The store does not read the data: the encoder (queries/history) merges.
type TallyMerge func(earlier, later []byte) []byte

// The pruning rule of the tally records (docs/decisions.md, "Tallies per
// graph version"): every version of the last TallyRecentWindow is kept, at
// most TallyRecentMax of them (the newest); before that window, the last
// version of each UTC day, for TallyDays days; anything older is dropped.
// A store so holds at most TallyRecentMax + TallyDays records, about 2.7 MB
// at 512 bytes each.
const (
	TallyRecentWindow = 7 * 24 * time.Hour
	TallyRecentMax    = 5000
	TallyDays         = 365
)

// ErrNoTallies is returned by PutTallies on a backend that keeps none.
var ErrNoTallies = fmt.Errorf("this store backend keeps no tally history")

// KeepsTallies reports whether the backend keeps tally records.
func (s *Store) KeepsTallies() bool {
	_, ok := s.b.(backend.TallyKeeper)
	return ok
}

// PutTallies records data, the encoded tallies of graph version v, at
// time at, and prunes the older records by the rule above in the same
// write. v must be a version the store has committed (1 up to the current
// one): a record never describes a version that is not in the store. The
// record is its own write, after the version's: what writes a version
// whose snapshot is known before the commit writes its record in the
// version's own transaction instead (ApplyTallied); PutTallies is for the
// others (a first write, a version another writer committed meanwhile).
//
// merge, when not nil, folds the data of each dropped record into the
// next kept one (see TallyMerge); nil drops them as they are.
func (s *Store) PutTallies(ctx context.Context, v int64, at time.Time, data []byte, merge TallyMerge) (err error) {
	tk, ok := s.b.(backend.TallyKeeper)
	if !ok {
		return ErrNoTallies
	}
	if len(data) == 0 || len(data) > MaxTallyRecord {
		return fmt.Errorf("tallies of version %d: %d bytes (want 1 to %d)", v, len(data), MaxTallyRecord)
	}
	cur, err := s.Version(ctx)
	if err != nil {
		return err
	}
	if v < 1 || v > cur {
		return fmt.Errorf("tallies of version %d: the store has committed versions 1 to %d", v, cur)
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return err
	}
	if err := s.trusted(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	index, err := tk.Tallies(ctx, false)
	if err != nil {
		return fmt.Errorf("read tally index: %w", err)
	}
	rec := TallyRecord{Version: v, At: at.UTC(), Data: slices.Clone(data)}
	recs, drop, err := prunePlan(ctx, tk, index, rec, merge)
	if err != nil {
		return err
	}
	if err := tk.PutTallies(ctx, recs, drop); err != nil {
		return fmt.Errorf("write tallies of version %d: %w", v, err)
	}
	return nil
}

// TallyFunc gives the encoded tallies of graph version v and their time,
// for the write that commits v (see ApplyTallied); nil data records none.
// It runs inside that write, so it should only wait for what it needs:
// an error fails the whole write, version included.
type TallyFunc func(ctx context.Context, v int64) (at time.Time, data []byte, err error)

// ApplyTallied is Apply with the record of the new version (tally's)
// written in the same transaction as the version, pruning as PutTallies
// does: a crash, a failed write or a cancelled context leaves neither the
// version nor its record. On a backend that keeps no tallies, or with a
// nil tally, it is Apply.
func (s *Store) ApplyTallied(ctx context.Context, changes []Change, tally TallyFunc, merge TallyMerge) (v int64, err error) {
	ta, ok := s.b.(backend.TallyApplier)
	tk, _ := s.b.(backend.TallyKeeper)
	if !ok || tk == nil || tally == nil {
		return s.Apply(ctx, changes)
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, err
	}
	if err := s.trusted(ctx); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The index is read before the write (this lock keeps this process's
	// writers out; a record another process adds meanwhile is pruned by
	// a later write).
	index, err := tk.Tallies(ctx, false)
	if err != nil {
		return 0, fmt.Errorf("read tally index: %w", err)
	}
	return ta.ApplyTallied(ctx, changes, func(ctx context.Context, v int64) ([]TallyRecord, []int64, error) {
		at, data, err := tally(ctx, v)
		if err != nil {
			return nil, nil, fmt.Errorf("tallies of version %d: %w", v, err)
		}
		if data == nil {
			return nil, nil, nil
		}
		if len(data) > MaxTallyRecord {
			return nil, nil, fmt.Errorf("tallies of version %d: %d bytes (want 1 to %d)", v, len(data), MaxTallyRecord)
		}
		return prunePlan(ctx, tk, index, TallyRecord{Version: v, At: at.UTC(), Data: slices.Clone(data)}, merge)
	})
}

// prunePlan is the write of rec into a store whose records are index
// (without data): the records to put (rec, and the kept ones a merge
// rewrote) and the versions the rule drops. The data of the records is
// read only when a merge has something to merge.
func prunePlan(ctx context.Context, tk backend.TallyKeeper, index []TallyRecord, rec TallyRecord, merge TallyMerge) ([]TallyRecord, []int64, error) {
	drop := pruneTallies(append(slices.Clone(index), TallyRecord{Version: rec.Version, At: rec.At}), rec.At)
	recs := []TallyRecord{rec}
	if merge == nil || len(drop) == 0 {
		return recs, drop, nil
	}
	all, err := tk.Tallies(ctx, true)
	if err != nil {
		return nil, nil, fmt.Errorf("read tallies to prune: %w", err)
	}
	all = slices.DeleteFunc(all, func(r TallyRecord) bool { return r.Version == rec.Version })
	all = append(all, rec)
	slices.SortFunc(all, func(a, b TallyRecord) int { return int(a.Version - b.Version) })
	var carry []byte // the merged data of the dropped records since the last kept one
	for i := range all {
		r := &all[i]
		if _, dropped := slices.BinarySearch(drop, r.Version); dropped {
			if carry == nil {
				carry = r.Data
			} else {
				carry = merge(carry, r.Data)
			}
			continue
		}
		if carry == nil {
			continue
		}
		r.Data, carry = merge(carry, r.Data), nil
		if r.Version == rec.Version {
			recs[0] = *r
		} else {
			recs = append(recs, *r)
		}
	}
	for _, r := range recs {
		if len(r.Data) > MaxTallyRecord {
			return nil, nil, fmt.Errorf("tallies of version %d merged: %d bytes, over %d", r.Version, len(r.Data), MaxTallyRecord)
		}
	}
	return recs, drop, nil
}

// Tallies returns the stored tally records, oldest version first (none on
// a backend that keeps none).
func (s *Store) Tallies(ctx context.Context) (_ []TallyRecord, err error) {
	tk, ok := s.b.(backend.TallyKeeper)
	if !ok {
		return nil, nil
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	recs, err := tk.Tallies(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("read tallies: %w", err)
	}
	return recs, nil
}

// pruneTallies returns the versions the rule drops from recs (any order;
// one record per version, the last given winning) at time now.
func pruneTallies(recs []TallyRecord, now time.Time) []int64 {
	byVersion := map[int64]TallyRecord{}
	for _, r := range recs {
		byVersion[r.Version] = r
	}
	all := make([]TallyRecord, 0, len(byVersion))
	for _, r := range byVersion {
		all = append(all, r)
	}
	// Newest first: the versions kept are the first of their kind met.
	slices.SortFunc(all, func(a, b TallyRecord) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return int(b.Version - a.Version)
	})
	recent := now.Add(-TallyRecentWindow)
	oldest := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -TallyDays)
	var drop []int64
	kept, days := 0, map[string]bool{}
	for _, r := range all {
		switch day := r.At.UTC().Format(time.DateOnly); {
		case !r.At.Before(recent):
			if kept < TallyRecentMax {
				kept++
				continue
			}
		case r.At.Before(oldest):
		case !days[day]:
			days[day] = true
			continue
		}
		drop = append(drop, r.Version)
	}
	slices.Sort(drop)
	return drop
}
