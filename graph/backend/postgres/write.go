package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/cayleygraph/cayley/graph"
	graphlog "github.com/cayleygraph/cayley/graph/log"
	"github.com/cayleygraph/cayley/graph/refs"
	csql "github.com/cayleygraph/cayley/graph/sql"
	"github.com/cayleygraph/quad"
	"github.com/lib/pq"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// writeDeltas writes in to Cayley's tables within tx, leaving exactly the
// rows Cayley's SQL QuadStore.ApplyDeltas (with its postgres RunTx and
// IgnoreDup, IgnoreMissing — the options of backend.ApplyDeltas) would
// leave: the same node rows and reference counts, the same quads in the
// same horizon order. Cayley sends one statement per node and per quad, a
// round trip each (≈ 3× the bbolt ingest at 10k); here each step is one
// COPY into a temporary table and one set-based statement:
//
//  1. nodes whose count grows (in hash order, as SplitDeltas sorts them):
//     inserted, or their refs added to (Cayley's ON CONFLICT DO UPDATE);
//  2. added quads, in delta order so the horizons are Cayley's: inserted,
//     duplicates skipped (ON CONFLICT DO NOTHING);
//  3. deleted quads: deleted; a quad that was not there gives its nodes'
//     references back, as Cayley's fixNodes does, but only to nodes whose
//     count shrinks (Cayley fixes those alone);
//  4. nodes whose count shrinks: decremented, then every node left with
//     refs <= 0 is deleted — only when some count shrank, as in Cayley.
//
// The temporary tables are dropped at the commit (or the rollback).
func writeDeltas(ctx context.Context, tx *sql.Tx, in []graph.Delta) error {
	d := graphlog.SplitDeltas(in)
	if err := incNodes(ctx, tx, d.IncNode); err != nil {
		return fmt.Errorf("insert nodes: %w", err)
	}
	if err := addQuads(ctx, tx, d.QuadAdd); err != nil {
		return fmt.Errorf("insert quads: %w", err)
	}
	fix, err := delQuads(ctx, tx, d.QuadDel)
	if err != nil {
		return fmt.Errorf("delete quads: %w", err)
	}
	if err := decNodes(ctx, tx, d.DecNode, fix); err != nil {
		return fmt.Errorf("release nodes: %w", err)
	}
	return nil
}

// nodeValueCols are the value columns of Cayley's nodes table, in the
// order of the temporary table's value columns.
var nodeValueCols = strings.Split(nodeCols, ", ")

// copyRows creates the temporary table name (cols, types) and copies rows
// into it with COPY (lib/pq buffers the rows into few CopyData messages).
// With analyze, the table's statistics are gathered so that a join with
// it uses the quads' indexes when it is small (a temporary table has none,
// and the planner would otherwise guess a size and scan the whole store).
func copyRows(ctx context.Context, tx *sql.Tx, name, def string, cols []string, n int, row func(i int) []any, analyze bool) error {
	if _, err := tx.ExecContext(ctx, `CREATE TEMPORARY TABLE `+name+` (`+def+`) ON COMMIT DROP`); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, pq.CopyIn(name, cols...))
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i := 0; i < n; i++ {
		if _, err := stmt.ExecContext(ctx, row(i)...); err != nil {
			return err
		}
	}
	if _, err := stmt.ExecContext(ctx); err != nil { // flushes the COPY
		return err
	}
	if analyze {
		_, err = tx.ExecContext(ctx, `ANALYZE `+name)
	}
	return err
}

// incNodes is step 1 of writeDeltas.
func incNodes(ctx context.Context, tx *sql.Tx, nodes []graphlog.NodeUpdate) error {
	if len(nodes) == 0 {
		return nil
	}
	// Each node's values in all value columns, NULL where Cayley's
	// per-type INSERT names no column (so NULL too).
	rows := make([][]any, len(nodes))
	for i, n := range nodes {
		typ, vals, err := csql.NodeValues(csql.NodeHash{ValueHash: n.Hash}, n.Val)
		if err != nil {
			return err
		}
		r := make([]any, 3+len(nodeValueCols))
		r[0], r[1], r[2] = i, vals[0], n.RefInc
		for j, col := range typ.Columns() {
			k := indexOf(nodeValueCols, col)
			if k < 0 {
				return fmt.Errorf("cayley node column %q unknown", col)
			}
			r[3+k] = vals[1+j]
		}
		rows[i] = r
	}
	cols := append([]string{"ord", "hash", "refs"}, nodeValueCols...)
	def := `ord int, hash bytea, refs int, value bytea, value_string text, datatype text, language text,
		iri boolean, bnode boolean, value_int bigint, value_bool boolean, value_float double precision,
		value_time timestamp with time zone`
	if err := copyRows(ctx, tx, "skillgraph_nodes_in", def, cols, len(rows), func(i int) []any { return rows[i] }, false); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO nodes (hash, refs, `+nodeCols+`)
		SELECT hash, refs, `+nodeCols+` FROM skillgraph_nodes_in ORDER BY ord
		ON CONFLICT (hash) DO UPDATE SET refs = nodes.refs + EXCLUDED.refs`)
	return err
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// quadCols are the temporary quad tables' columns.
var quadCols = []string{"ord", "s", "p", "o", "l"}

const quadDef = `ord int, s bytea, p bytea, o bytea, l bytea`

// quadRow is a quad's row of a temporary quad table: its hashes as
// Cayley's SQLValue gives them (nil for a triple's label).
func quadRow(i int, q refs.QuadHash) []any {
	r := []any{i}
	for _, h := range q.Dirs() {
		r = append(r, csql.NodeHash{ValueHash: h}.SQLValue())
	}
	return r
}

// addQuads is step 2 of writeDeltas. ORDER BY ord makes the BIGSERIAL
// horizons follow the deltas, as Cayley's one INSERT per quad does; a
// duplicate still draws a horizon, as there.
func addQuads(ctx context.Context, tx *sql.Tx, quads []graphlog.QuadUpdate) error {
	if len(quads) == 0 {
		return nil
	}
	if err := copyRows(ctx, tx, "skillgraph_quads_in", quadDef, quadCols, len(quads), func(i int) []any { return quadRow(i, quads[i].Quad) }, false); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO quads (subject_hash, predicate_hash, object_hash, label_hash, ts)
		SELECT s, p, o, l, now() FROM skillgraph_quads_in ORDER BY ord ON CONFLICT DO NOTHING`)
	return err
}

