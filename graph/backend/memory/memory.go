// Package memory is the "memory" store backend: Cayley's memstore and a
// map of stamps, gone with the process. It keeps no checkpoint. It is the
// smallest backend, and the model of one: a Backend, its registration,
// and the shared suite (graph/graphtest) in its test.
package memory

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cayleygraph/cayley/graph/memstore"

	"github.com/skillgraph/skillgraph/graph/backend"
)

func init() {
	backend.Register(backend.Registration{
		Name:    "memory",
		Aliases: []string{"mem"},
		Usage:   "memory",
		Open: func(context.Context, string, string, *backend.Hooks) (backend.Backend, error) {
			return &store{Cayley: backend.Cayley{QS: memstore.New()}}, nil
		},
		// memstore has no locking of its own and writes caches on reads.
		ExclusiveReads: true,
	})
}

// store is a memory store. graph.Store's lock covers every call.
type store struct {
	backend.Cayley
	stamps map[string][]byte             // the graphs' stamps (see backend.Stamper)
	talls  map[int64]backend.TallyRecord // tally records by version (see backend.TallyKeeper)
}

// Read is backend.Backend.Read: the version and every quad under the lock.
func (s *store) Read(ctx context.Context, r backend.ReadRequest) (int64, bool, error) {
	v, err := backend.Version(ctx, s.Scan)
	if err != nil || v == 0 {
		return 0, false, err
	}
	return v, false, s.ScanData(ctx, r.Quad)
}

// Apply is backend.Backend.Apply. Nothing can fail half-way: every delta
// is computed before the first is applied.
func (s *store) Apply(ctx context.Context, changes []backend.Change) (int64, error) {
	return s.ApplyTallied(ctx, changes, nil)
}

// ApplyTallied is backend.TallyApplier.ApplyTallied: the hook runs after
// the plan and before the first delta is applied, so its failure leaves
// the store as it was, and its record goes in under the same lock as the
// version (graph.Store's).
func (s *store) ApplyTallied(ctx context.Context, changes []backend.Change, hook backend.TallyHook) (int64, error) {
	p, err := backend.PlanApply(ctx, s, s.IndexDeltas, changes)
	if err != nil {
		return 0, err
	}
	var recs []backend.TallyRecord
	var drop []int64
	if hook != nil {
		if recs, drop, err = hook(ctx, p.Next); err != nil {
			return 0, err
		}
		if err := ctx.Err(); err != nil { // cancelled while the record was made: nothing is written
			return 0, err
		}
	}
	if err := backend.WriteBatches(context.Background(), s.QS, p.Dels, p.Adds); err != nil {
		return 0, fmt.Errorf("write graphs: %w", err)
	}
	s.put(backend.ChangeStamps(changes))
	_ = s.PutTallies(ctx, recs, drop) // cannot fail
	return p.Next, nil
}

// Stamps is backend.Stamper.Stamps.
func (s *store) Stamps(context.Context) (map[string][]byte, error) {
	out := make(map[string][]byte, len(s.stamps))
	for k, v := range s.stamps {
		out[k] = bytes.Clone(v)
	}
	return out, nil
}

// PutStamps is backend.Stamper.PutStamps.
func (s *store) PutStamps(_ context.Context, stamps map[string][]byte) error {
	s.put(stamps)
	return nil
}

func (s *store) put(stamps map[string][]byte) {
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

// Close is backend.Backend.Close.
func (s *store) Close() error { return s.QS.Close() }
