package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"
)

// schemaOf is the quads table's indexes and constraints as the database
// defines them.
func (c cayleyDB) schemaOf(t *testing.T) string {
	t.Helper()
	return c.rowsText(t,
		`SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'quads' ORDER BY indexname`,
		`SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'quads'::regclass ORDER BY conname`,
	)
}

// TestFirstWriteBulkAsCayley: a first write loaded with the secondary
// indexes and foreign keys dropped (writeBulk) leaves exactly Cayley's
// rows and Cayley's schema — every index and constraint back, defined as
// before — and the writes after it go on as Cayley's; the drops happen
// (the indexes are gone inside the transaction), and a first write that
// fails leaves the schema whole.
func TestFirstWriteBulkAsCayley(t *testing.T) {
	ctx := context.Background()
	s, p := quad.IRI("urn:s"), quad.IRI("urn:p")
	var first []quad.Quad
	for i, o := range []quad.Value{quad.IRI("urn:o"), quad.String("plain"), quad.Int(-7), quad.Bool(true), quad.Float(2.5), quad.BNode("b")} {
		first = append(first, quad.Quad{Subject: s, Predicate: p, Object: o, Label: quad.IRI("urn:g:1")})
		if i%2 == 0 {
			first = append(first, quad.Quad{Subject: s, Predicate: p, Object: o}) // triples too
		}
	}
	first = append(first, first[0]) // a duplicate
	next := [][]graph.Delta{
		append(del(first[1]), add(quad.Quad{Subject: s, Predicate: p, Object: quad.IRI("urn:new"), Label: quad.IRI("urn:g:2")})...),
		del(first...),
	}
	want, got := openCayley(t), openCayley(t)
	schema := want.schemaOf(t)
	if strings.Count(schema, "\n") < 12 {
		t.Fatalf("Cayley's schema has fewer indexes and constraints than expected:\n%s", schema)
	}

	// A failed first write: rolled back, schema whole.
	tx, err := got.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dropForBulk(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pg_indexes WHERE tablename = 'quads'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 { // the primary key and the two unique indexes
		t.Fatalf("%d indexes on quads while the bulk load runs, want 3", n)
	}
	_ = tx.Rollback()
	if s := got.schemaOf(t); s != schema {
		t.Fatalf("a rolled-back bulk load changed the schema:\n%s\nwant\n%s", s, schema)
	}

	if err := want.qs.ApplyDeltas(add(first...), cayleyOpts); err != nil {
		t.Fatal(err)
	}
	tx, err = got.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeBulk(ctx, tx, add(first...)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if w, g := want.dump(t), got.dump(t); w != g {
		t.Fatalf("rows of the bulk first write differ from Cayley's\ncayley:\n%s\nbulk:\n%s", w, g)
	}
	if s := got.schemaOf(t); s != schema {
		t.Fatalf("schema after the bulk first write:\n%s\nwant\n%s", s, schema)
	}
	for i, batch := range next {
		if err := want.qs.ApplyDeltas(batch, cayleyOpts); err != nil {
			t.Fatal(err)
		}
		if err := got.batched(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if w, g := want.dump(t), got.dump(t); w != g {
			t.Fatalf("write %d after the bulk one: rows differ from Cayley's\ncayley:\n%s\nbatched:\n%s", i+1, w, g)
		}
	}
}
