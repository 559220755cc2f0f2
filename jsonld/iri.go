// Package jsonld turns the records of one source file into one JSON-LD 1.1
// document using the skillgraph context, and that document into RDF quads
// on a direct path for documents of ours (direct.go) and with json-gold and
// an offline document loader for the rest (SPEC §3).
package jsonld

import (
	"strings"
	"unicode/utf8"
)

// NS is the skillgraph vocabulary namespace.
const NS = "https://w3id.org/skillgraph/ns#"

// Escape percent-escapes an id for use in an IRI fragment (SPEC §3.1): %,
// # and ? always (so Unescape is exact and the fragment has no query or
// second fragment), and every character the IRI grammar of RFC 3987 does
// not allow in an ifragment: controls, space, "<>\^`{|}, [ and ], the
// private-use and non-character ranges, the bidi formatting characters
// (RFC 3987 §4.1) and bytes that are not UTF-8. Letters of any script stay
// readable; "/" stays, it separates the parts of an id. The same id always
// gives the same text.
func Escape(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !fragmentRune(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !fragmentRune(r) {
			for _, c := range []byte(s[i : i+n]) {
				b.WriteByte('%')
				b.WriteString(strings.ToUpper(hex2(c)))
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// fragmentRune reports whether r may stand unescaped in a minted fragment:
// iunreserved, sub-delims, ":", "@" and "/" of RFC 3987, less the bidi
// formatting characters.
func fragmentRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case r < 0x80:
		return strings.ContainsRune("-._~!$&'()*+,;=:@/", r)
	case isBidiFormat(r):
		return false
	}
	return ucschar(r)
}

// ucschar is the non-ASCII range of RFC 3987's ucschar production.
func ucschar(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFEF:
		return true
	case r >= 0x10000 && r <= 0xEFFFD:
		// Each plane but its last two code points (non-characters); plane
		// 14 only from E1000.
		return r&0xFFFF <= 0xFFFD && (r < 0xE0000 || r >= 0xE1000)
	}
	return false
}

func hex2(c byte) string {
	const h = "0123456789abcdef"
	return string([]byte{h[c>>4], h[c&15]})
}

// Mint returns the node IRI `<docIRI>#<kind>/<id>`.
func Mint(docIRI, kind, id string) string {
	return docIRI + "#" + kind + "/" + Escape(id)
}

// SkillIRI names a skill: `skill/<package>/<id>`, or `skill/<id>` for a
// skill outside any package. Two packages defining one name are two skills
// (SPEC §2.1a), so the package is part of the IRI; a reference written
// `package/name` mints the same IRI. The IRI changes only when the skill's
// own package or id does (see docs/decisions.md).
func SkillIRI(docIRI, pkg, id string) string {
	if pkg == "" {
		return Mint(docIRI, "skill", id)
	}
	return Mint(docIRI, "skill", pkg+"/"+id)
}

// SourceIRI is the graph label of one source file.
func SourceIRI(docIRI, relPath string) string { return Mint(docIRI, "source", relPath) }

// PortIRI names a Tool port: `tool/<id>/in/<name>` or `…/out/<name>`.
func PortIRI(docIRI, tool, dir, name string) string {
	return docIRI + "#tool/" + Escape(tool) + "/" + dir + "/" + Escape(name)
}

// ActivityIRI names a BPMN activity: `process/<pid>/node/<id>`.
func ActivityIRI(docIRI, pid, id string) string {
	return docIRI + "#process/" + Escape(pid) + "/node/" + Escape(id)
}

// Split returns the document IRI, kind and id of a node IRI minted by Mint.
// ok is false for IRIs of another shape.
func Split(iri string) (doc, kind, id string, ok bool) {
	i := strings.LastIndexByte(iri, '#')
	if i < 0 {
		return "", "", "", false
	}
	doc, rest := iri[:i], iri[i+1:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return "", "", "", false
	}
	return doc, rest[:j], Unescape(rest[j+1:]), true
}

// Unescape reverses Escape.
func Unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, ok := unhex(s[i+1], s[i+2]); ok {
				b.WriteByte(v)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(a, b byte) (byte, bool) {
	x, ok1 := hexval(a)
	y, ok2 := hexval(b)
	return x<<4 | y, ok1 && ok2
}

func hexval(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isBidiFormat reports the bidirectional formatting characters that RFC
// 3987 §4.1 forbids in IRIs (LRM, RLM, the embeddings and overrides, the
// isolates): they make an IRI display differently from what it is.
func isBidiFormat(r rune) bool {
	return r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
