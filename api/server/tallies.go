package server

import (
	"context"
	"time"

	"github.com/skillgraph/skillgraph/queries"

	"github.com/skillgraph/skillgraph/queries/history"
)

// recordTallies stores the tallies of the snapshot served as the record of
// graph version v (graph.Store.PutTallies) when that snapshot is the
// durable one of v and v has none yet: after every committed ingest or
// triage write of this writer. A failed record is logged, never the
// ingest's failure: the version and its answers are committed either way.
func (s *Service) recordTallies(ctx context.Context, v int64) {
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
	if err := history.Put(ctx, s.store, v, at, history.RecordOf(snap, corpus)); err != nil {
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
