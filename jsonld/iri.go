// Package jsonld turns the records of one source file into one JSON-LD 1.1
// document using the skillgraph context, and that document into RDF quads
// with json-gold and an offline document loader (SPEC §3).
package jsonld

import (
	"strings"
)

// NS is the skillgraph vocabulary namespace.
const NS = "https://w3id.org/skillgraph/ns#"

// Escape percent-escapes only %, #, ? and whitespace, as SPEC §3.1 requires.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '%' || r == '#' || r == '?' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			b.WriteString("%")
			b.WriteString(strings.ToUpper(hex2(byte(r))))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hex2(c byte) string {
	const h = "0123456789abcdef"
	return string([]byte{h[c>>4], h[c&15]})
}

// Mint returns the node IRI `<docIRI>#<kind>/<id>`.
func Mint(docIRI, kind, id string) string {
	return docIRI + "#" + kind + "/" + Escape(id)
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