// delQuads is step 3 of writeDeltas: it returns, per node, how many
// references the deletes of missing quads give back. A quad deleted twice
// is deleted once and missing the other time, as in Cayley.
func delQuads(ctx context.Context, tx *sql.Tx, quads []graphlog.QuadUpdate) (map[refs.ValueHash]int, error) {
	if len(quads) == 0 {
		return nil, nil
	}
	if err := copyRows(ctx, tx, "skillgraph_quads_del", quadDef, quadCols, len(quads), func(i int) []any { return quadRow(i, quads[i].Quad) }, true); err != nil {
		return nil, err
	}
	// Two statements, each matching one of Cayley's unique indexes (spol
	// for quads, spo for triples), so each join can use it.
	deleted := make([]bool, len(quads))
	for _, q := range []string{
		`DELETE FROM quads q USING skillgraph_quads_del d
			WHERE d.l IS NOT NULL AND q.subject_hash = d.s AND q.predicate_hash = d.p AND q.object_hash = d.o AND q.label_hash = d.l
			RETURNING d.ord`,
		`DELETE FROM quads q USING skillgraph_quads_del d
			WHERE d.l IS NULL AND q.subject_hash = d.s AND q.predicate_hash = d.p AND q.object_hash = d.o AND q.label_hash IS NULL
			RETURNING d.ord`,
	} {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var i int
			if err := rows.Scan(&i); err != nil {
				rows.Close()
				return nil, err
			}
			deleted[i] = true
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	fix := make(map[refs.ValueHash]int)
	for i, q := range quads {
		if deleted[i] {
			continue
		}
		for _, dir := range quad.Directions {
			if h := q.Quad.Get(dir); h.Valid() {
				fix[h]++
			}
		}
	}
	return fix, nil
}

// decNodes is step 4 of writeDeltas.
func decNodes(ctx context.Context, tx *sql.Tx, nodes []graphlog.NodeUpdate, fix map[refs.ValueHash]int) error {
	if len(nodes) == 0 {
		return nil
	}
	var rows [][]any
	for _, n := range nodes {
		if inc := n.RefInc + fix[n.Hash]; inc != 0 {
			rows = append(rows, []any{len(rows), csql.NodeHash{ValueHash: n.Hash}.SQLValue(), inc})
		}
	}
	if len(rows) > 0 {
		if err := copyRows(ctx, tx, "skillgraph_nodes_dec", `ord int, hash bytea, inc int`, []string{"ord", "hash", "inc"}, len(rows), func(i int) []any { return rows[i] }, true); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE nodes SET refs = nodes.refs + d.inc FROM skillgraph_nodes_dec d WHERE nodes.hash = d.hash`); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM nodes WHERE refs <= 0`)
	return err
}

// prefetched is the store as PlanApply reads it, with the changed graphs'
// stored quads read beforehand in a few statements instead of one per
// graph (a round trip per graph: at 10k skills, 21 000 of them).
type prefetched struct {
	*store
	graphs map[string][]quad.Quad
}

// GraphQuads is backend.Stored.GraphQuads, from the prefetched graphs.
func (p prefetched) GraphQuads(ctx context.Context, label string) ([]quad.Quad, error) {
	if qs, ok := p.graphs[label]; ok {
		return qs, nil
	}
	return p.store.GraphQuads(ctx, label)
}

// prefetchChunk bounds the labels of one prefetch statement.
const prefetchChunk = 5000

// graphsOf reads the stored quads of every changed graph, chunk by chunk,
// through the label index. The writer lock is held: no other writer
// changes them until the Apply commits.
func (s *store) graphsOf(ctx context.Context, changes []backend.Change) (prefetched, error) {
	p := prefetched{store: s, graphs: make(map[string][]quad.Quad, len(changes))}
	for start := 0; start < len(changes); start += prefetchChunk {
		part := changes[start:min(start+prefetchChunk, len(changes))]
		hashes := make(pq.ByteaArray, 0, len(part))
		for _, c := range part {
			if _, dup := p.graphs[c.Graph]; !dup {
				p.graphs[c.Graph] = nil // read: none stored unless the scan finds some
				hashes = append(hashes, csql.HashOf(quad.IRI(c.Graph)).SQLValue().([]byte))
			}
		}
		rows, err := s.db.QueryContext(ctx, sqlQuadsQuery+"\nWHERE q.label_hash = ANY($1)", hashes)
		if err != nil {
			return prefetched{}, err
		}
		err = scanRows(rows, func(q quad.Quad) error {
			if l, ok := q.Label.(quad.IRI); ok {
				p.graphs[string(l)] = append(p.graphs[string(l)], q)
			}
			return nil
		})
		if err != nil {
			return prefetched{}, err
		}
	}
	return p, nil
}
