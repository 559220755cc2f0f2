package memory

import (
	"bytes"
	"context"
	"maps"
	"slices"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// PutTallies is backend.TallyKeeper.PutTallies.
func (s *store) PutTallies(_ context.Context, recs []backend.TallyRecord, drop []int64) error {
	if s.talls == nil {
		s.talls = map[int64]backend.TallyRecord{}
	}
	for _, rec := range recs {
		rec.Data = bytes.Clone(rec.Data)
		s.talls[rec.Version] = rec
	}
	for _, v := range drop {
		delete(s.talls, v)
	}
	return nil
}

// Tallies is backend.TallyKeeper.Tallies.
func (s *store) Tallies(_ context.Context, data bool) ([]backend.TallyRecord, error) {
	out := make([]backend.TallyRecord, 0, len(s.talls))
	for _, v := range slices.Sorted(maps.Keys(s.talls)) {
		r := s.talls[v]
		if data {
			r.Data = bytes.Clone(r.Data)
		} else {
			r.Data = nil
		}
		out = append(out, r)
	}
	return out, nil
}
