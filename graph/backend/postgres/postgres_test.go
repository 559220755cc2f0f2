package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph/graphtest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
)

// TestSuite: PostgreSQL passes the shared suite: persistent and shared by
// several processes, a checkpoint written after the ingest commits, no
// stamps. It needs SKILLGRAPH_TEST_POSTGRES (see graph/pgtest): skipped
// without it, failed under SKILLGRAPH_REQUIRE_POSTGRES=1.
func TestSuite(t *testing.T) {
	graphtest.RunSuite(t, harness)
}

var harness = graphtest.Harness{
	URL:                     func(t *testing.T) string { return "postgres:" + pgtest.Scratch(t) },
	Persistent:              true,
	Shared:                  true,
	Checkpoint:              true,
	CheckpointInTransaction: true,
	EditCheckpoint:          editCheckpoint,
	Slow:                    true,
}

// editCheckpoint edits the checkpoint tables of the store at url.
func editCheckpoint(t *testing.T, url string, edit func(*graphtest.RawCheckpoint)) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("postgres", strings.TrimPrefix(url, "postgres:"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after the commit
	c := graphtest.RawCheckpoint{Stamp: -1, Blocks: map[string][]byte{}}
	err = tx.QueryRowContext(ctx, `SELECT version FROM skillgraph_checkpoint_stamp WHERE id = 1`).Scan(&c.Stamp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT label, block FROM skillgraph_checkpoint`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var label string
		var block []byte
		if err := rows.Scan(&label, &block); err != nil {
			t.Fatal(err)
		}
		c.Blocks[label] = block
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	edit(&c)
	for _, stmt := range []string{`DELETE FROM skillgraph_checkpoint`, `DELETE FROM skillgraph_checkpoint_stamp`} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if c.Stamp >= 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint_stamp (id, version) VALUES (1, $1)`, c.Stamp); err != nil {
			t.Fatal(err)
		}
	}
	for label, block := range c.Blocks {
		if _, err := tx.ExecContext(ctx, `INSERT INTO skillgraph_checkpoint (label, block) VALUES ($1, $2)`, label, block); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestDatabaseGoneMidIngest: the writer's connections die during the
// write (a database restart); nothing of that ingest is visible, the
// version is the previous one, and the next ingest succeeds.
func TestDatabaseGoneMidIngest(t *testing.T) {
	ctx := context.Background()
	url := harness.URL(t)
	w := graphtest.Open(t, url)
	graphs, per := 20, 100
	graphtest.ApplyVersioned(t, w, graphs, per)
	admin, err := sql.Open("postgres", strings.TrimPrefix(url, "postgres:"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// The quads table is locked against writes first (SHARE: reads
	// go on), so the writer cannot finish: it waits inside its write
	// transaction for the lock (it used to be polled for while it ran,
	// and on a loaded machine it sometimes finished first). Then every
	// session but this test's ends, as a restart would end them, and
	// the lock is let go.
	hold, err := admin.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback() //nolint:errcheck // rolled back below; again is a no-op
	var holder int
	if err := hold.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&holder); err != nil {
		t.Fatal(err)
	}
	if _, err := hold.ExecContext(ctx, `LOCK TABLE quads IN SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	res := make(chan error, 1)
	go func() {
		_, err := w.Apply(ctx, graphtest.Versioned(graphs, per, 2))
		res <- err
	}()
	for {
		var n int
		err := admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1 AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO quads%'`, holder).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-res:
			t.Fatalf("the ingest finished while the quads table was locked (%v)", err)
		default:
		}
		if n > 0 {
			break // each poll is a round trip to the server; the writer cannot finish meanwhile
		}
	}
	if _, err := admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1`, holder); err != nil {
		t.Fatal(err)
	}
	if err := hold.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := <-res; err == nil {
		t.Fatal("an ingest whose connection died reported success")
	}
	r := graphtest.Open(t, url)
	if v, err := graphtest.CheckVersioned(ctx, r, graphs*per); err != nil || v != 1 {
		t.Fatalf("after the interrupted ingest: version %d, %v", v, err)
	}
	if v := graphtest.ApplyVersioned(t, w, graphs, per); v != 2 {
		t.Fatalf("next ingest announced %d", v)
	}
	if v, err := graphtest.CheckVersioned(ctx, r, graphs*per); err != nil || v != 2 {
		t.Fatalf("after the next ingest: version %d, %v", v, err)
	}
}
