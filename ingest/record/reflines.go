package record

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
)

// RefLines records the 1-based line of each reference a record makes, by
// field ("satisfies", "subprocesses", "remedies.tool", "parent",
// "blocking", "blocked_by", "skill", "calledElement"), so that a finding
// about a reference carries the line of the reference itself (SPEC §4),
// whatever the file format.
//
// It is one slice sorted by field, then reference: a record makes a few
// references, and the two levels of maps it was cost more than the lines
// themselves (≈ 100 MB of a 100k-skill ingest's records and as much of
// its snapshot, issue #27). Its JSON form is still that of the map:
// {"field": {"ref": line, …}, …}, keys in byte order, as encoding/json
// writes a map.
type RefLines []RefLine

// RefLine is the line of one reference.
type RefLine struct {
	Field, Ref string
	Line       int
}

func compareRef(a, b RefLine) int {
	return cmp.Or(cmp.Compare(a.Field, b.Field), cmp.Compare(a.Ref, b.Ref))
}

// RefLinesOf is the RefLines of a map by field, then reference (lines
// below 1 and empty references are left out, as Set leaves them).
func RefLinesOf(m map[string]map[string]int) RefLines {
	var r RefLines
	for field, refs := range m {
		for ref, line := range refs {
			r.Set(field, ref, line)
		}
	}
	return r
}

// Set records the line of ref in field; the first line of a ref is kept.
func (r *RefLines) Set(field, ref string, line int) {
	if line < 1 || ref == "" {
		return
	}
	x := RefLine{field, ref, line}
	i, found := slices.BinarySearchFunc(*r, x, compareRef)
	if !found {
		*r = slices.Insert(*r, i, x)
	}
}

// Line is the line of ref in field, or 0 when it was not recorded.
func (r RefLines) Line(field, ref string) int {
	if i, ok := slices.BinarySearchFunc(r, RefLine{Field: field, Ref: ref}, compareRef); ok {
		return r[i].Line
	}
	return 0
}

// MarshalJSON writes the map form; nil is null, as a nil map is.
func (r RefLines) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, x := range r {
		if i == 0 || x.Field != r[i-1].Field {
			if i > 0 {
				b.WriteString("},")
			}
			writeKey(&b, x.Field)
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		writeKey(&b, x.Ref)
		b.WriteString(strconv.Itoa(x.Line))
	}
	if len(r) > 0 {
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeKey writes s as an object key, escaped as encoding/json escapes a
// map key (a string cannot fail to marshal).
func writeKey(b *bytes.Buffer, s string) {
	k, _ := json.Marshal(s)
	b.Write(k)
	b.WriteByte(':')
}

// UnmarshalJSON reads the map form.
func (r *RefLines) UnmarshalJSON(data []byte) error {
	var m map[string]map[string]int
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m == nil {
		*r = nil
		return nil
	}
	out := make(RefLines, 0, len(m))
	for field, refs := range m {
		for ref, line := range refs {
			out = append(out, RefLine{field, ref, line})
		}
	}
	slices.SortFunc(out, compareRef)
	*r = out
	return nil
}
