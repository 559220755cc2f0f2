package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// The tally records (see backend.TallyKeeper) are a table of their own,
// created with the schema; every process sharing the database (replicas)
// reads them.
const sqlTallySchema = `CREATE TABLE IF NOT EXISTS skillgraph_tallies (version bigint PRIMARY KEY, at timestamptz NOT NULL, data bytea NOT NULL)`

// PutTallies is backend.TallyKeeper.PutTallies: one transaction, so a
// replica sees the new record and the pruned ones together.
func (s *store) PutTallies(ctx context.Context, recs []backend.TallyRecord, drop []int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write tallies: %w", err)
	}
	defer tx.Rollback()
	if err := putTally(ctx, tx, recs, drop); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit tallies: %w", err)
	}
	return nil
}

// putTally writes recs and deletes the records of drop in tx.
func putTally(ctx context.Context, tx *sql.Tx, recs []backend.TallyRecord, drop []int64) error {
	for _, rec := range recs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_tallies (version, at, data) VALUES ($1, $2, $3)
			ON CONFLICT (version) DO UPDATE SET at = EXCLUDED.at, data = EXCLUDED.data`, rec.Version, rec.At, rec.Data); err != nil {
			return fmt.Errorf("write tallies: %w", err)
		}
	}
	for _, v := range drop {
		if _, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_tallies WHERE version = $1`, v); err != nil {
			return fmt.Errorf("prune tallies: %w", err)
		}
	}
	return nil
}

// Tallies is backend.TallyKeeper.Tallies.
func (s *store) Tallies(ctx context.Context, data bool) ([]backend.TallyRecord, error) {
	q := `SELECT version, at, NULL::bytea FROM skillgraph_tallies ORDER BY version`
	if data {
		q = `SELECT version, at, data FROM skillgraph_tallies ORDER BY version`
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []backend.TallyRecord
	for rows.Next() {
		var r backend.TallyRecord
		var b sql.RawBytes
		if err := rows.Scan(&r.Version, &r.At, &b); err != nil {
			return nil, err
		}
		r.At = r.At.UTC()
		if data {
			r.Data = append([]byte(nil), b...)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
