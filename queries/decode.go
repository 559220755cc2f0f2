package queries

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/skillgraph/skillgraph/schemas"
)

// The decoder: a model field tagged `sg:"term"` is read from the stored
// property of that term of the JSON-LD context (schemas/context.jsonld), the
// same term the encoder (jsonld.Document) writes. The term's kind in the
// context and the field's Go type say how:
//
//	literal  string, []string (sorted)
//	iri      string (the first), []string (sorted)
//	integer  int, []int (sorted)
//	boolean  bool, *bool (nil when not stated: tri-state)
//	json     string (the JSON text as stored), or any type it unmarshals into
//
// A stored field is added by writing it in jsonld.Document, defining its
// term in the context and tagging a model field: no decoding code.

// fieldPlan decodes one tagged field.
type fieldPlan struct {
	index []int
	iri   string
	set   func(r *raw, iri string, f reflect.Value)
}

// plans caches the field plans of each model type.
var plans sync.Map // reflect.Type → []fieldPlan

// decode fills the tagged fields of *v from r.
func decode[T any](r *raw, v *T) *T {
	rv := reflect.ValueOf(v).Elem()
	for _, p := range planOf(rv.Type()) {
		p.set(r, p.iri, rv.FieldByIndex(p.index))
	}
	return v
}

// planOf returns the plan of a struct type; a tag naming no term of the
// context, or a field type the term's kind cannot fill, is a programming
// error and panics (TestDecoderPlans builds every model type's plan).
func planOf(t reflect.Type) []fieldPlan {
	if p, ok := plans.Load(t); ok {
		return p.([]fieldPlan)
	}
	p, err := buildPlan(t)
	if err != nil {
		panic(err)
	}
	plans.Store(t, p)
	return p
}

var (
	typString  = reflect.TypeOf("")
	typStrings = reflect.TypeOf([]string(nil))
	typInt     = reflect.TypeOf(0)
	typInts    = reflect.TypeOf([]int(nil))
	typBool    = reflect.TypeOf(false)
	typOptBool = reflect.TypeOf((*bool)(nil))
)

func buildPlan(t reflect.Type) ([]fieldPlan, error) {
	var out []fieldPlan
	for i := range t.NumField() {
		f := t.Field(i)
		name, ok := f.Tag.Lookup("sg")
		if !ok {
			continue
		}
		term, ok := schemas.LookupTerm(name)
		if !ok {
			return nil, fmt.Errorf("queries: %s.%s: tag names %q, which is no term of schemas/context.jsonld", t.Name(), f.Name, name)
		}
		set := setter(term.Kind, f.Type)
		if set == nil {
			return nil, fmt.Errorf("queries: %s.%s: a %s term cannot fill a %s", t.Name(), f.Name, term.Kind, f.Type)
		}
		out = append(out, fieldPlan{index: f.Index, iri: term.IRI, set: set})
	}
	return out, nil
}

// setter is how a term of that kind fills a field of type ft, nil if it
// cannot.
func setter(kind string, ft reflect.Type) func(*raw, string, reflect.Value) {
	isString := ft.Kind() == reflect.String // also named string types
	switch {
	case kind == schemas.KindJSON && isString:
		return func(r *raw, p string, f reflect.Value) { f.SetString(r.str(p)) }
	case kind == schemas.KindJSON:
		return func(r *raw, p string, f reflect.Value) {
			if s := r.str(p); s != "" {
				_ = json.Unmarshal([]byte(s), f.Addr().Interface())
			}
		}
	case kind == schemas.KindIRI && ft == typString:
		return func(r *raw, p string, f reflect.Value) { f.SetString(r.iri1(p)) }
	case kind == schemas.KindIRI && ft == typStrings:
		return func(r *raw, p string, f reflect.Value) { f.Set(reflect.ValueOf(r.iris(p))) }
	case kind == schemas.KindInteger && ft == typInt:
		return func(r *raw, p string, f reflect.Value) { f.SetInt(int64(r.int(p))) }
	case kind == schemas.KindInteger && ft == typInts:
		return func(r *raw, p string, f reflect.Value) { f.Set(reflect.ValueOf(r.ints(p))) }
	case kind == schemas.KindBoolean && ft == typBool:
		return func(r *raw, p string, f reflect.Value) { f.SetBool(r.boolean(p)) }
	case kind == schemas.KindBoolean && ft == typOptBool:
		return func(r *raw, p string, f reflect.Value) { f.Set(reflect.ValueOf(r.optBool(p))) }
	case kind == schemas.KindLiteral && isString:
		return func(r *raw, p string, f reflect.Value) { f.SetString(r.str(p)) }
	case kind == schemas.KindLiteral && ft == typStrings:
		return func(r *raw, p string, f reflect.Value) { f.Set(reflect.ValueOf(r.strs(p))) }
	}
	return nil
}

// term is the stored IRI of a context term, for the few properties read by
// hand; it panics on a name that is no term (a programming error).
func term(name string) string {
	t, ok := schemas.LookupTerm(name)
	if !ok {
		panic(fmt.Sprintf("queries: %q is no term of schemas/context.jsonld", name))
	}
	return t.IRI
}
