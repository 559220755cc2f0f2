package tsmodule

import (
	"github.com/dop251/goja/ast"
)

// Value is what the evaluator knows of an expression. Every value carries
// the position it came from, so a Tool's fields keep the module's lines.
type Value interface{ orig() origin }

// origin is where a value came from: the module and the position in its
// JavaScript.
type origin struct {
	mod *Module
	idx int
}

func (p origin) orig() origin { return p }

// Line is the 1-based line of the value in its module.
func (p origin) Line() int {
	if p.mod == nil {
		return 1
	}
	return p.mod.Line(fileIdx(p.idx))
}

// Unknown is a value the evaluator cannot know without running code.
type Unknown struct {
	origin
	Why string
}

// Undefined is JavaScript's undefined (an absent key, a missing argument).
type Undefined struct{ origin }

// Null is JavaScript's null.
type Null struct{ origin }

// Bool is a boolean.
type Bool struct {
	origin
	V bool
}

// Number is a number.
type Number struct {
	origin
	V float64
}

// String is a string.
type String struct {
	origin
	V string
}

// Array is an array; Holes marks elements spread from unknown values.
type Array struct {
	origin
	Items []Value
}

// Object is an object literal's own keys in order. Spreads of unknown values
// are kept as Unknown entries of Spreads: the object may have more keys.
type Object struct {
	origin
	Keys    []string
	Vals    map[string]Value
	KeyPos  map[string]origin
	Spreads []*Unknown
}

func newObject(p origin) *Object {
	return &Object{origin: p, Vals: map[string]Value{}, KeyPos: map[string]origin{}}
}

func (o *Object) set(k string, v Value, kp origin) {
	if _, ok := o.Vals[k]; !ok {
		o.Keys = append(o.Keys, k)
	}
	o.Vals[k] = v
	o.KeyPos[k] = kp
}

// get returns a key's value and whether it is present.
func (o *Object) get(k string) (Value, bool) {
	v, ok := o.Vals[k]
	return v, ok
}

// RegExp is a regular-expression literal.
type RegExp struct {
	origin
	Pattern, Flags string
}

// Set is `new Set([...])` of known values.
type Set struct {
	origin
	Items []Value
}

// TypeRef is a port type named in a type position: `schema: t("Name")`.
type TypeRef struct {
	origin
	Name string
}

// ToolCall is one evaluated `defineTool({...})`.
type ToolCall struct {
	origin
	Arg Value
}

// Func is a function value: an arrow or function literal with the scope it
// closes over.
type Func struct {
	origin
	params *ast.ParameterList
	body   ast.ConciseBody // *ast.BlockStatement or *ast.ExpressionBody
	scope  *scope
	name   string
}

// ModuleRef is `require("./x.js")`: a sibling module's exports.
type ModuleRef struct {
	origin
	Spec   string
	target *Module // nil when the module is not part of the corpus
	env    *moduleEnv
}

// Zod is a Zod schema built by a chain like z.string().regex(/…/).
type Zod struct {
	origin
	Type        string // JSON type: string, number, integer, boolean, object, array; "" unknown
	Pattern     string
	Enum        []string
	Description string
}

// zodNS is the `z` namespace of the zod package.
type zodNS struct{ origin }

// builtin is a function known by name: the `Set` constructor and the
// identity markers defineTool and toolFactory.
type builtin struct {
	origin
	name string
}
