package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cayleygraph/quad"
	"github.com/lib/pq"

	"github.com/skillgraph/skillgraph/graph/backend"
	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// The checkpoint (see backend.Block) lives in the tables
// skillgraph_checkpoint and skillgraph_checkpoint_stamp, written in the
// ingest's own transaction: a replica that sees a version sees its
// checkpoint too. (Written after the commit, as it was while Cayley owned
// the transaction, a replica polling in between read every quad instead:
// 65 s instead of 12 s at 10k skills.)

// The checkpoint tables, created with the schema. The delta columns
// (issue #27) let a replica read only what changed since the version it
// serves (see ReadSince): each block's version is the one that last wrote
// it, skillgraph_checkpoint_gone holds the graphs deleted and when, and
// the stamp's delta_at and delta_since say that every write from
// delta_since to delta_at (the stamp's own version, when the last writer
// kept them) is recorded so. They are additive: a database created before
// them gets them at open (ensureDeltaColumns), its old rows unversioned,
// and a writer that does not know them leaves delta_at behind the stamp,
// which a replica reads as "cannot tell".
const sqlCheckpointSchema = `CREATE TABLE IF NOT EXISTS skillgraph_checkpoint (label text PRIMARY KEY, block bytea NOT NULL, version bigint);
CREATE TABLE IF NOT EXISTS skillgraph_checkpoint_stamp (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL, delta_since bigint, delta_at bigint);
CREATE TABLE IF NOT EXISTS skillgraph_checkpoint_gone (label text PRIMARY KEY, version bigint NOT NULL)`

// sqlDeltaColumns are the delta columns a database made before them lacks.
var sqlDeltaColumns = []struct{ table, column string }{
	{"skillgraph_checkpoint", "version"},
	{"skillgraph_checkpoint_stamp", "delta_since"},
	{"skillgraph_checkpoint_stamp", "delta_at"},
}

// ensureDeltaColumns adds the delta columns a database made before them
// lacks, and the index of the blocks' versions. It asks first: ALTER TABLE
// and CREATE INDEX lock the table even when the column or index exists,
// and would make every replica's start wait for a writer's running ingest.
func ensureDeltaColumns(ctx context.Context, conn *sql.Conn) error {
	for _, c := range sqlDeltaColumns {
		var n int
		if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`, c.table, c.column).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := conn.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN IF NOT EXISTS `+c.column+` bigint`); err != nil {
				return fmt.Errorf("add %s.%s: %w", c.table, c.column, err)
			}
		}
	}
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'skillgraph_checkpoint_version'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		if _, err := conn.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS skillgraph_checkpoint_version ON skillgraph_checkpoint (version)`); err != nil {
			return fmt.Errorf("index checkpoint versions: %w", err)
		}
	}
	return nil
}

// checkpointSQL returns the checkpoint's blocks if it is stamped v and
// every block verifies; ok false means read the store.
func checkpointSQL(ctx context.Context, tx *sql.Tx, v int64) (blocks []backend.Block, ok bool, err error) {
	if v == 0 {
		return nil, false, nil
	}
	var stamp int64
	if err := tx.QueryRowContext(ctx, `SELECT version FROM skillgraph_checkpoint_stamp WHERE id = 1`).Scan(&stamp); err != nil || stamp != v {
		return nil, false, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT label, block FROM skillgraph_checkpoint`)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var b backend.Block
		if err := rows.Scan(&b.Label, &b.Data); err != nil {
			return nil, false, err
		}
		if checkpoint.Verify(b.Data) != nil {
			return nil, false, nil
		}
		blocks = append(blocks, b)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return blocks, true, nil
}

// CheckpointCurrent is backend.Checkpointer.CheckpointCurrent: the version
// read again with the checkpoint, in one transaction (another process may
// have written since).
func (s *store) CheckpointCurrent(ctx context.Context, _ int64) bool {
	tx, v, err := s.readState(ctx)
	if err != nil {
		return false
	}
	defer tx.Rollback()
	_, ok, err := checkpointSQL(ctx, tx, v)
	return ok && err == nil
}

// RefreshCheckpoint is backend.Checkpointer.RefreshCheckpoint, under the
// writer lock.
func (s *store) RefreshCheckpoint(ctx context.Context) (bool, error) {
	unlock, err := s.lockWriter(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	v, err := sqlVersion(ctx, s.db)
	if err != nil || v == 0 {
		return false, err
	}
	// Stamped -1 never matches: every block is rebuilt.
	if err := s.writeCheckpoint(ctx, -1, v, nil); err != nil {
		return false, fmt.Errorf("rebuild checkpoint: %w", err)
	}
	return true, nil
}

// writeCheckpoint is writeCheckpointTx in a transaction of its own.
func (s *store) writeCheckpoint(ctx context.Context, old, next int64, changes []backend.Change) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.writeCheckpointTx(ctx, tx, old, next, changes); err != nil {
		return err
	}
	return tx.Commit()
}

