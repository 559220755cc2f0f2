package jsonld

import (
	"bytes"
	"encoding/json"
	"sort"
)

// jsonLiteral is the text of an rdf:JSON literal json-gold is handed.
// json-gold canonicalises every rdf:JSON literal (RFC 8785) and sorts the
// keys of each object by inserting them one at a time into a list that it
// scans from the front, so keys given in ascending order (as
// encoding/json writes them) cost the square of their number: a Tool
// whose install.npm held 50 000 keys took 12 s, 250 000 over 120 s (issue
// #28 row 9). Given in descending order, each key goes in front of the
// first one and the sort is linear. The canonical literal is the same
// either way, so the stored quads do not change.
func jsonLiteral(b []byte) []byte {
	// Small values cannot hold an object wide enough to matter: they keep
	// encoding/json's bytes and skip the second encoding.
	if len(b) < minReorder {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers are handed over as written
	var v any
	if err := dec.Decode(&v); err != nil {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b))
	if err := writeDescending(&out, v); err != nil {
		return b
	}
	return out.Bytes()
}

// minReorder is the encoded size below which jsonLiteral keeps the bytes
// as they are: under 4 KiB an object has at most a few hundred keys, whose
// quadratic sort is microseconds.
const minReorder = 4 << 10

// writeDescending encodes v as JSON with the keys of every object in
// descending order. Values decoded from JSON nest at most as deep as the
// parsers allow (ynode.MaxDepth), so the recursion is bounded.
func writeDescending(w *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// Byte order is code point order; the canonical order is by
		// UTF-16 units, which differs only between supplementary
		// characters and U+E000–U+FFFF. Such keys are still sorted right
		// by json-gold, only not in constant time each.
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
		w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := writeScalar(w, k); err != nil {
				return err
			}
			w.WriteByte(':')
			if err := writeDescending(w, x[k]); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case []any:
		w.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := writeDescending(w, e); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		return writeScalar(w, x)
	}
	return nil
}

// writeScalar writes a string, number, boolean or null as encoding/json
// does.
func writeScalar(w *bytes.Buffer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Write(b)
	return nil
}
