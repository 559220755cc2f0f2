// Package contract parses JSON Schema skill I/O contracts (SPEC §2.7),
// draft-07 or 2020-12, into record.Contract values.
package contract

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// ParserName is the record.File.Parser value of this package.
const ParserName = "contract"

// Parse reads one contract: its top-level "required" names and each
// top-level property's JSON type ("" when not stated; for a type list the
// first entry that is not "null"). Parse never panics.
func Parse(path string, data []byte) (out record.File) {
	out = record.File{Path: path, Parser: ParserName}
	defer func() {
		if r := recover(); r != nil {
			out.Contracts = nil
			out.Findings = append(out.Findings, parseError(path, 1, fmt.Sprintf("internal error: %v", r)))
		}
	}()
	root, err := ynode.ParseJSON(data)
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		out.Findings = append(out.Findings, parseError(path, line, fmt.Sprintf("not valid JSON (line %d): %s", line, msg)))
		return out
	}
	if !ynode.IsMap(root) {
		// One finding: what a value inside says (a huge number, a
		// duplicate key) does not matter when no contract is read.
		out.Findings = append(out.Findings, parseError(path, ynode.Line(root), "not a JSON Schema object"))
		return out
	}
	for _, pr := range ynode.Problems(root) {
		out.Findings = append(out.Findings, parseError(path, pr.Line, pr.Msg))
	}
	for _, field := range []string{"properties", "required"} {
		// Each property is a value of the contract's graph node, merged in
		// quadratic time by the conversion (issue #16.6).
		if count, over := ynode.TooMany(ynode.Get(root, field)); over {
			out.Findings = append(out.Findings, parseError(path, ynode.Line(ynode.Get(root, field)),
				fmt.Sprintf("%s lists %d entries, over the limit of %d a contract may hold; the contract is not read", field, count, ynode.MaxItems)))
			return out
		}
	}
	c := record.Contract{Path: path, Properties: map[string]string{}}
	c.Required = ynode.Strings(ynode.Get(root, "required"))
	for _, pr := range ynode.Pairs(ynode.Get(root, "properties")) {
		typ, external := propertyType(root, pr.Value)
		c.Properties[pr.Key.Value] = typ
		if external != nil {
			out.Findings = append(out.Findings, record.Finding{Code: record.CodeContractExternal,
				Severity: record.SeverityOf(record.CodeContractExternal), File: path, Line: ynode.Line(external),
				Message: fmt.Sprintf("%s: property %q refers to %q, which is not fetched: its type is not checked", path, pr.Key.Value, ynode.Str(external))})
		}
	}
	out.Contracts = []record.Contract{c}
	return out
}

func parseError(path string, line int, msg string) record.Finding {
	if line < 1 {
		line = 1
	}
	return record.Finding{Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError), File: path, Line: line,
		Message: fmt.Sprintf("%s: %s", path, msg)}
}

// maxRefHops bounds a chain of $refs and the nesting of allOf, anyOf and
// oneOf (a cycle ends there too).
const maxRefHops = 32

// propertyType is the JSON type of a property schema, following local
// $refs (`#/$defs/N`, `#/definitions/N`, any JSON pointer into this
// document) so that a property typed through a definition is checked
// like one typed inline (SPEC §5.2). A $ref to another document is not
// fetched: external is its node, and the type is "" (not stated).
//
// A property typed through allOf, anyOf or oneOf (issue 23.6) has the
// types its branches allow: allOf the types every branch allows (a branch
// stating none constrains nothing; number and integer give integer),
// anyOf and oneOf those any branch allows, and "" when one branch states
// no type or lies in another document (that one is external: not
// checked). Several types are written sorted and joined by "|"; "null" is
// dropped beside another type, since a port never passes null.
func propertyType(root, n *yaml.Node) (typ string, external *yaml.Node) {
	budget := maxSchemaNodes
	set, external := typesOf(root, n, 0, &budget)
	if len(set) == 0 {
		return "", external
	}
	if len(set) > 1 {
		delete(set, "null")
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), "|"), external
}

// maxSchemaNodes bounds the schemas read for one property: branches that
// $ref their own definition would otherwise be read exponentially often.
const maxSchemaNodes = 4096

// typesOf is the set of JSON types a schema allows, nil for any (also when
// the depth or the budget runs out: not stated is never a mismatch).
func typesOf(root, n *yaml.Node, depth int, budget *int) (set map[string]bool, external *yaml.Node) {
	if n == nil || depth > maxRefHops || *budget <= 0 {
		return nil, nil
	}
	*budget--
	if t := ynode.Get(n, "type"); t != nil {
		set = map[string]bool{}
		if ynode.IsSeq(t) {
			for _, x := range ynode.Strings(t) {
				if x != "null" { // as ynode.SchemaType reads a list
					set[x] = true
				}
			}
		} else if x := ynode.Str(t); x != "" {
			set[x] = true
		}
		if len(set) == 0 {
			set = nil
		}
	} else if ref := ynode.Get(n, "$ref"); ref != nil {
		target, local := pointer(root, ynode.Str(ref))
		if !local {
			return nil, ref
		}
		set, external = typesOf(root, target, depth+1, budget)
	}
	for _, b := range ynode.Items(ynode.Get(n, "allOf")) {
		bs, ext := typesOf(root, b, depth+1, budget)
		external = cmp.Or(external, ext)
		set = intersect(set, bs)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		branches := ynode.Items(ynode.Get(n, k))
		if len(branches) == 0 {
			continue
		}
		union, open := map[string]bool{}, false
		for _, b := range branches {
			bs, ext := typesOf(root, b, depth+1, budget)
			external = cmp.Or(external, ext)
			if bs == nil {
				open = true
			}
			for x := range bs {
				union[x] = true
			}
		}
		if !open {
			set = intersect(set, union)
		}
	}
	return set, external
}

// intersect is the types both sets allow (nil: any); an integer is a
// number.
func intersect(a, b map[string]bool) map[string]bool {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := map[string]bool{}
	for x := range a {
		if b[x] || (x == "integer" && b["number"]) {
			out[x] = true
		}
	}
	for x := range b {
		if x == "integer" && a["number"] {
			out[x] = true
		}
	}
	return out
}

// pointer resolves a same-document reference "#/a/b" (RFC 6901 escapes,
// percent-decoded as a URI fragment); local is false for any other
// reference. A local pointer to nothing gives nil.
func pointer(root *yaml.Node, ref string) (n *yaml.Node, local bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, true
	}
	n = root
	if frag == "" {
		return n, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, true // an anchor name: not resolved
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case ynode.IsMap(n):
			n = ynode.Get(n, tok)
		case ynode.IsSeq(n):
			i, err := strconv.Atoi(tok)
			items := ynode.Items(n)
			if err != nil || i < 0 || i >= len(items) {
				return nil, true
			}
			n = items[i]
		default:
			return nil, true
		}
		if n == nil {
			return nil, true
		}
	}
	return n, true
}
