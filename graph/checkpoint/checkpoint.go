// Package checkpoint is the compact form of one named graph's quads that
// the store keeps beside its own indexes, so that a warm start reads the
// whole graph back without decoding every quad through Cayley (SPEC §8;
// issue 14). A block holds one graph: its distinct values once each, in
// Cayley's own value encoding (pquads, so a value reads back exactly as the
// store would hand it back), then each quad as four indexes into them, and
// a CRC-32C of everything before it. The store stays the source of truth:
// a block that fails its checksum is refused and the caller reads the
// store instead.
package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
)

// format is the first byte of every block; bump it when the layout changes
// (an old block is then refused, and the store is read instead).
const format = 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is returned for a block that is truncated, fails its checksum
// or does not decode.
var ErrCorrupt = errors.New("checkpoint block is corrupt")

// Encode returns the block of quads (normally all quads of one graph).
func Encode(quads []quad.Quad) ([]byte, error) {
	index := map[string]uint64{}
	var vals [][]byte
	ref := func(v quad.Value) (uint64, error) {
		if v == nil {
			return 0, nil
		}
		b, err := pquads.MarshalValue(v)
		if err != nil {
			return 0, fmt.Errorf("encode %v: %w", v, err)
		}
		if i, ok := index[string(b)]; ok {
			return i, nil
		}
		vals = append(vals, b)
		index[string(b)] = uint64(len(vals))
		return uint64(len(vals)), nil
	}
	refs := make([]uint64, 0, 4*len(quads))
	for _, q := range quads {
		for _, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, q.Label} {
			i, err := ref(v)
			if err != nil {
				return nil, err
			}
			refs = append(refs, i)
		}
	}
	out := []byte{format}
	out = binary.AppendUvarint(out, uint64(len(vals)))
	for _, b := range vals {
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	out = binary.AppendUvarint(out, uint64(len(quads)))
	for _, r := range refs {
		out = binary.AppendUvarint(out, r)
	}
	return binary.BigEndian.AppendUint32(out, crc32.Checksum(out, castagnoli)), nil
}

// Verify checks a block's format and checksum without decoding it.
func Verify(block []byte) error {
	if len(block) < 5 || block[0] != format {
		return ErrCorrupt
	}
	body := block[:len(block)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(block[len(body):]) {
		return ErrCorrupt
	}
	return nil
}

// Decoder decodes blocks, sharing one value among every quad (of every
// block) that names it: a graph of a million quads has a few hundred
// thousand distinct values, each decoded once.
type Decoder struct {
	values map[string]quad.Value
	refs   []quad.Value
}

// NewDecoder returns a Decoder with an empty value table.
func NewDecoder() *Decoder { return &Decoder{values: map[string]quad.Value{}} }

// Decode calls fn for each quad of a verified block. It does not keep
// block, which may be memory the caller reuses.
func (d *Decoder) Decode(block []byte, fn func(quad.Quad) error) error {
	if err := Verify(block); err != nil {
		return err
	}
	r := reader{b: block[1 : len(block)-4]}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return ErrCorrupt
	}
	d.refs = append(d.refs[:0], nil) // index 0: no value (a triple's label)
	for range n {
		b := r.bytes()
		if r.err != nil {
			return ErrCorrupt
		}
		v, ok := d.values[string(b)]
		if !ok {
			var err error
			if v, err = unmarshal(b); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			d.values[string(b)] = v
		}
		d.refs = append(d.refs, v)
	}
	nq := r.uvarint()
	if r.err != nil || nq > uint64(len(r.b)) {
		return ErrCorrupt
	}
	for range nq {
		var q [4]quad.Value
		for i := range q {
			x := r.uvarint()
			if r.err != nil || x >= uint64(len(d.refs)) {
				return ErrCorrupt
			}
			q[i] = d.refs[x]
		}
		if q[0] == nil || q[1] == nil || q[2] == nil {
			return ErrCorrupt
		}
		if err := fn(quad.Quad{Subject: q[0], Predicate: q[1], Object: q[2], Label: q[3]}); err != nil {
			return err
		}
	}
	if len(r.b) != 0 {
		return ErrCorrupt
	}
	return nil
}

// unmarshal is pquads.UnmarshalValue, which panics on a value message of
// no known kind (found by FuzzDecode; the crasher is a seed).
func unmarshal(b []byte) (v quad.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("value: %v", r)
		}
	}()
	v, err = pquads.UnmarshalValue(b)
	if err == nil && v == nil {
		err = errors.New("value of no kind")
	}
	return v, err
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = ErrCorrupt
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}
