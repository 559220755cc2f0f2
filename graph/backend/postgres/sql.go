// Package postgres is the "postgres:DSN" store backend (also a bare
// postgres:// or postgresql:// URL): Cayley's SQL QuadStore on PostgreSQL,
// shared by several processes (an ingesting writer and read-only
// replicas). Writes go to Cayley's schema, exactly the rows Cayley's
// ApplyDeltas would write but batched with COPY (see writeDeltas), in one
// database transaction per ingest, serialised between processes by an
// advisory lock; reads are one joined SELECT in one REPEATABLE READ
// transaction; the checkpoint is two tables of its own. It keeps no
// stamps: a re-ingest reads every file.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/cayleygraph/cayley/graph"
	csql "github.com/cayleygraph/cayley/graph/sql"
	_ "github.com/cayleygraph/cayley/graph/sql/postgres" // registers Cayley's postgres backend (lib/pq driver)
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// The SQL backend writes Cayley's rows (Cayley's schema; writeDeltas
// batches what Cayley's ApplyDeltas sends a row at a time) but reads
// through one joined SELECT per call. Cayley's own SQL iterators select the
// quads' hashes and then look every value up with a query of its own
// (cached in a 1024-entry LRU): a few round trips per quad, and — worse —
// a value whose last quad another process deleted in between comes back as
// a nil value, silently. One statement reads one MVCC snapshot, so a graph
// is seen either before or after a concurrent Apply, never half of each.

// kind is Cayley's name of the backend, and of the database/sql driver
// its package registers.
const kind = "postgres"

// initLockKey is the PostgreSQL advisory lock key that serialises schema
// creation between processes opening a fresh database at the same time.
const initLockKey = 0x736b696c6c677270 // "skillgrp"

// writeLockKey is the PostgreSQL advisory lock key a writer holds for a
// whole Apply: two processes ingesting into one database are serialised,
// each computing its difference from, and bumping, the version its
// predecessor committed (two unserialised writers both announced the same
// version, one bump lost).
const writeLockKey = 0x736b696c6c777274 // "skillwrt"

// lockWriter takes the writer lock on a connection of its own (a session
// lock: released by the unlock, or by the server when the connection or the
// process dies). It waits for another writer, as long as ctx allows.
func (s *store) lockWriter(ctx context.Context) (func(), error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("writer lock: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(writeLockKey)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("writer lock: %w", err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, int64(writeLockKey))
		conn.Close()
	}, nil
}

// queryer is what reads need of *sql.DB and *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// sqlVersion reads the graph version counter through q.
func sqlVersion(ctx context.Context, q queryer) (int64, error) {
	return backend.Version(ctx, scanOf(q))
}

// scanOf is sqlScan through q as a backend.ScanFunc.
func scanOf(q queryer) backend.ScanFunc {
	return func(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
		return sqlScan(ctx, q, dir, v, fn)
	}
}

func open(ctx context.Context, url, dsn string, h *backend.Hooks) (backend.Backend, error) {
	if dsn == "" {
		return nil, fmt.Errorf("store %q: %s needs a DSN (%s:postgres://user@host:port/db?sslmode=disable)", url, kind, kind)
	}
	db, err := sql.Open(kind, dsn)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", redact(url), err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: connect: %w", redact(url), err)
	}
	if err := initSchema(ctx, db, dsn); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: init: %w", redact(url), err)
	}
	qs, err := graph.NewQuadStore(kind, dsn, nil)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: open: %w", redact(url), err)
	}
	return &store{qs: qs, db: db, hooks: h}, nil
}

// redact hides a password in a store URL for error messages.
func redact(url string) string {
	at := strings.LastIndex(url, "@")
	if at < 0 {
		return url
	}
	head := url[:at]
	if i := strings.LastIndex(head, "://"); i >= 0 {
		if user, _, ok := strings.Cut(head[i+3:], ":"); ok {
			return head[:i+3] + user + ":***" + url[at:]
		}
	}
	return url
}

// initSchema creates Cayley's tables unless they exist. Cayley's Init runs
// in one transaction (PostgreSQL has transactional DDL) but ignores the
// commit's error, so the tables are checked again afterwards.
func initSchema(ctx context.Context, db *sql.DB, dsn string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(initLockKey)); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(initLockKey))
	n, err := countTables(ctx, conn)
	if err != nil {
		return err
	}
	if n != 2 {
		if err := graph.InitQuadStore(kind, dsn, nil); err != nil && !errors.Is(err, graph.ErrDatabaseExists) {
			return err
		}
		if n, err = countTables(ctx, conn); err == nil && n != 2 {
			err = fmt.Errorf("tables nodes and quads missing after schema creation (%d of 2 present)", n)
		}
		if err != nil {
			return err
		}
	}
	// Cayley indexes quads by subject, predicate and object but not by label:
	// every per-graph read (GraphQuads, SourceDigest, Version) would scan the
	// whole table.
	// Asked first: CREATE INDEX waits for the quads' lock even when the
	// index exists, and a first write holds it (bulk.go) until it commits.
	var labelIndex int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'skillgraph_label_index'`).Scan(&labelIndex); err != nil {
		return err
	}
	if labelIndex == 0 {
		if _, err = conn.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS skillgraph_label_index ON quads (label_hash)`); err != nil {
			return err
		}
	}
	if _, err = conn.ExecContext(ctx, sqlCheckpointSchema+";\n"+sqlTallySchema); err != nil {
		return err
	}
	return ensureDeltaColumns(ctx, conn)
}

