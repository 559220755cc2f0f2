package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

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

// The checkpoint tables, created with the schema.
const sqlCheckpointSchema = `CREATE TABLE IF NOT EXISTS skillgraph_checkpoint (label text PRIMARY KEY, block bytea NOT NULL);
CREATE TABLE IF NOT EXISTS skillgraph_checkpoint_stamp (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`

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
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return false
	}
	defer tx.Rollback()
	v, err := sqlVersion(ctx, tx)
	if err != nil {
		return false
	}
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
// else every block rebuilt from the store as tx sees it.
func (s *store) writeCheckpointTx(ctx context.Context, tx *sql.Tx, old, next int64, changes []backend.Change) error {
	var stamp int64
	err := tx.QueryRowContext(ctx, `SELECT version FROM skillgraph_checkpoint_stamp WHERE id = 1 FOR UPDATE`).Scan(&stamp)
	current := (err == nil && stamp == old) || (errors.Is(err, sql.ErrNoRows) && old == 0)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
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
		_, err := tx.ExecContext(ctx, `DELETE FROM skillgraph_checkpoint`)
		return err
	}); err != nil {
		return err
	}
	if err := putBlocks(ctx, tx, order, blocks); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint_stamp (id, version) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`, next); err != nil {
		return err
	}
	return nil
}

// putBlocks writes the checkpoint's blocks of labels (nil: delete the
// label's block) in two statements: one DELETE, one COPY-fed upsert.
func putBlocks(ctx context.Context, tx *sql.Tx, labels []string, blocks map[string][]byte) error {
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
	}
	if len(kept) == 0 {
		return nil
	}
	err := copyRows(ctx, tx, "skillgraph_checkpoint_in", `label text, block bytea`, []string{"label", "block"}, len(kept),
		func(i int) []any { return []any{kept[i], blocks[kept[i]]} }, false)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint (label, block) SELECT label, block FROM skillgraph_checkpoint_in
		ON CONFLICT (label) DO UPDATE SET block = EXCLUDED.block`)
	return err
}
