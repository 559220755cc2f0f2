package server

import (
	"context"
	"time"

	"github.com/skillgraph/skillgraph/queries"

	"github.com/skillgraph/skillgraph/queries/history"
)

// inWrite makes the record of the version an ingest commits inside the
// store write (graph.TallyFunc), from the snapshot of that version known
// before the commit: the early one served (pre), or the update computed
// alongside the write (next), which it then waits for. Without either
// (a first write, another writer came in between) it records nothing and
// recordTallies records the version after the commit.
type inWrite struct {
	s        *Service
	base     int64
	prev     *queries.Snapshot // the store's snapshot of base, when served (what changed is against it)
	pre      *queries.Snapshot
	next     <-chan speculated
	got      *speculated // what next gave, once read
	recorded int64       // the version whose record the hook gave
}

// recordInWrite is the inWrite of an ingest from base; prev is the
// snapshot served before it, the store's unless failed.
func (s *Service) recordInWrite(base int64, prev *queries.Snapshot, failed bool, pre *queries.Snapshot, next <-chan speculated) *inWrite {
	if failed || prev == nil || prev.Version != base {
		prev = nil
	}
	return &inWrite{s: s, base: base, prev: prev, pre: pre, next: next}
}

// speculated is next's result, waited for once (by the hook or after the
// write): the channel gives it only once.
func (w *inWrite) speculated() speculated {
	if w.got == nil {
		sp := <-w.next
		w.got = &sp
	}
	return *w.got
}

// tally is the graph.TallyFunc of the write.
func (w *inWrite) tally(ctx context.Context, v int64) (time.Time, []byte, error) {
	var snap *queries.Snapshot
	switch {
	case w.pre != nil && w.pre.Version == v:
		snap = w.pre
	case w.next != nil && v == w.base+1:
		if w.got == nil {
			select {
			case sp := <-w.next:
				w.got = &sp
			case <-ctx.Done():
				return time.Time{}, nil, ctx.Err()
			}
		}
		snap = w.got.snap
	default:
		return time.Time{}, nil, nil
	}
	corpus := ""
	if len(w.s.corpora) > 0 {
		corpus = w.s.corpora[0]
	}
	var changes *history.StateChanges
	if w.prev != nil {
		changes = history.ChangesOf(w.prev, snap)
	}
	data, err := history.Encode(history.RecordOf(snap, corpus), changes)
	if err != nil {
		// Not the write's failure: the version commits, recorded after.
		w.s.log.Warn("the tallies of the version could not be encoded", "version", v, "err", err)
		return time.Time{}, nil, nil
	}
	w.recorded = v
	return time.Now(), data, nil
}

// recordTallies stores the tallies of the snapshot served as the record of
// graph version v (graph.Store.PutTallies) when that snapshot is the
// durable one of v and v has none yet: after every committed ingest or
// triage write of this writer. A failed record is logged, never the
// ingest's failure: the version and its answers are committed either way.
func (s *Service) recordTallies(ctx context.Context, v int64) {
	if s.beforeRecord != nil {
		s.beforeRecord(v)
	}
	snap := s.snap.Load()
	if snap == nil || snap.Version != v || v < 1 || !s.durable(snap) || s.recorded.Load() == v || !s.store.KeepsTallies() {
		return
	}
	if s.recorded.Load() == 0 {
		// The first write of this process: a warm store may hold the
		// record of v already, whose time is the version's own.
		if have, _, err := history.Stored(ctx, s.store); err == nil && len(have) > 0 && have[len(have)-1].Version == v {
			s.recorded.Store(v)
			return
		}
	}
	corpus := ""
	if len(s.corpora) > 0 {
		corpus = s.corpora[0]
	}
	at := s.IngestedAt() // when v was served: the time History gave it meanwhile
	if at.IsZero() {
		at = time.Now()
	}
	if err := history.Put(ctx, s.store, v, at, history.RecordOf(snap, corpus), nil); err != nil {
		s.log.Warn("the tallies of the version were not recorded", "version", v, "err", err)
		return
	}
	s.recorded.Store(v)
}

// History implements api.HistoryReader: the store's tally records of the
// versions up to snap's, oldest first, and snap's own last (from snap when
// its record is not written yet), so that an answer depends on the
// snapshot it is cached under alone.
func (s *Service) History(ctx context.Context, snap *queries.Snapshot) ([]history.Version, error) {
	all, skipped, err := history.Stored(ctx, s.store)
	if err != nil {
		return nil, err
	}
	if skipped > 0 {
		s.log.Warn("tally records of another format left out", "records", skipped)
	}
	out := all[:0]
	for _, v := range all {
		if v.Version <= snap.Version {
			out = append(out, v)
		}
	}
	if n := len(out); n == 0 || out[n-1].Version != snap.Version {
		corpus := ""
		if len(s.corpora) > 0 {
			corpus = s.corpora[0]
		}
		at := s.IngestedAt()
		if at.IsZero() {
			at = time.Now()
		}
		out = append(out, history.Version{Version: snap.Version, At: at.UTC(), Record: history.RecordOf(snap, corpus)})
	}
	return out, nil
}
