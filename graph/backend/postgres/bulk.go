package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/cayleygraph/cayley/graph"
	"github.com/lib/pq"
)

// A first write into an empty store loads its rows the way PostgreSQL's
// own bulk-load advice says (docs "Populating a Database"): the quads'
// secondary indexes and foreign keys are dropped inside the ingest's
// transaction, the rows inserted, and each index and constraint created
// again, from the definition the database held, before the commit. At 10k
// skills the rows cost the server seven index insertions and four
// foreign-key lookups each, most of the PostgreSQL ingest; one sort per
// index and one join per key cost a fraction of it. The unique indexes
// stay: they decide which duplicate a quad is (ON CONFLICT), as in Cayley.
// The drops lock the quads table until the commit: readers of the store
// wait for the first version instead of reading version 0, an empty
// store, meanwhile (docs/decisions.md).

// bulkIndexes are the quads' indexes a first write drops and rebuilds:
// every one but the primary key and the unique ones.
var bulkIndexes = []string{"ops_index", "osp_index", "pos_index", "spo_index", "skillgraph_label_index"}

// bulkMaintenanceMem is the sort memory each index rebuild may use.
const bulkMaintenanceMem = "256MB"

// writeBulk is writeDeltas into an empty store within tx, with the
// quads' secondary indexes and foreign keys dropped while the rows go in
// and created again after: the same rows, the same schema at the commit.
func writeBulk(ctx context.Context, tx *sql.Tx, in []graph.Delta) error {
	restore, err := dropForBulk(ctx, tx)
	if err != nil {
		return fmt.Errorf("bulk load: %w", err)
	}
	if err := writeDeltas(ctx, tx, in); err != nil {
		return err
	}
	if err := restore(); err != nil {
		return fmt.Errorf("bulk load: rebuild indexes: %w", err)
	}
	return nil
}

// firstWrite reports whether tx sees the quads table empty: the write is
// a store's first, nothing for the indexes to hold yet.
func firstWrite(ctx context.Context, tx *sql.Tx) (bool, error) {
	var any bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM quads)`).Scan(&any); err != nil {
		return false, err
	}
	return !any, nil
}

// dropForBulk drops the quads' secondary indexes and foreign keys within
// tx and returns what creates them again, as the database defined them.
func dropForBulk(ctx context.Context, tx *sql.Tx) (restore func() error, err error) {
	var creates, drops []string
	idx, err := namedDefs(ctx, tx, `SELECT indexname, indexdef FROM pg_indexes
		WHERE schemaname = current_schema() AND tablename = 'quads' AND indexname = ANY($1) ORDER BY indexname`, pq.StringArray(bulkIndexes))
	if err != nil {
		return nil, err
	}
	for _, nd := range idx {
		drops = append(drops, `DROP INDEX `+pq.QuoteIdentifier(nd[0]))
		creates = append(creates, nd[1])
	}
	fks, err := namedDefs(ctx, tx, `SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conrelid = 'quads'::regclass AND contype = 'f' ORDER BY conname`)
	if err != nil {
		return nil, err
	}
	for _, nd := range fks {
		drops = append(drops, `ALTER TABLE quads DROP CONSTRAINT `+pq.QuoteIdentifier(nd[0]))
		creates = append(creates, `ALTER TABLE quads ADD CONSTRAINT `+pq.QuoteIdentifier(nd[0])+` `+nd[1])
	}
	for _, d := range drops {
		if _, err := tx.ExecContext(ctx, d); err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
	}
	return func() error {
		if _, err := tx.ExecContext(ctx, `SET LOCAL maintenance_work_mem = '`+bulkMaintenanceMem+`'`); err != nil {
			return err
		}
		for _, c := range creates {
			if _, err := tx.ExecContext(ctx, c); err != nil {
				return fmt.Errorf("%s: %w", c, err)
			}
		}
		return nil
	}, nil
}

// closeRows closes rows and returns the error that ended them, if any.
func closeRows(rows *sql.Rows) error {
	if err := rows.Close(); err != nil {
		return err
	}
	return rows.Err()
}

// namedDefs runs a query of (name, definition) rows and returns them.
func namedDefs(ctx context.Context, tx *sql.Tx, query string, args ...any) ([][2]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for rows.Next() {
		var nd [2]string
		if err := rows.Scan(&nd[0], &nd[1]); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, nd)
	}
	return out, closeRows(rows)
}
