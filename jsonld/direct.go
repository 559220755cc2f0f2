package jsonld

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// The direct path (issue #28 row 14, issue #27): a document Document
// wrote names only ContextURL, whose terms are ours, so each term's IRI,
// @type and container are known before any document is seen. directQuads
// turns such a document into json-gold's quads without expansion, a node
// map or json-gold's RDF step: one quad per node property value, typed by
// its term. It decides only what it can decide exactly as json-gold would
// and gives up (ok false) on anything else — a value type Document does not
// write, a blank node, an IRI json-gold would expand or resolve, a JSON
// literal it cannot canonicalise the same way — and the document then goes
// through json-gold as before. Equality with json-gold is tested on every
// corpus (graph/ingest TestConvertEqualsReference) and fuzzed
// (FuzzDirectEqualsReference).

// termKind is how a term's values become RDF objects.
type termKind uint8

const (
	kindPlain termKind = iota // no @type: strings, numbers, booleans as JSON-LD types them
	kindID                    // @type @id: IRIs
	kindTyped                 // @type a datatype: literals of it
	kindJSON                  // @type rdf:JSON: canonical JSON literals
)

// term is one term of the embedded context as the direct path uses it.
type term struct {
	kind      termKind
	predicate quad.Value // the term's IRI
	datatype  string     // kindTyped: the datatype IRI
}

// directTerms is the embedded context's terms the direct path can
// convert, from json-gold's own processing of the context (so the table
// cannot disagree with it), and the class IRIs its type values name. A
// term with a container, a language, a scoped context or a reverse
// mapping is left out: a document using it goes through json-gold.
type directTerms struct {
	terms   map[string]term
	classes map[string]class
	// defined is every term of the context, usable or not: a value
	// "prefix:rest" whose prefix is one of them json-gold may expand.
	defined map[string]bool
	rdfType quad.Value
}

var directTable = sync.OnceValue(func() *directTerms {
	ac, err := activeContext()
	if err != nil {
		return nil
	}
	if ac.Values.Vocab != nil || ac.Values.Base != "" || ac.Values.Language != "" || ac.Values.Direction != "" {
		return nil // values would not map as the table says
	}
	t := &directTerms{terms: map[string]term{}, classes: map[string]class{}, defined: map[string]bool{},
		rdfType: quad.IRI(ld.RDFType)}
	for name, def := range ac.TermDefinitions {
		t.defined[name] = true
		if def == nil || def.Reverse || len(def.Container) > 0 || def.HasContext || def.HasLanguage ||
			def.HasDirection || def.Nest != "" || def.Index != "" || strings.HasPrefix(name, "@") {
			continue
		}
		if !ld.IsAbsoluteIri(def.ID) || strings.HasPrefix(def.ID, "_:") || ld.InvalidNode(ld.NewIRI(def.ID)) {
			continue // a keyword alias (id, type) or an IRI json-gold would drop
		}
		// A term also names a class when used as a type value.
		t.classes[name] = class{def.ID, quad.IRI(def.ID)}
		tm := term{predicate: quad.IRI(def.ID)}
		switch def.Type {
		case "":
			tm.kind = kindPlain
		case "@id":
			tm.kind = kindID
		case ld.RDFJSONLiteral:
			tm.kind = kindJSON
		case ld.XSDDouble:
			continue // numbers become canonical doubles: not decided here
		default:
			if strings.HasPrefix(def.Type, "@") || !ld.IsAbsoluteIri(def.Type) || ld.InvalidNode(ld.NewIRI(def.Type)) {
				continue
			}
			tm.kind, tm.datatype = kindTyped, def.Type
		}
		t.terms[name] = tm
	}
	if id, typ := ac.TermDefinitions["id"], ac.TermDefinitions["type"]; id == nil || id.ID != "@id" || typ == nil || typ.ID != "@type" {
		return nil // Document writes these two aliases
	}
	return t
})

// class is the IRI a type value names, as text and as a value.
type class struct {
	iri   string
	value quad.Value
}

// objKey identifies a value as json-gold's node map compares values: a
// property holds equal values once (an IRI by its text; a literal by its
// lexical form, datatype and whether it was a number).
type objKey struct {
	s, p    quad.Value
	kind    byte
	lex, dt string
}

// direct is one document's conversion on the direct path.
type direct struct {
	t     *directTerms
	label quad.Value
	out   []entry
	iris  map[string]quad.Value
	forms map[string]string // each IRI's N-Quads form, by its text, made once
	// prefixes remembers, per IRI text up to its first '#', whether it is
	// absolute and whether json-gold keeps it (see iriOK).
	prefixes map[string]iriFacts
	whole    map[string]iriFacts
}

