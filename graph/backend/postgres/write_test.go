package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/pgtest"
)

// cayleyDB is a database with Cayley's schema, written either by Cayley's
// own ApplyDeltas or by writeDeltas.
type cayleyDB struct {
	db *sql.DB
	qs graph.QuadStore
}

func openCayley(t testing.TB) cayleyDB {
	t.Helper()
	dsn := pgtest.Scratch(t)
	if err := graph.InitQuadStore(kind, dsn, nil); err != nil {
		t.Fatal(err)
	}
	qs, err := graph.NewQuadStore(kind, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open(kind, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { qs.Close(); db.Close() })
	return cayleyDB{db: db, qs: qs}
}

// cayleyOpts are backend.ApplyDeltas's options, the ones writeDeltas
// reproduces.
var cayleyOpts = graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}

func (c cayleyDB) batched(ctx context.Context, in []graph.Delta) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after the commit
	if err := writeDeltas(ctx, tx, in); err != nil {
		return err
	}
	return tx.Commit()
}

// dump is every row of both tables as JSON, the quads by horizon without
// their timestamp (now() of the writing transaction).
func (c cayleyDB) dump(t *testing.T) string {
	t.Helper()
	return c.rowsText(t,
		`SELECT to_jsonb(n)::text FROM nodes n ORDER BY hash`,
		`SELECT (to_jsonb(q) - 'ts')::text FROM quads q ORDER BY horizon`,
		`SELECT horizon::text FROM quads`, // physical order, as an unordered scan reads it
	)
}

// rowsText runs queries of one text column and returns their rows, a line
// each, every query's ended by "--".
func (c cayleyDB) rowsText(t *testing.T, queries ...string) string {
	t.Helper()
	var b strings.Builder
	for _, q := range queries {
		rows, err := c.db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s + "\n")
		}
		if err := closeRows(rows); err != nil {
			t.Fatal(err)
		}
		b.WriteString("--\n")
	}
	return b.String()
}

func add(qs ...quad.Quad) []graph.Delta { return deltas(graph.Add, qs) }
func del(qs ...quad.Quad) []graph.Delta { return deltas(graph.Delete, qs) }

func deltas(a graph.Procedure, qs []quad.Quad) []graph.Delta {
	out := make([]graph.Delta, len(qs))
	for i, q := range qs {
		out[i] = graph.Delta{Quad: q, Action: a}
	}
	return out
}

// TestWriteDeltasAsCayley: every batch of a sequence leaves, through
// writeDeltas, exactly the rows Cayley's ApplyDeltas leaves — nodes of
// every value type with their reference counts, quads and triples in
// horizon order — through duplicates, deletes of missing quads, a quad
// added and deleted in one batch, and emptying the store.
func TestWriteDeltasAsCayley(t *testing.T) {
	ctx := context.Background()
	g1, g2 := quad.IRI("urn:g:1"), quad.IRI("urn:g:2")
	s, p := quad.IRI("urn:s"), quad.IRI("urn:p")
	at := time.Date(2026, 12, 2, 3, 4, 5, 600, time.UTC)
	objects := []quad.Value{
		quad.IRI("urn:o"), quad.BNode("b1"), quad.String("plain"), quad.String("nul\x00 tab\t nl\n back\\slash"),
		quad.TypedString{Value: "42", Type: "http://www.w3.org/2001/XMLSchema#integer"},
		quad.LangString{Value: "bonjour", Lang: "fr"}, quad.Int(-7), quad.Bool(true), quad.Float(2.5), quad.Time(at),
	}
	var inG1, triples []quad.Quad
	for _, o := range objects {
		inG1 = append(inG1, quad.Quad{Subject: s, Predicate: p, Object: o, Label: g1})
		triples = append(triples, quad.Quad{Subject: s, Predicate: p, Object: o})
	}
	q := func(o string, g quad.Value) quad.Quad {
		return quad.Quad{Subject: s, Predicate: p, Object: quad.IRI(o), Label: g}
	}
	steps := []struct {
		name  string
		batch []graph.Delta
	}{
		{"every value type, quads and triples, a duplicate", append(append(add(inG1...), add(triples...)...), add(inG1[0])...)},
		{"added again and new", add(inG1[1], q("urn:new", g2), q("urn:new", nil))},
		{"deleted, missing, twice, added and deleted in one batch", append(append(
			del(inG1[2], q("urn:never", g1), triples[3], triples[3]),
			add(q("urn:brief", g2))...), del(q("urn:brief", g2))...)},
		{"a graph replaced", append(del(q("urn:new", g2)), add(q("urn:newer", g2), q("urn:new", g1))...)},
		{"emptied", del(append(append(append([]quad.Quad(nil), inG1...), triples...), q("urn:new", nil), q("urn:newer", g2), q("urn:new", g1))...)},
		{"refilled", add(inG1...)},
		{"nothing", nil},
	}
	want, got := openCayley(t), openCayley(t)
	for _, st := range steps {
		if err := want.qs.ApplyDeltas(st.batch, cayleyOpts); err != nil {
			t.Fatalf("%s: cayley: %v", st.name, err)
		}
		if err := got.batched(ctx, st.batch); err != nil {
			t.Fatalf("%s: batched: %v", st.name, err)
		}
		w, g := want.dump(t), got.dump(t)
		if w != g {
			t.Fatalf("%s: rows differ from Cayley's\ncayley:\n%s\nbatched:\n%s", st.name, w, g)
		}
		if st.batch != nil && w == "--\n--\n--\n" && st.name != "emptied" {
			t.Fatalf("%s: no rows written", st.name)
		}
	}
}

