package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/backend"
)

func init() {
	backend.Register(backend.Registration{
		Name:     "postgres",
		Aliases:  []string{"postgresql"},
		WholeURL: []string{"postgres://", "postgresql://"},
		Usage:    "postgres:DSN",
		Open:     open,
	})
}

// store is a PostgreSQL store: Cayley's QuadStore for writes, the
// connection pool for reads (see sqlScan).
type store struct {
	qs    graph.QuadStore
	db    *sql.DB
	hooks *backend.Hooks
}

// Close is backend.Backend.Close.
func (s *store) Close() error {
	return errors.Join(s.qs.Close(), s.db.Close())
}

// Scan is backend.Backend.Scan: one statement, so one snapshot.
func (s *store) Scan(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
	return sqlScan(ctx, s.db, dir, v, fn)
}

// GraphQuads is backend.Backend.GraphQuads, through the label index.
func (s *store) GraphQuads(ctx context.Context, label string) ([]quad.Quad, error) {
	var out []quad.Quad
	err := sqlScan(ctx, s.db, quad.Label, quad.IRI(label), func(q quad.Quad) error {
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read graph %s: %w", label, err)
	}
	return out, nil
}

// readState begins a read-only REPEATABLE READ transaction and reads the
// version in it: what the caller reads next is of that committed state.
// The caller rolls tx back.
func (s *store) readState(ctx context.Context) (tx *sql.Tx, v int64, err error) {
	tx, err = s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	if v, err = sqlVersion(ctx, tx); err != nil {
		tx.Rollback() //nolint:errcheck // the read failed; nothing to keep
		return nil, 0, err
	}
	return tx, v, nil
}

// Read is backend.Backend.Read: the version, the checkpoint's stamp and
// the quads in one REPEATABLE READ transaction, so they are of one
// committed state.
func (s *store) Read(ctx context.Context, r backend.ReadRequest) (int64, bool, error) {
	tx, v, err := s.readState(ctx)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	if r.UseCheckpoint {
		bl, ok, err := checkpointSQL(ctx, tx, v)
		if err != nil {
			return v, false, err
		}
		if ok {
			return v, true, backend.DecodeBlocks(ctx, bl, r.Workers, r.Blocks)
		}
	}
	return v, false, sqlScan(ctx, tx, quad.Any, nil, r.Quad)
}

// Apply is backend.Backend.Apply: every delta, the version bump and the
// checkpoint are written in one database transaction;
// writers in other processes are serialised by an advisory lock held for
// the whole Apply, so each reads the version its predecessor committed.
func (s *store) Apply(ctx context.Context, changes []backend.Change) (int64, error) {
	return s.ApplyTallied(ctx, changes, nil)
}

// ApplyTallied is backend.TallyApplier.ApplyTallied: Apply, with the
// hook's record written in the same database transaction, so a replica
// sees the version and its record together, and a failed write leaves
// neither.
func (s *store) ApplyTallied(ctx context.Context, changes []backend.Change, hook backend.TallyHook) (int64, error) {
	unlock, err := s.lockWriter(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	pre, err := s.graphsOf(ctx, changes)
	if err != nil {
		return 0, fmt.Errorf("read changed graphs: %w", err)
	}
	p, err := backend.PlanApply(ctx, pre, nil, changes)
	if err != nil {
		return 0, err
	}
	// One database transaction, however large: the rows are Cayley's (see
	// writeDeltas), batched, and the checkpoint and the version's tally
	// record go with them, so a replica sees the three together and a
	// failed write leaves none of them.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("write graphs: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after the commit
	first, err := firstWrite(ctx, tx)
	if err != nil {
		return 0, fmt.Errorf("write graphs: %w", err)
	}
	write := writeDeltas
	if first && len(p.Adds) > 0 {
		write = writeBulk
	}
	if err := write(ctx, tx, append(p.Dels, p.Adds...)); err != nil {
		return 0, fmt.Errorf("write graphs: %w", err)
	}
	if err := s.writeCheckpointTx(ctx, tx, p.Old, p.Next, changes); err != nil {
		return 0, fmt.Errorf("write checkpoint: %w", err)
	}
	if hook != nil {
		recs, drop, err := hook(ctx, p.Next)
		if err != nil {
			return 0, fmt.Errorf("tally record: %w", err)
		}
		if len(recs)+len(drop) > 0 {
			if err := putTally(ctx, tx, recs, drop); err != nil {
				return 0, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit graphs: %w", err)
	}
	return p.Next, nil
}