func countTables(ctx context.Context, conn *sql.Conn) (int, error) {
	var n int
	err := conn.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name IN ('nodes', 'quads')`).Scan(&n)
	return n, err
}

// nodeCols are the columns of Cayley's nodes table that hold a value.
const nodeCols = "value, value_string, datatype, language, iri, bnode, value_int, value_bool, value_float, value_time"

var sqlQuadsQuery = func() string {
	var cols []string
	for _, t := range []string{"s", "p", "o", "l"} {
		for _, c := range strings.Split(nodeCols, ", ") {
			cols = append(cols, t+"."+c)
		}
	}
	return `SELECT ` + strings.Join(cols, ", ") + `
FROM quads q
JOIN nodes s ON s.hash = q.subject_hash
JOIN nodes p ON p.hash = q.predicate_hash
JOIN nodes o ON o.hash = q.object_hash
LEFT JOIN nodes l ON l.hash = q.label_hash`
}()

// sqlScan is Backend.Scan: one statement, so one
// consistent snapshot, with every value joined in.
func sqlScan(ctx context.Context, db queryer, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
	query, args := sqlQuadsQuery, []any(nil)
	if dir != quad.Any {
		query += "\nWHERE q." + dir.String() + "_hash = $1"
		args = append(args, csql.HashOf(v).SQLValue())
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	return scanRows(rows, fn)
}

// scanRows decodes rows of sqlQuadsQuery into fn, and closes them.
func scanRows(rows *sql.Rows, fn func(quad.Quad) error) error {
	defer rows.Close()
	var err error
	var (
		cells [4]nodeRow
		ptrs  = make([]any, 0, 40)
	)
	for i := range cells {
		ptrs = append(ptrs, cells[i].ptrs()...)
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		var vals [4]quad.Value
		for i := range cells {
			if vals[i], err = cells[i].value(); err != nil {
				return err
			}
		}
		if err := fn(quad.Quad{Subject: vals[0], Predicate: vals[1], Object: vals[2], Label: vals[3]}); err != nil {
			return err
		}
	}
	return rows.Err()
}

// nodeRow is one row of Cayley's nodes table.
type nodeRow struct {
	data   []byte
	str    sql.NullString
	typ    sql.NullString
	lang   sql.NullString
	iri    sql.NullBool
	bnode  sql.NullBool
	vint   sql.NullInt64
	vbool  sql.NullBool
	vfloat sql.NullFloat64
	vtime  sql.NullTime
}

func (n *nodeRow) ptrs() []any {
	return []any{&n.data, &n.str, &n.typ, &n.lang, &n.iri, &n.bnode, &n.vint, &n.vbool, &n.vfloat, &n.vtime}
}

// value decodes a node the way Cayley's SQL QuadStore.NameOf does; a row of
// NULLs (the label of a triple) is nil.
func (n *nodeRow) value() (quad.Value, error) {
	switch {
	case n.str.Valid:
		str := strings.ReplaceAll(n.str.String, `\x00`, "\u0000") // Cayley's NUL escape
		switch {
		case n.iri.Bool:
			return quad.IRI(n.str.String), nil
		case n.bnode.Bool:
			return quad.BNode(n.str.String), nil
		case n.lang.Valid:
			return quad.LangString{Value: quad.String(str), Lang: n.lang.String}, nil
		case n.typ.Valid:
			return quad.TypedString{Value: quad.String(str), Type: quad.IRI(n.typ.String)}, nil
		}
		return quad.String(str), nil
	case n.vint.Valid:
		return quad.Int(n.vint.Int64), nil
	case n.vbool.Valid:
		return quad.Bool(n.vbool.Bool), nil
	case n.vfloat.Valid:
		return quad.Float(n.vfloat.Float64), nil
	case n.vtime.Valid:
		return quad.Time(n.vtime.Time.UTC()), nil
	}
	v, err := pquads.UnmarshalValue(n.data)
	if err != nil {
		return nil, fmt.Errorf("decode stored value: %w", err)
	}
	return v, nil
}