// writeCheckpointTx brings the checkpoint from old to next within tx (the
// writer lock held): the changed graphs' blocks when it is stamped old,
// else every block rebuilt from the store as tx sees it. Every block and
// deletion written carries next, for ReadSince.
func (s *store) writeCheckpointTx(ctx context.Context, tx *sql.Tx, old, next int64, changes []backend.Change) error {
	var stamp int64
	var since, at sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT version, delta_since, delta_at FROM skillgraph_checkpoint_stamp WHERE id = 1 FOR UPDATE`).Scan(&stamp, &since, &at)
	current := (err == nil && stamp == old) || (errors.Is(err, sql.ErrNoRows) && old == 0)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	// Deltas are readable from delta_since on. A rebuild starts them at
	// next. A write onto a current checkpoint keeps delta_since when the
	// last writer kept the delta columns (delta_at is its stamp), else
	// starts them at old: whatever a writer that knows no versions wrote
	// is at most old, so a reader of old or later misses none of it.
	deltaSince := next
	if current {
		deltaSince = old
		if since.Valid && at.Valid && at.Int64 == stamp {
			deltaSince = since.Int64
		}
	}
	// The blocks are gathered and written with one statement each way (a
	// statement per graph was a round trip per graph); the last word on a
	// label wins, as it did statement by statement.
	blocks := map[string][]byte{} // nil: delete
	var order []string
	put := func(label string, block []byte) error {
		if _, seen := blocks[label]; !seen {
			order = append(order, label)
		}
		blocks[label] = block
		return nil
	}
	if current {
		for _, c := range changes {
			if c.Delete || len(c.Quads) == 0 {
				_ = put(c.Graph, nil)
				continue
			}
			b, err := backend.EncodeGraph(c)
			if err != nil {
				return err
			}
			_ = put(c.Graph, b)
			s.hooks.Written()
		}
	} else if err := backend.RebuildCheckpoint(ctx, scanOf(tx), s.hooks, put, func() error {
		_, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint; DELETE FROM skillgraph_checkpoint_gone`)
		return err
	}); err != nil {
		return err
	}
	if err := putBlocks(ctx, tx, next, order, blocks); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint_stamp (id, version, delta_since, delta_at) VALUES (1, $1, $2, $1)
		ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, delta_since = EXCLUDED.delta_since, delta_at = EXCLUDED.delta_at`, next, deltaSince); err != nil {
		return err
	}
	return nil
}

// putBlocks writes the checkpoint's blocks of labels (nil: delete the
// label's block, recorded as gone at version v) in few statements: the
// deletes, one COPY-fed upsert of the blocks stamped v.
func putBlocks(ctx context.Context, tx *sql.Tx, v int64, labels []string, blocks map[string][]byte) error {
	var gone, kept []string
	for _, l := range labels {
		if blocks[l] == nil {
			gone = append(gone, l)
		} else {
			kept = append(kept, l)
		}
	}
	if len(gone) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint WHERE label = ANY($1)`, pq.StringArray(gone)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint_gone (label, version) SELECT unnest($1::text[]), $2
			ON CONFLICT (label) DO UPDATE SET version = EXCLUDED.version`, pq.StringArray(gone), v); err != nil {
			return err
		}
	}
	if len(kept) == 0 {
		return nil
	}
	// A graph written again is no longer gone (the table stays as small as
	// the graphs deleted and not back).
	if _, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint_gone WHERE label = ANY($1)`, pq.StringArray(kept)); err != nil {
		return err
	}
	err := copyRows(ctx, tx, "skillgraph_checkpoint_in", `label text, block bytea`, []string{"label", "block"}, len(kept),
		func(i int) []any { return []any{kept[i], blocks[kept[i]]} }, false)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint (label, block, version) SELECT label, block, $1 FROM skillgraph_checkpoint_in
		ON CONFLICT (label) DO UPDATE SET block = EXCLUDED.block, version = EXCLUDED.version`, v)
	return err
}

// ReadSince is backend.DeltaReader.ReadSince, in one REPEATABLE READ
// transaction: the version, the stamp and the blocks written after since
// are of one committed state.
func (s *store) ReadSince(ctx context.Context, since int64, workers int, fn func(label string, quads []quad.Quad, gone bool) error) (int64, bool, error) {
	tx, v, err := s.readState(ctx)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	if v == since {
		return v, true, nil
	}
	if since <= 0 || since > v {
		return v, false, nil
	}
	var stamp int64
	var dsince, at sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT version, delta_since, delta_at FROM skillgraph_checkpoint_stamp WHERE id = 1`).Scan(&stamp, &dsince, &at)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (stamp != v || !at.Valid || at.Int64 != v || !dsince.Valid || dsince.Int64 > since)) {
		return v, false, nil
	}
	if err != nil {
		return v, false, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT label, block FROM skillgraph_checkpoint WHERE version > $1`, since)
	if err != nil {
		return v, false, err
	}
	var blocks []backend.Block
	written := map[string]bool{}
	for rows.Next() {
		var b backend.Block
		if err := rows.Scan(&b.Label, &b.Data); err != nil {
			rows.Close()
			return v, false, err
		}
		if checkpoint.Verify(b.Data) != nil {
			rows.Close()
			return v, false, nil // as Read does: the store is the reference
		}
		blocks = append(blocks, b)
		written[b.Label] = true
	}
	if err := rows.Close(); err != nil {
		return v, false, err
	}
	if err := rows.Err(); err != nil {
		return v, false, err
	}
	var gone []string
	rows, err = tx.QueryContext(ctx, `SELECT label FROM skillgraph_checkpoint_gone WHERE version > $1`, since)
	if err != nil {
		return v, false, err
	}
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			rows.Close()
			return v, false, err
		}
		if !written[l] {
			gone = append(gone, l)
		}
	}
	if err := rows.Close(); err != nil {
		return v, false, err
	}
	if err := rows.Err(); err != nil {
		return v, false, err
	}
	if err := backend.DecodeBlocks(ctx, blocks, workers, func(label string, qs []quad.Quad) error { return fn(label, qs, false) }); err != nil {
		return v, false, err
	}
	for _, l := range gone {
		if err := fn(l, nil, true); err != nil {
			return v, false, err
		}
	}
	return v, true, nil
}
