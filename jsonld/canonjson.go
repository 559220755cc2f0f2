package jsonld

// The canonical JSON text of an rdf:JSON value, as json-gold writes it:
// the direct path's (direct.go) own copy of that one form, so a JSON
// literal it writes is byte for byte json-gold's.

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting canonicalJSON follows; deeper values go
// through json-gold.
const maxJSONDepth = 256

// canonicalJSON is json-gold's canonical form (RFC 8785, its
// jsoncanonicalizer) of the JSON text s, for the texts jsonValue writes:
// an object or an array, keys sorted by UTF-16 code units, strings
// escaped as that canonicaliser escapes them. ok is false for a text it
// might treat otherwise: not valid UTF-8, a \u escape of a surrogate, a
// number that is not a plain integer of at most 15 digits (those are
// formatted as ECMAScript does), a duplicate key, bad JSON.
func canonicalJSON(s string) (string, bool) {
	if !utf8.ValidString(s) || strings.Contains(s, `\ud`) || strings.Contains(s, `\uD`) {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "", false
	}
	if d, isDelim := tok.(json.Delim); !isDelim || (d != '{' && d != '[') {
		return "", false // json-gold's canonicaliser takes objects and arrays only
	}
	var b bytes.Buffer
	b.Grow(len(s))
	if !canonicalValue(dec, tok, &b, 0) {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false
	}
	return b.String(), true
}

// canonicalValue writes the value that starts with tok.
func canonicalValue(dec *json.Decoder, tok json.Token, b *bytes.Buffer, depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '[':
			b.WriteByte('[')
			for i := 0; ; i++ {
				t, err := dec.Token()
				if err != nil {
					return false
				}
				if t == json.Delim(']') {
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				if !canonicalValue(dec, t, b, depth+1) {
					return false
				}
			}
			b.WriteByte(']')
			return true
		case '{':
			type member struct {
				key   []uint16
				name  string
				value []byte
			}
			var ms []member
			for {
				t, err := dec.Token()
				if err != nil {
					return false
				}
				if t == json.Delim('}') {
					break
				}
				name, isKey := t.(string)
				if !isKey {
					return false
				}
				vt, err := dec.Token()
				if err != nil {
					return false
				}
				var vb bytes.Buffer
				if !canonicalValue(dec, vt, &vb, depth+1) {
					return false
				}
				ms = append(ms, member{utf16.Encode([]rune(name)), name, vb.Bytes()})
			}
			slices.SortFunc(ms, func(a, c member) int { return slices.Compare(a.key, c.key) })
			b.WriteByte('{')
			for i, m := range ms {
				if i > 0 {
					if slices.Equal(ms[i-1].key, m.key) {
						return false // json-gold's canonicaliser fails on a duplicate key
					}
					b.WriteByte(',')
				}
				canonicalString(b, m.name)
				b.WriteByte(':')
				b.Write(m.value)
			}
			b.WriteByte('}')
			return true
		}
		return false
	case string:
		canonicalString(b, x)
		return true
	case json.Number:
		return canonicalInteger(b, string(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
		return true
	case nil:
		b.WriteString("null")
		return true
	}
	return false
}

// canonicalInteger writes a number json-gold's canonicaliser writes as
// its digits: an integer of at most 15 digits is exact as a float64, and
// ECMAScript formats it plainly ("-0" as "0").
func canonicalInteger(b *bytes.Buffer, n string) bool {
	digits := strings.TrimPrefix(n, "-")
	if len(digits) == 0 || len(digits) > 15 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return false
	}
	b.WriteString(strconv.FormatInt(v, 10))
	return true
}

// canonicalString writes s quoted as json-gold's canonicaliser does: \\,
// \", \b, \f, \n, \r, \t, other controls as \u00xx, every other byte as
// it is.
func canonicalString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(hex2(c))
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}
