// Package checkpoint is the compact form of one named graph's quads that
// the store keeps beside its own indexes, so that a warm start reads the
// whole graph back without decoding every quad through Cayley (SPEC §8;
// issue 14). A block holds one graph: its distinct values once each, then
// each quad as four indexes into them, and a CRC-32C of everything before
// it. A value is a kind byte and its text: IRIs, blank nodes and plain,
// typed and language strings, integers and booleans in a form that costs
// one allocation to decode, any other value in Cayley's own encoding
// (pquads) — either way it reads back exactly as the store hands it back.
// The store stays the source of truth: a block of another format, or one
// that fails its checksum, is refused and the caller reads the store
// instead.
package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
)

// format is the first byte of every block; bump it when the layout changes
// (an old block is then refused, and the store is read instead).
// Format 1 held every value in pquads, whose decoding was half of a warm
// start's read.
const format = 2

// Value kinds, the first byte of an encoded value.
const (
	kindPquads byte = iota // any other value: pquads.MarshalValue
	kindIRI
	kindBNode
	kindString
	kindTyped // uvarint length of the text, the text, the type IRI
	kindLang  // uvarint length of the text, the text, the language tag
	kindInt   // varint
	kindBool  // 0 or 1
)

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
		b, err := marshal(v)
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

// marshal is the encoding of one value: a kind byte, then its text.
func marshal(v quad.Value) ([]byte, error) {
	switch x := v.(type) {
	case quad.IRI:
		return append([]byte{kindIRI}, x...), nil
	case quad.BNode:
		return append([]byte{kindBNode}, x...), nil
	case quad.String:
		return append([]byte{kindString}, x...), nil
	case quad.TypedString:
		b := binary.AppendUvarint([]byte{kindTyped}, uint64(len(x.Value)))
		return append(append(b, x.Value...), x.Type...), nil
	case quad.LangString:
		b := binary.AppendUvarint([]byte{kindLang}, uint64(len(x.Value)))
		return append(append(b, x.Value...), x.Lang...), nil
	case quad.Int:
		return binary.AppendVarint([]byte{kindInt}, int64(x)), nil
	case quad.Bool:
		if x {
			return []byte{kindBool, 1}, nil
		}
		return []byte{kindBool, 0}, nil
	}
	b, err := pquads.MarshalValue(v)
	return append([]byte{kindPquads}, b...), err
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

// maxShared is the longest encoded value the Decoder shares between
// blocks: IRIs and short literals recur across graphs, descriptions and
// bodies do not, and keeping them would only grow the table.
const maxShared = 256

// maxTable bounds the Decoder's table: the values that recur in most
// graphs (predicates, classes, common literals) are met in the first
// blocks, while a table of every subject IRI of a large store (millions)
// cost more in map lookups and growth than the sharing saved (at 100k
// skills, a third of the checkpoint's decoding).
const maxTable = 1 << 16

// NewDecoder returns a Decoder with an empty value table.
func NewDecoder() *Decoder { return &Decoder{values: map[string]quad.Value{}} }

// Decode calls fn for each quad of a verified block. It does not keep
// block, which may be memory the caller reuses.
func (d *Decoder) Decode(block []byte, fn func(quad.Quad) error) error {
	qs, err := d.Append(nil, block)
	if err != nil {
		return err
	}
	for _, q := range qs {
		if err := fn(q); err != nil {
			return err
		}
	}
	return nil
}

// Append appends the quads of a verified block to dst. It does not keep
// block, which may be memory the caller reuses; on an error dst holds
// none of the block's quads.
func (d *Decoder) Append(dst []quad.Quad, block []byte) ([]quad.Quad, error) {
	if err := Verify(block); err != nil {
		return dst, err
	}
	r := reader{b: block[1 : len(block)-4]}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return dst, ErrCorrupt
	}
	d.refs = append(d.refs[:0], nil) // index 0: no value (a triple's label)
	for range n {
		b := r.bytes()
		if r.err != nil {
			return dst, ErrCorrupt
		}
		var (
			v  quad.Value
			ok bool
		)
		if len(b) <= maxShared { // a long value is not in the table: not even hashed
			v, ok = d.values[string(b)]
		}
		if !ok {
			// One string holds the value's text and is its key in the
			// table; long values (texts, rarely shared between graphs)
			// are not kept in the table.
			k := string(b)
			var err error
			if v, err = unmarshal(k); err != nil {
				return dst, fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			if len(k) <= maxShared && len(d.values) < maxTable {
				d.values[k] = v
			}
		}
		d.refs = append(d.refs, v)
	}
	nq := r.uvarint()
	if r.err != nil || nq > uint64(len(r.b)) {
		return dst, ErrCorrupt
	}
	start := len(dst)
	dst = slices.Grow(dst, int(nq))
	for range nq {
		var q [4]quad.Value
		for i := range q {
			x := r.uvarint()
			if r.err != nil || x >= uint64(len(d.refs)) {
				return dst[:start], ErrCorrupt
			}
			q[i] = d.refs[x]
		}
		if q[0] == nil || q[1] == nil || q[2] == nil {
			return dst[:start], ErrCorrupt
		}
		dst = append(dst, quad.Quad{Subject: q[0], Predicate: q[1], Object: q[2], Label: q[3]})
	}
	if len(r.b) != 0 {
		return dst[:start], ErrCorrupt
	}
	return dst, nil
}

// unmarshal decodes one value written by marshal; the strings of the
// value share k's memory.
func unmarshal(k string) (quad.Value, error) {
	if len(k) == 0 {
		return nil, errors.New("empty value")
	}
	kind, b := k[0], k[1:]
	switch kind {
	case kindIRI:
		return quad.IRI(b), nil
	case kindBNode:
		return quad.BNode(b), nil
	case kindString:
		return quad.String(b), nil
	case kindTyped, kindLang:
		n, w := binary.Uvarint([]byte(b[:min(len(b), binary.MaxVarintLen64)]))
		if w <= 0 || n > uint64(len(b)-w) {
			return nil, errors.New("bad text length")
		}
		text, tag := b[w:w+int(n)], b[w+int(n):]
		if kind == kindTyped {
			return quad.TypedString{Value: quad.String(text), Type: quad.IRI(tag)}, nil
		}
		return quad.LangString{Value: quad.String(text), Lang: tag}, nil
	case kindInt:
		x, w := binary.Varint([]byte(b))
		if w <= 0 || w != len(b) {
			return nil, errors.New("bad integer")
		}
		return quad.Int(x), nil
	case kindBool:
		if len(b) != 1 || b[0] > 1 {
			return nil, errors.New("bad boolean")
		}
		return quad.Bool(b[0] == 1), nil
	case kindPquads:
		return unmarshalPquads([]byte(b))
	}
	return nil, fmt.Errorf("value of unknown kind %d", kind)
}

// unmarshalPquads is pquads.UnmarshalValue, which panics on a value
// message of no known kind (found by FuzzDecode; the crasher is a seed).
func unmarshalPquads(b []byte) (v quad.Value, err error) {
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