type iriFacts struct{ absolute, valid bool }

// DirectQuads is ToQuads of doc on the direct path alone: ok false when
// that path does not decide doc (see above), and ToQuads then asks
// json-gold. Tests use it to see which documents it decides.
func DirectQuads(doc any, graph string) (qs []quad.Quad, ok bool) { return directQuads(doc, graph) }

func directQuads(doc any, graph string) (qs []quad.Quad, ok bool) {
	t := directTable()
	if t == nil {
		return nil, false
	}
	top, isMap := doc.(map[string]any)
	if !isMap || len(top) != 2 || top["@context"] != ContextURL {
		return nil, false
	}
	nodes, isList := top["@graph"].([]any)
	if !isList {
		return nil, false
	}
	d := &direct{t: t, iris: map[string]quad.Value{}, forms: map[string]string{},
		prefixes: map[string]iriFacts{}, whole: map[string]iriFacts{}}
	if graph != "" {
		d.label = quad.IRI(graph)
	}
	n := 0
	for _, x := range nodes {
		if m, isNode := x.(map[string]any); isNode {
			n += len(m)
		}
	}
	d.out = make([]entry, 0, n)
	for _, x := range nodes {
		m, isNode := x.(map[string]any)
		if !isNode || !d.node(m) {
			return nil, false
		}
	}
	return d.quads(), true
}

// entry is one statement: its quad, the value it states (which json-gold
// holds once per property, see objKey) and its N-Quads form in parts.
type entry struct {
	o     quad.Value // the object; subject and predicate are k's
	k     objKey
	parts [3]string
}

// quads is the document's quads in SortQuads' order, each equal value of
// a property once. The order is the N-Quads text's; entries are compared
// part by part, without writing the text out (SortQuads' keys were most
// of what this path allocated).
func (d *direct) quads() []quad.Quad {
	tail := " ."
	if d.label != nil {
		tail = " " + d.label.String() + " ."
	}
	// The entries' places are sorted, not the entries: an entry is ≈ 140
	// bytes of pointers, and moving them was most of the sort (copies and
	// the collector's write barriers: a tenth of a cold start's CPU at
	// 10k skills). Ties keep the order stated, so the sort is stable.
	order := make([]int32, len(d.out))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := compareNQuads(&d.out[a].parts, &d.out[b].parts, tail); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]quad.Quad, 0, len(d.out))
	for i, at := range order {
		e := &d.out[at]
		// Equal texts are neighbours; among them, drop a value stated
		// before (two values may state one text: "3" and 3 of an
		// integer-typed term are two values for json-gold).
		dup := false
		for j := i - 1; j >= 0 && d.out[order[j]].parts == e.parts; j-- {
			if d.out[order[j]].k == e.k {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, quad.Quad{Subject: e.k.s, Predicate: e.k.p, Object: e.o, Label: d.label})
		}
	}
	return out
}

