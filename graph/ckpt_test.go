package graph

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"
)

// readAll returns the version and the sorted N-Quads Read hands out, with
// or without the checkpoint.
func readAll(t *testing.T, s *Store, useCheckpoint bool) (int64, []string) {
	t.Helper()
	s.noCheckpoint = !useCheckpoint
	defer func() { s.noCheckpoint = false }()
	var out []string
	v, err := s.Read(context.Background(), func(x quad.Quad) error {
		out = append(out, x.NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return v, out
}

// mixedQuads has every kind of value the ingest writes and a few it does
// not: typed and language strings, numbers, booleans, blank nodes.
func mixedQuads(tag string) []quad.Quad {
	g := quad.IRI("urn:g:" + tag)
	s := quad.IRI("urn:s:" + tag)
	return []quad.Quad{
		{Subject: s, Predicate: quad.IRI("urn:p:str"), Object: quad.String("plain " + tag), Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:typed"), Object: quad.TypedString{Value: "3", Type: "http://www.w3.org/2001/XMLSchema#integer"}, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:lang"), Object: quad.LangString{Value: "hallo", Lang: "de"}, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:int"), Object: quad.Int(42), Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:bool"), Object: quad.Bool(true), Label: g},
		{Subject: quad.BNode("b0"), Predicate: quad.IRI("urn:p:iri"), Object: s, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:nul"), Object: quad.String("a\x00b \"q\" <x>"), Label: g},
	}
}

// TestCheckpointEqualsFullRead: over several ingests (graphs added,
// changed, shrunk, removed) and a reopen, the checkpoint gives exactly the
// quads and the version of a full read of the store, and it is the one
// used (issue 14: a start whose version matches loads the checkpoint).
func TestCheckpointEqualsFullRead(t *testing.T) {
	ctx := context.Background()
	forEachBackend(t, func(t *testing.T, b backend) {
		if !b.persistent {
			t.Skip("memory keeps no checkpoint")
		}
		s := open(t, b.url)
		steps := [][]Change{
			{{Graph: "urn:g:a", Quads: mixedQuads("a")}, {Graph: "urn:g:b", Quads: mixedQuads("b")}},
			{{Graph: "urn:g:a", Quads: mixedQuads("a")[:3]}, {Graph: "urn:g:c", Quads: mixedQuads("c")}},
			{{Graph: "urn:g:b", Delete: true}, {Graph: "urn:g:d", Quads: append(mixedQuads("d"), mixedQuads("d")...)}},
		}
		for i, changes := range steps {
			if _, err := s.Apply(ctx, changes); err != nil {
				t.Fatal(err)
			}
			vFull, full := readAll(t, s, false)
			vCk, ck := readAll(t, s, true)
			if vFull != int64(i+1) || vCk != vFull {
				t.Fatalf("step %d: versions full %d, checkpoint %d", i, vFull, vCk)
			}
			if !slices.Equal(full, ck) {
				t.Fatalf("step %d: checkpoint differs from the store:\nstore:      %q\ncheckpoint: %q", i, full, ck)
			}
			if !s.CheckpointCurrent(ctx) {
				t.Fatalf("step %d: the checkpoint is not stamped with version %d", i, vFull)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		r := open(t, b.url)
		_, full := readAll(t, r, false)
		_, ck := readAll(t, r, true)
		if !slices.Equal(full, ck) || !r.CheckpointCurrent(ctx) {
			t.Fatal("after a reopen the checkpoint is not the store's content")
		}
	})
}

// TestCheckpointStaleOrCorruptFallsBack: a checkpoint stamped with
// another version, or with a damaged block, is not used: Read gives the
// store's content.
func TestCheckpointStaleOrCorruptFallsBack(t *testing.T) {
	ctx := context.Background()
	for _, damage := range []string{"stale stamp", "flipped byte", "truncated block", "missing stamp", "older format"} {
		t.Run(damage, func(t *testing.T) {
			s := open(t, "bbolt:"+t.TempDir()+"/g.db")
			if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:a", Quads: mixedQuads("a")}, {Graph: "urn:g:b", Quads: mixedQuads("b")}}); err != nil {
				t.Fatal(err)
			}
			_, want := readAll(t, s, false)
			err := s.kv.Update(ctx, func(tx hkv.Tx) error {
				switch damage {
				case "stale stamp":
					return tx.Put(ctx, ckptKey(ckptStamp), []byte{0, 0, 0, 0, 0, 0, 0, 7})
				case "missing stamp":
					return tx.Del(ctx, ckptKey(ckptStamp))
				}
				blk, err := tx.Get(ctx, ckptKey([]byte("urn:g:a")))
				if err != nil {
					return err
				}
				blk = append([]byte(nil), blk...)
				switch damage {
				case "flipped byte":
					blk[len(blk)/2] ^= 0x40
				case "older format": // a block of format 1, checksum and all
					body := append([]byte{1}, blk[1:len(blk)-4]...)
					blk = binary.BigEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
				default:
					blk = blk[:len(blk)-3]
				}
				return tx.Put(ctx, ckptKey([]byte("urn:g:a")), blk)
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, got := readAll(t, s, true); !slices.Equal(got, want) {
				t.Fatalf("%s: Read gave %q, the store holds %q", damage, got, want)
			}
			// RefreshCheckpoint (an ingest that changed nothing) rebuilds
			// it at the same version, once.
			if s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: the damaged checkpoint counts as current", damage)
			}
			for i, wantRebuilt := range []bool{true, false} {
				rebuilt, err := s.RefreshCheckpoint(ctx)
				if err != nil || rebuilt != wantRebuilt {
					t.Fatalf("%s: RefreshCheckpoint #%d: rebuilt %v, %v (want %v)", damage, i+1, rebuilt, err, wantRebuilt)
				}
			}
			if v, got := readAll(t, s, true); v != 1 || !slices.Equal(got, want) || !s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: after RefreshCheckpoint: version %d, current %v, Read %q", damage, v, s.CheckpointCurrent(ctx), got)
			}
			// The next ingest writes a whole, current checkpoint again.
			if _, err := s.Apply(ctx, []Change{{Graph: "urn:g:c", Quads: mixedQuads("c")}}); err != nil {
				t.Fatal(err)
			}
			_, full := readAll(t, s, false)
			_, ck := readAll(t, s, true)
			if !slices.Equal(full, ck) || !s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: the checkpoint was not rebuilt", damage)
			}
		})
	}
}

func ExampleStore_Read() {
	ctx := context.Background()
	s, _ := Open(ctx, "memory")
	defer s.Close()
	_, _ = s.Apply(ctx, []Change{{Graph: "urn:g", Quads: []quad.Quad{q("urn:s", "urn:p", "o", "")}}})
	n := 0
	v, _ := s.Read(ctx, func(quad.Quad) error { n++; return nil })
	fmt.Println(v, n) // the data quad and the version quad
	// Output: 1 2
}
