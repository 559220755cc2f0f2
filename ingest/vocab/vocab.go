// Package vocab is the type vocabulary for Tool ports (SPEC §2.3).
//
// A vocabulary is a JSON Schema document whose $defs give each type's JSON
// type and an optional "x-injection-safe": true. A type's IRI is
// <canonicalURL>/tool-types.schema.json#/$defs/<Name>.
package vocab

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/schemas"
)

// DefaultCanonicalURL is the base of the built-in vocabulary's IRIs.
const DefaultCanonicalURL = "https://w3id.org/skillgraph/types"

// FileName is the file name every vocabulary IRI carries.
const FileName = "tool-types.schema.json"

// defsMarker separates a vocabulary document from a type name in an IRI.
const defsMarker = "#/$defs/"

// Type is one port type of a vocabulary.
type Type struct {
	Name          string // the $defs key, e.g. BeanId
	IRI           string // <canonicalURL>/tool-types.schema.json#/$defs/<Name>
	JSONType      string // string, number, integer, boolean, object, array; "" if not stated
	InjectionSafe bool   // x-injection-safe: true — safe to pass on argv
}

// Vocabulary is a set of port types under one canonical URL.
// The zero value and a nil *Vocabulary are empty vocabularies.
type Vocabulary struct {
	base   string // canonical URL without trailing slash
	byName map[string]Type
	byIRI  map[string]Type
}

// IRI returns the IRI of the type name under canonicalURL ("" means
// DefaultCanonicalURL; a trailing slash is trimmed).
func IRI(canonicalURL, name string) string {
	return docURL(canonicalURL) + defsMarker + name
}

func docURL(canonicalURL string) string {
	if canonicalURL == "" {
		canonicalURL = DefaultCanonicalURL
	}
	return strings.TrimRight(canonicalURL, "/") + "/" + FileName
}

// Default returns skillgraph's built-in vocabulary (the embedded
// tool-types.schema.json) with IRIs under canonicalURL; "" means
// DefaultCanonicalURL. It never fails: should the embedded file be unusable,
// the vocabulary is empty.
func Default(canonicalURL string) *Vocabulary {
	data, err := schemas.Read(FileName)
	if err == nil {
		if v, perr := Parse(data, canonicalURL); perr == nil {
			return v
		}
	}
	return &Vocabulary{base: strings.TrimRight(orDefault(canonicalURL), "/")}
}

func orDefault(u string) string {
	if u == "" {
		return DefaultCanonicalURL
	}
	return u
}

// Parse reads an instance's own vocabulary document; it replaces the default
// vocabulary entirely. canonicalURL "" means DefaultCanonicalURL.
func Parse(data []byte, canonicalURL string) (*Vocabulary, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("vocabulary: not a JSON object: %w", err)
	}
	raw, ok := doc["$defs"]
	if !ok {
		return nil, errors.New("vocabulary: no $defs")
	}
	var defs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &defs); err != nil {
		return nil, fmt.Errorf("vocabulary: $defs is not an object: %w", err)
	}
	v := &Vocabulary{
		base:   strings.TrimRight(orDefault(canonicalURL), "/"),
		byName: make(map[string]Type, len(defs)),
		byIRI:  make(map[string]Type, len(defs)),
	}
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "" {
			continue
		}
		var def map[string]any
		if err := json.Unmarshal(defs[name], &def); err != nil {
			return nil, fmt.Errorf("vocabulary: $defs/%s is not an object: %w", name, err)
		}
		t := Type{
			Name:     name,
			IRI:      IRI(v.base, name),
			JSONType: jsonType(def),
		}
		t.InjectionSafe, _ = def["x-injection-safe"].(bool)
		v.byName[name] = t
		v.byIRI[t.IRI] = t
	}
	return v, nil
}

// Resolve finds a type by its name ("BeanId") or its absolute IRI.
func (v *Vocabulary) Resolve(nameOrIRI string) (Type, bool) {
	if v == nil || nameOrIRI == "" {
		return Type{}, false
	}
	if t, ok := v.byIRI[nameOrIRI]; ok {
		return t, true
	}
	t, ok := v.byName[nameOrIRI]
	return t, ok
}

// CanonicalURL is the base of this vocabulary's IRIs (no trailing slash).
func (v *Vocabulary) CanonicalURL() string {
	if v == nil {
		return DefaultCanonicalURL
	}
	return v.base
}

// Types lists the vocabulary's types sorted by name.
func (v *Vocabulary) Types() []Type {
	if v == nil {
		return nil
	}
	out := make([]Type, 0, len(v.byName))
	for _, t := range v.byName {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