// compareNQuads compares the N-Quads texts a[0] a[1] a[2] tail and the
// same of b, as strings.Compare would.
func compareNQuads(a, b *[3]string, tail string) int {
	// Most pairs differ inside one part that neither holds as a prefix
	// of the other (or are equal: a document's IRIs share their text),
	// and then that part's order is the texts' order.
	for k := range a {
		x, y := a[k], b[k]
		if x == y {
			continue
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		break // one part is a prefix of the other: the texts decide
	}
	if *a == *b {
		return 0
	}
	x := [...]string{a[0], " ", a[1], " ", a[2], tail}
	y := [...]string{b[0], " ", b[1], " ", b[2], tail}
	i, j, oi, oj := 0, 0, 0, 0
	for {
		for i < len(x) && oi == len(x[i]) {
			i, oi = i+1, 0
		}
		for j < len(y) && oj == len(y[j]) {
			j, oj = j+1, 0
		}
		switch {
		case i == len(x) && j == len(y):
			return 0
		case i == len(x):
			return -1
		case j == len(y):
			return 1
		}
		n := min(len(x[i])-oi, len(y[j])-oj)
		if c := strings.Compare(x[i][oi:oi+n], y[j][oj:oj+n]); c != 0 {
			return c
		}
		oi, oj = oi+n, oj+n
	}
}

// form is v's N-Quads form, made once per IRI.
func (d *direct) form(v quad.Value) string {
	iri, isIRI := v.(quad.IRI)
	if !isIRI {
		return v.String()
	}
	// Keyed by the text: a string key hashes without the interface's
	// type (the interface key was most of this lookup's cost).
	f, known := d.forms[string(iri)]
	if !known {
		f = iri.String()
		d.forms[string(iri)] = f
	}
	return f
}

// node adds the quads of one node object.
func (d *direct) node(m map[string]any) bool {
	id, isString := m["id"].(string)
	if !isString {
		return false // a blank node, or an id json-gold would reject
	}
	subjOK, decided := d.iriOK(id)
	if !decided {
		return false
	}
	s := d.iri(id)
	for k, v := range m {
		switch k {
		case "id":
			continue
		case "type":
			if !d.types(s, subjOK, v) {
				return false
			}
			continue
		}
		tm, known := d.t.terms[k]
		if !known {
			return false
		}
		if !d.values(s, subjOK, tm, v) {
			return false
		}
	}
	return true
}

// types adds a node's rdf:type quads: each type value is a term naming a
// class.
func (d *direct) types(s quad.Value, subjOK bool, v any) bool {
	add := func(name string) bool {
		c, known := d.t.classes[name]
		if !known {
			return false
		}
		d.emit(subjOK, objKey{s: s, p: d.t.rdfType, kind: 'i', lex: c.iri}, c.value)
		return true
	}
	switch x := v.(type) {
	case string:
		return add(x)
	case []string:
		for _, name := range x {
			if !add(name) {
				return false
			}
		}
		return true
	}
	return false
}

// values adds the quads of one property of a node, for each value of v.
func (d *direct) values(s quad.Value, subjOK bool, tm term, v any) bool {
	switch x := v.(type) {
	case nil:
		return true // null: no value
	case []string:
		for _, e := range x {
			if !d.value(s, subjOK, tm, e) {
				return false
			}
		}
		return true
	case []int:
		for _, e := range x {
			if !d.integer(s, subjOK, tm, int64(e)) {
				return false
			}
		}
		return true
	}
	return d.value(s, subjOK, tm, v)
}

// maxExactInt bounds the integers converted here: json-gold sees every
// number as a float64 (the document goes through encoding/json), exact
// up to 2^53.
const maxExactInt = 1 << 53

// value adds the quad of one value.
func (d *direct) value(s quad.Value, subjOK bool, tm term, v any) bool {
	p := tm.predicate
	switch x := v.(type) {
	case string:
		if !utf8.ValidString(x) {
			return false // encoding/json would replace bytes: not decided here
		}
		switch tm.kind {
		case kindID:
			ok, decided := d.iriOK(x)
			if !decided {
				return false
			}
			d.emit(subjOK && ok, objKey{s: s, p: p, kind: 'i', lex: x}, d.iri(x))
		case kindPlain:
			d.emit(subjOK, objKey{s: s, p: p, kind: 's', lex: x}, quad.String(x))
		case kindTyped:
			d.emit(subjOK, objKey{s: s, p: p, kind: 's', lex: x, dt: tm.datatype}, typed(x, tm.datatype))
		case kindJSON:
			c, ok := canonicalJSON(x)
			if !ok {
				return false
			}
			// json-gold's node map compares the value as written.
			d.emit(subjOK, objKey{s: s, p: p, kind: 's', lex: x, dt: ld.RDFJSONLiteral}, typed(c, ld.RDFJSONLiteral))
		}
		return true
	case int:
		return d.integer(s, subjOK, tm, int64(x))
	case int64:
		return d.integer(s, subjOK, tm, x)
	case bool:
		dt := ld.XSDBoolean
		switch tm.kind {
		case kindTyped:
			dt = tm.datatype
		case kindID, kindJSON:
			return false
		}
		lex := strconv.FormatBool(x)
		d.emit(subjOK, objKey{s: s, p: p, kind: 'b', lex: lex, dt: dt}, typed(lex, dt))
		return true
	}
	return false
}

// integer adds an integer value: xsd:integer, or the term's datatype.
func (d *direct) integer(s quad.Value, subjOK bool, tm term, x int64) bool {
	if x > maxExactInt || x < -maxExactInt {
		return false
	}
	dt := ld.XSDInteger
	switch tm.kind {
	case kindTyped:
		dt = tm.datatype
	case kindID, kindJSON:
		return false
	}
	lex := strconv.FormatInt(x, 10)
	d.emit(subjOK, objKey{s: s, p: tm.predicate, kind: 'n', lex: lex, dt: dt}, typed(lex, dt))
	return true
}

// typed is the literal json-gold's quads become (see literal).
func typed(lex, dt string) quad.Value {
	if dt == XSDString {
		return quad.String(lex)
	}
	return quad.TypedString{Value: quad.String(lex), Type: quad.IRI(dt)}
}

// emit adds the quad s p o (quads keeps it once per equal value); keep
// false drops it, as json-gold drops a statement naming an IRI it finds
// invalid.
func (d *direct) emit(keep bool, k objKey, o quad.Value) {
	if keep {
		d.out = append(d.out, entry{o: o, k: k, parts: [3]string{d.form(k.s), d.form(k.p), d.form(o)}})
	}
}

// iri is the IRI s, boxed once per document.
func (d *direct) iri(s string) quad.Value { return iri(d.iris, s) }

// iriOK says whether json-gold takes the @id value s as it is (decided:
// it neither expands, resolves nor names a blank node by it) and then
// whether it keeps the statements naming it (ok: not an http(s) IRI its
// URL check refuses).
//
// Both facts of an IRI P#T, whose fragment T holds only what Escape
// leaves (no space, no '#', '%' only before two hex digits), are P#'s:
// url.Parse cuts the fragment off first and accepts it, and json-gold's
// URL pattern ends in a path part of any non-space characters, which T
// extends. So the facts are computed once per document prefix, not once
// per minted IRI (json-gold's per-IRI pattern match was most of its RDF
// step). Only "valid" needs P# valid to carry over; otherwise s is
// checked whole.
func (d *direct) iriOK(s string) (ok, decided bool) {
	if strings.HasPrefix(s, "_:") {
		return false, false
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return false, false
	}
	if !strings.HasPrefix(s[colon+1:], "//") && d.t.defined[s[:colon]] {
		return false, false // a compact IRI json-gold expands
	}
	f := d.facts(s)
	if !f.absolute {
		return false, false // json-gold resolves it against the base, then drops it
	}
	return f.valid, true
}

// maxURLRunes is json-gold's bound on the length of an http(s) IRI it
// keeps (ld.IsURL: fewer than 2 083 runes).
const maxURLRunes = 2083

// facts are s's absoluteness and validity, from its prefix when they
// carry over (see iriOK), else from s whole; both remembered.
func (d *direct) facts(s string) iriFacts {
	if i := strings.IndexByte(s, '#'); i >= 0 && fragmentSafe(s[i+1:]) {
		p := s[:i+1]
		f, known := d.prefixes[p]
		if !known {
			f = sharedFacts(p)
			d.prefixes[p] = f
		}
		// Not absolute carries over both ways; valid only one way.
		if !f.absolute || (f.valid && (!httpIRI(s) || utf8.RuneCountInString(s) < maxURLRunes)) {
			return f
		}
	}
	f, known := d.whole[s]
	if !known {
		f = wholeFacts.get(s)
		d.whole[s] = f
	}
	return f
}

// factCache remembers the facts of IRIs across documents, up to max of
// them; past that, the rest are asked per document.
type factCache struct {
	sync.RWMutex
	m   map[string]iriFacts
	max int
}

// prefixFacts holds document prefixes: every file of an instance mints
// its IRIs under one document IRI, and asking json-gold once per file was
// a quarter of the direct path's CPU at 10k. wholeFacts holds IRIs
// checked whole: every file names its instance's document IRI (without a
// fragment), and that one pattern match per file was another 8 % of a
// 10k cold start's CPU. Two caches, so that many distinct whole IRIs
// never crowd the prefixes out.
var (
	prefixFacts = &factCache{m: map[string]iriFacts{}, max: 4096}
	wholeFacts  = &factCache{m: map[string]iriFacts{}, max: 4096}
)

// sharedFacts is the facts of the document prefix p.
func sharedFacts(p string) iriFacts { return prefixFacts.get(p) }

// get is s's facts, asked of json-gold once while c has room.
func (c *factCache) get(s string) iriFacts {
	c.RLock()
	f, known := c.m[s]
	c.RUnlock()
	if known {
		return f
	}
	f = exactFacts(s)
	c.Lock()
	if len(c.m) < c.max {
		c.m[strings.Clone(s)] = f // not a slice of the document that named it
	}
	c.Unlock()
	return f
}

// exactFacts asks json-gold.
func exactFacts(s string) iriFacts {
	return iriFacts{absolute: ld.IsAbsoluteIri(s), valid: !ld.InvalidNode(ld.NewIRI(s))}
}

func httpIRI(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// fragmentSafe reports whether t is made only of what Escape leaves in a
// fragment.
func fragmentSafe(t string) bool {
	for i := 0; i < len(t); {
		if t[i] == '%' {
			if i+2 >= len(t) {
				return false
			}
			if _, ok := unhex(t[i+1], t[i+2]); !ok {
				return false
			}
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if (r == utf8.RuneError && n == 1) || !fragmentRune(r) {
			return false
		}
		i += n
	}
	return true
}
