package checkpoint

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
)

func sample() []quad.Quad {
	g := quad.IRI("urn:g")
	return []quad.Quad{
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.String("x\x00y"), Label: g},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:q"), Object: quad.TypedString{Value: "1", Type: "http://www.w3.org/2001/XMLSchema#integer"}, Label: g},
		{Subject: quad.BNode("b"), Predicate: quad.IRI("urn:p"), Object: quad.LangString{Value: "v", Lang: "en"}, Label: g},
		{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:r"), Object: quad.Int(-7)}, // a triple
	}
}

// TestRoundTrip: a block decodes to its quads, each value as the store's
// pquads encoding hands it back, and values are shared between blocks.
func TestRoundTrip(t *testing.T) {
	in := sample()
	b, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	for range 2 {
		var out []quad.Quad
		if err := d.Decode(b, func(q quad.Quad) error { out = append(out, q); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(out) != len(in) {
			t.Fatalf("%d quads back, want %d", len(out), len(in))
		}
		for i := range in {
			for _, dir := range quad.Directions {
				want := in[i].Get(dir)
				if want != nil {
					raw, _ := pquads.MarshalValue(want)
					want, _ = pquads.UnmarshalValue(raw)
				}
				if got := out[i].Get(dir); got != want {
					t.Fatalf("quad %d %v: %#v, want %#v", i, dir, got, want)
				}
			}
		}
	}
	if len(d.values) != 10 {
		t.Fatalf("%d distinct values interned, want 10", len(d.values))
	}
}

// TestDamageIsRefused: every single-byte change and every truncation of a
// block is refused, never decoded into other quads.
func TestDamageIsRefused(t *testing.T) {
	b, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		for _, mut := range []func([]byte) []byte{
			func(x []byte) []byte { x[i] ^= 0x01; return x },
			func(x []byte) []byte { return x[:i] },
		} {
			bad := mut(slices.Clone(b))
			err := NewDecoder().Decode(bad, func(quad.Quad) error { return nil })
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d: damaged block decoded (%v)", i, err)
			}
		}
	}
}

// FuzzDecode: no input panics or decodes a quad without subject,
// predicate or object — neither as given nor with a valid checksum
// appended (so the fuzzer reaches the decoder behind the checksum).
func FuzzDecode(f *testing.F) {
	b, _ := Encode(sample())
	f.Add(b)
	f.Add(b[:len(b)-4])
	f.Add([]byte{format})
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(q quad.Quad) error {
			if q.Subject == nil || q.Predicate == nil || q.Object == nil {
				t.Fatalf("decoded an incomplete quad %v", q)
			}
			return nil
		}
		_ = NewDecoder().Decode(data, check)
		sealed := binary.BigEndian.AppendUint32(slices.Clone(data), crc32.Checksum(data, castagnoli))
		_ = NewDecoder().Decode(sealed, check)
	})
}