// TestWriteDeltasRollsBack: a batch that fails part way leaves nothing of
// itself (the temporary tables and the rows go with the transaction), and
// the next batch on the same pool succeeds.
func TestWriteDeltasRollsBack(t *testing.T) {
	ctx := context.Background()
	c := openCayley(t)
	if err := c.batched(ctx, add(quad.Quad{Subject: quad.IRI("urn:a"), Predicate: quad.IRI("urn:p"), Object: quad.IRI("urn:b")})); err != nil {
		t.Fatal(err)
	}
	before := c.dump(t)
	cctx, cancel := context.WithCancel(ctx)
	tx, err := c.db.BeginTx(cctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeDeltas(cctx, tx, add(quad.Quad{Subject: quad.IRI("urn:c"), Predicate: quad.IRI("urn:p"), Object: quad.IRI("urn:d")})); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := tx.Commit(); err == nil {
		t.Fatal("commit of a cancelled transaction succeeded")
	}
	if after := c.dump(t); after != before {
		t.Fatalf("a rolled-back batch left rows:\n%s", after)
	}
	for i := 0; i < 3; i++ { // the pool's connections hold no temporary table
		if err := c.batched(ctx, add(quad.Quad{Subject: quad.IRI(fmt.Sprintf("urn:e%d", i)), Predicate: quad.IRI("urn:p"), Object: quad.IRI("urn:f")})); err != nil {
			t.Fatalf("batch %d after the rollback: %v", i, err)
		}
	}
}

// BenchmarkWrite: one ingest-sized batch of new quads (graphs of 30
// quads, as a generated corpus has) into an empty store, through Cayley's
// ApplyDeltas, through writeDeltas, and through writeBulk (a first write's
// path: the secondary indexes and foreign keys rebuilt after the rows).
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{3000, 30000} {
		var batch []graph.Delta
		for i := 0; i < n; i++ {
			g := quad.IRI(fmt.Sprintf("urn:g:%d", i/30))
			batch = append(batch, add(quad.Quad{Subject: quad.IRI(fmt.Sprintf("urn:s:%d", i/3)), Predicate: quad.IRI(fmt.Sprintf("urn:p:%d", i%7)), Object: quad.String(fmt.Sprintf("value %d", i)), Label: g})...)
		}
		for _, w := range []struct {
			name  string
			write func(c cayleyDB) error
		}{
			{"cayley", func(c cayleyDB) error { return c.qs.ApplyDeltas(batch, cayleyOpts) }},
			{"copy", func(c cayleyDB) error { return c.batched(context.Background(), batch) }},
			{"bulk", func(c cayleyDB) error {
				tx, err := c.db.BeginTx(context.Background(), nil)
				if err != nil {
					return err
				}
				defer tx.Rollback() //nolint:errcheck // a no-op after the commit
				if err := writeBulk(context.Background(), tx, batch); err != nil {
					return err
				}
				return tx.Commit()
			}},
		} {
			b.Run(fmt.Sprintf("%s/quads=%d", w.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					c := openCayley(b)
					b.StartTimer()
					if err := w.write(c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
