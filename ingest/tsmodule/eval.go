package tsmodule

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

// Limits bound one evaluation. A value past a limit is unknown.
type Limits struct {
	Steps    int // expressions evaluated, in all
	Depth    int // nested calls and expressions
	Elements int // array elements and object keys built, in all
	Modules  int // modules loaded
}

// DefaultLimits are generous for hand-written modules (the largest real
// Tool module, ~3 500 lines, takes ~40 000 steps) and small enough that a
// hostile module is refused in milliseconds.
var defaultLimits = Limits{Steps: 2_000_000, Depth: 200, Elements: 500_000, Modules: 64}

// DefaultLimits returns the limits Read uses when given none.
func DefaultLimits() Limits { return defaultLimits }

// Loader returns the source of a module of the corpus by its slash path
// relative to the corpus root, or an error when there is none.
type Loader func(rel string) ([]byte, error)

// Program evaluates modules of one corpus, loading siblings on demand.
type Program struct {
	ctx     context.Context // nil: never cancelled
	load    Loader
	lim     Limits
	steps   int
	elems   int
	bytes   int // string bytes built, in all (maxStringBytes)
	modules map[string]*moduleEnv
	// assigned caches collectAssigned of function bodies.
	assigned map[*ast.BlockStatement]map[string]bool
	// Exhausted says a limit was reached: some values are unknown because
	// of it.
	Exhausted string
}

// NewProgram returns a Program reading sibling modules through load (nil:
// none). Zero limits mean DefaultLimits.
func NewProgram(load Loader, lim Limits) *Program {
	if lim == (Limits{}) {
		lim = defaultLimits
	}
	return &Program{load: load, lim: lim, modules: map[string]*moduleEnv{}, assigned: map[*ast.BlockStatement]map[string]bool{}}
}

type binding struct {
	init    ast.Expression
	fn      *ast.FunctionLiteral
	scope   *scope
	mod     *Module
	val     Value
	state   int // 0 lazy, 1 evaluating, 2 done
	unknown string
}

type scope struct {
	parent *scope
	vars   map[string]*binding
	mod    *Module
}

func newScope(parent *scope, mod *Module) *scope {
	return &scope{parent: parent, vars: map[string]*binding{}, mod: mod}
}

func (s *scope) lookup(name string) *binding {
	for ; s != nil; s = s.parent {
		if b, ok := s.vars[name]; ok {
			return b
		}
	}
	return nil
}

type moduleEnv struct {
	mod      *Module
	scope    *scope
	exports  map[string]ast.Expression // name → getter body (esbuild's __export table)
	order    []string
	reexport []ast.Expression // __reExport(x_exports, require(...))
	err      error
}

func fileIdx(i int) file.Idx { return file.Idx(i) }

func (p *Program) unknown(at origin, why string) *Unknown { return &Unknown{origin: at, Why: why} }

// step counts one unit of work; false means the budget is spent.
func (p *Program) step() bool {
	p.steps++
	if p.steps > p.lim.Steps {
		if p.Exhausted == "" {
			p.Exhausted = "step limit"
		}
		return false
	}
	// A cancelled context stops the evaluation like a spent budget; it is
	// looked at every 1 024 steps (a few microseconds of work).
	if p.ctx != nil && p.steps&1023 == 0 && p.ctx.Err() != nil {
		p.lim.Steps = p.steps // every later step fails at once
		if p.Exhausted == "" {
			p.Exhausted = "cancellation"
		}
		return false
	}
	return true
}

// WithContext makes the Program stop evaluating, as at its step limit,
// once ctx is done (Exhausted says "cancellation"). Compiling one module is
// bounded by MaxDepth and the file size cap and is not interrupted.
func (p *Program) WithContext(ctx context.Context) *Program {
	p.ctx = ctx
	return p
}

// maxStringBytes bounds the bytes of all strings one Program builds. One
// string is at most 1 MiB, but a shared string is evaluated once and may
// be concatenated many times (.map of `s + s` over a large array).
const maxStringBytes = 32 << 20

// growString counts n bytes of a string built; false means the budget is
// spent.
func (p *Program) growString(n int) bool {
	p.bytes += n
	if p.bytes > maxStringBytes {
		if p.Exhausted == "" {
			p.Exhausted = "size limit"
		}
		return false
	}
	return true
}

func (p *Program) grow(n int) bool {
	p.elems += n
	if p.elems > p.lim.Elements {
		if p.Exhausted == "" {
			p.Exhausted = "size limit"
		}
		return false
	}
	return true
}

// Module compiles (once) and binds the top level of a module.
func (p *Program) Module(rel string, src []byte) (*moduleEnv, error) {
	if env, ok := p.modules[rel]; ok {
		return env, env.err
	}
	env := &moduleEnv{exports: map[string]ast.Expression{}}
	p.modules[rel] = env
	m, err := compileOnce(rel, src)
	if err != nil {
		env.err = err
		var de *DepthError
		if errors.As(err, &de) && p.Exhausted == "" {
			// Too deep to parse safely is a limit of this reader, like the
			// step limit: the module's values are unknown, not wrong.
			p.Exhausted = fmt.Sprintf("depth limit in %s (%s)", rel, de.Detail())
		}
		return env, err
	}
	env.mod = m
	env.scope = newScope(nil, m)
	assigned := map[string]bool{}
	collectAssigned(m.program, assigned)
	bindStatements(env.scope, m, m.program.Body, assigned)
	for _, st := range m.program.Body {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok {
			continue
		}
		call, ok := es.Expression.(*ast.CallExpression)
		if !ok {
			continue
		}
		id, ok := call.Callee.(*ast.Identifier)
		if !ok {
			continue
		}
		switch id.Name.String() {
		case "__export":
			if len(call.ArgumentList) == 2 {
				if obj, ok := call.ArgumentList[1].(*ast.ObjectLiteral); ok {
					for _, pr := range obj.Value {
						kv, ok := pr.(*ast.PropertyKeyed)
						if !ok {
							continue
						}
						name, ok := literalKey(kv.Key)
						if !ok {
							continue
						}
						if fn, ok := kv.Value.(*ast.ArrowFunctionLiteral); ok {
							if body, ok := fn.Body.(*ast.ExpressionBody); ok {
								env.exports[name] = body.Expression
								env.order = append(env.order, name)
							}
						}
					}
				}
			}
		case "__reExport":
			if len(call.ArgumentList) >= 2 {
				env.reexport = append(env.reexport, call.ArgumentList[1])
			}
		}
	}
	return env, nil
}

// Exports lists a module's export names in order.
func (env *moduleEnv) Exports() []string { return env.order }

// Export evaluates one export of a module.
func (p *Program) Export(env *moduleEnv, name string) Value {
	at := origin{mod: env.mod}
	if env.err != nil {
		return p.unknown(at, "module does not compile")
	}
	if e, ok := env.exports[name]; ok {
		return p.eval(e, env.scope, 0)
	}
	for _, re := range env.reexport {
		if ref, ok := p.eval(re, env.scope, 0).(*ModuleRef); ok && ref.env != nil {
			if _, has := ref.env.exports[name]; has {
				return p.Export(ref.env, name)
			}
		}
	}
	return &Undefined{origin: at}
}

// bindStatements binds the declarations of a statement list lazily.
func bindStatements(sc *scope, m *Module, list []ast.Statement, assigned map[string]bool) {
	for _, st := range list {
		switch s := st.(type) {
		case *ast.VariableStatement:
			bindList(sc, m, s.List, assigned)
		case *ast.LexicalDeclaration:
			bindList(sc, m, s.List, assigned)
		case *ast.FunctionDeclaration:
			if s.Function.Name != nil {
				name := s.Function.Name.Name.String()
				b := &binding{fn: s.Function, scope: sc, mod: m}
				if assigned[name] {
					b.unknown = "reassigned"
				}
				sc.vars[name] = b
			}
		case *ast.ClassDeclaration:
			if s.Class.Name != nil {
				sc.vars[s.Class.Name.Name.String()] = &binding{unknown: "a class", mod: m, scope: sc}
			}
		}
	}
}

func bindList(sc *scope, m *Module, list []*ast.Binding, assigned map[string]bool) {
	for _, b := range list {
		id, ok := b.Target.(*ast.Identifier)
		if !ok {
			for _, name := range patternNames(b.Target) {
				sc.vars[name] = &binding{unknown: "a destructuring binding", mod: m, scope: sc}
			}
			continue
		}
		name := id.Name.String()
		nb := &binding{init: b.Initializer, scope: sc, mod: m}
		if assigned[name] {
			nb.unknown = "reassigned"
		}
		if prev, ok := sc.vars[name]; ok && prev.init != nil {
			nb.unknown = "declared twice"
		}
		sc.vars[name] = nb
	}
}

func patternNames(t ast.Expression) []string {
	var out []string
	switch x := t.(type) {
	case *ast.Identifier:
		out = append(out, x.Name.String())
	case *ast.ObjectPattern:
		for _, pr := range x.Properties {
			switch q := pr.(type) {
			case *ast.PropertyShort:
				out = append(out, q.Name.Name.String())
			case *ast.PropertyKeyed:
				out = append(out, patternNames(q.Value)...)
			}
		}
		if x.Rest != nil {
			out = append(out, patternNames(x.Rest)...)
		}
	case *ast.ArrayPattern:
		for _, e := range x.Elements {
			out = append(out, patternNames(e)...)
		}
		if x.Rest != nil {
			out = append(out, patternNames(x.Rest)...)
		}
	case *ast.Binding:
		out = append(out, patternNames(x.Target)...)
	}
	return out
}

// collectAssigned finds every identifier a module assigns to after its
// declaration: such a binding is not a constant. goja's AST has no walker,
// so the tree is visited by reflection over its node fields.
func collectAssigned(n any, out map[string]bool) {
	walk(reflect.ValueOf(n), func(v any) {
		switch x := v.(type) {
		case *ast.AssignExpression:
			if id, ok := x.Left.(*ast.Identifier); ok {
				out[id.Name.String()] = true
			}
		case *ast.UnaryExpression:
			if x.Operator == token.INCREMENT || x.Operator == token.DECREMENT {
				if id, ok := x.Operand.(*ast.Identifier); ok {
					out[id.Name.String()] = true
				}
			}
		}
	})
}

var fileType = reflect.TypeOf((*file.File)(nil))

func walk(v reflect.Value, visit func(any)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), visit)
		}
	case reflect.Pointer:
		if v.IsNil() || v.Type() == fileType {
			return
		}
		if v.CanInterface() {
			visit(v.Interface())
		}
		walk(v.Elem(), visit)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanInterface() {
				walk(f, visit)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), visit)
		}
	}
}

func literalKey(e ast.Expression) (string, bool) {
	switch k := e.(type) {
	case *ast.Identifier:
		return k.Name.String(), true
	case *ast.StringLiteral:
		return k.Value.String(), true
	case *ast.NumberLiteral:
		return numberString(toFloat(k.Value)), true
	}
	return "", false
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case float64:
		return n
	}
	return math.NaN()
}

func numberString(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// value of a binding, evaluated once; a binding that refers to itself while
// being evaluated is unknown.
func (p *Program) value(b *binding, at origin, depth int) Value {
	if b.unknown != "" {
		return p.unknown(at, b.unknown)
	}
	switch b.state {
	case 1:
		return p.unknown(at, "refers to itself")
	case 2:
		return b.val
	}
	b.state = 1
	switch {
	case b.fn != nil:
		b.val = &Func{origin: origin{mod: b.mod, idx: int(b.fn.Idx0())}, params: b.fn.ParameterList, body: b.fn.Body, scope: b.scope, name: nameOf(b.fn.Name)}
	case b.init == nil:
		b.val = &Undefined{origin: at}
	default:
		b.val = p.eval(b.init, b.scope, depth+1)
	}
	b.state = 2
	return b.val
}

func nameOf(id *ast.Identifier) string {
	if id == nil {
		return ""
	}
	return id.Name.String()
}

// eval evaluates one expression in a scope.
func (p *Program) eval(e ast.Expression, sc *scope, depth int) Value {
	at := origin{mod: sc.mod}
	if e != nil {
		at.idx = int(e.Idx0())
	}
	if !p.step() {
		return p.unknown(at, "evaluation step limit")
	}
	if depth > p.lim.Depth {
		if p.Exhausted == "" {
			p.Exhausted = "depth limit"
		}
		return p.unknown(at, "nested too deeply")
	}
	switch x := e.(type) {
	case nil:
		return &Undefined{origin: at}
	case *ast.StringLiteral:
		return &String{origin: at, V: x.Value.String()}
	case *ast.NumberLiteral:
		f := toFloat(x.Value)
		if math.IsNaN(f) {
			return p.unknown(at, "a number out of range")
		}
		return &Number{origin: at, V: f}
	case *ast.BooleanLiteral:
		return &Bool{origin: at, V: x.Value}
	case *ast.NullLiteral:
		return &Null{origin: at}
	case *ast.RegExpLiteral:
		return &RegExp{origin: at, Pattern: x.Pattern, Flags: x.Flags}
	case *ast.TemplateLiteral:
		return p.template(x, sc, depth, at)
	case *ast.Identifier:
		return p.ident(x.Name.String(), sc, depth, at)
	case *ast.ArrayLiteral:
		return p.array(x, sc, depth, at)
	case *ast.ObjectLiteral:
		return p.object(x, sc, depth, at)
	case *ast.ArrowFunctionLiteral:
		return &Func{origin: at, params: x.ParameterList, body: x.Body, scope: sc}
	case *ast.FunctionLiteral:
		if x.Async || x.Generator {
			return p.unknown(at, "an async or generator function")
		}
		return &Func{origin: at, params: x.ParameterList, body: x.Body, scope: sc, name: nameOf(x.Name)}
	case *ast.SequenceExpression:
		// esbuild writes an imported call as (0, import_x.name)(...).
		var v Value = &Undefined{origin: at}
		for _, s := range x.Sequence {
			v = p.eval(s, sc, depth+1)
		}
		return v
	case *ast.DotExpression:
		return p.member(p.eval(x.Left, sc, depth+1), x.Identifier.Name.String(), at)
	case *ast.BracketExpression:
		obj := p.eval(x.Left, sc, depth+1)
		switch k := p.eval(x.Member, sc, depth+1).(type) {
		case *String:
			return p.member(obj, k.V, at)
		case *Number:
			return p.member(obj, numberString(k.V), at)
		}
		return p.unknown(at, "a computed member")
	case *ast.OptionalChain:
		return p.eval(x.Expression, sc, depth+1)
	case *ast.Optional:
		v := p.eval(x.Expression, sc, depth+1)
		switch v.(type) {
		case *Undefined, *Null:
			return &Undefined{origin: at}
		}
		return v
	case *ast.ConditionalExpression:
		switch truthy(p.eval(x.Test, sc, depth+1)) {
		case 1:
			return p.eval(x.Consequent, sc, depth+1)
		case 0:
			return p.eval(x.Alternate, sc, depth+1)
		}
		return p.unknown(at, "a condition known only at run time")
	case *ast.BinaryExpression:
		return p.binary(x, sc, depth, at)
	case *ast.UnaryExpression:
		return p.unary(x, sc, depth, at)
	case *ast.CallExpression:
		return p.call(x, sc, depth, at)
	case *ast.NewExpression:
		if id, ok := x.Callee.(*ast.Identifier); ok && id.Name.String() == "Set" && sc.lookup("Set") == nil {
			if len(x.ArgumentList) == 0 {
				return &Set{origin: at}
			}
			if arr, ok := p.eval(x.ArgumentList[0], sc, depth+1).(*Array); ok {
				return &Set{origin: at, Items: arr.Items}
			}
		}
		return p.unknown(at, "a constructor call")
	}
	return p.unknown(at, "an expression evaluated only at run time")
}

func (p *Program) ident(name string, sc *scope, depth int, at origin) Value {
	if b := sc.lookup(name); b != nil {
		v := p.value(b, at, depth)
		return v
	}
	switch name {
	case "undefined":
		return &Undefined{origin: at}
	case "require":
		return &builtin{origin: at, name: "require"}
	}
	return p.unknown(at, "the global "+name)
}

func (p *Program) template(x *ast.TemplateLiteral, sc *scope, depth int, at origin) Value {
	if x.Tag != nil {
		return p.unknown(at, "a tagged template")
	}
	var b strings.Builder
	for i, el := range x.Elements {
		if !el.Valid {
			return p.unknown(at, "an invalid template escape")
		}
		b.WriteString(el.Parsed.String())
		if i < len(x.Expressions) {
			v := p.eval(x.Expressions[i], sc, depth+1)
			s, ok := stringOf(v)
			if !ok {
				if u, isU := v.(*Unknown); isU {
					return u
				}
				return p.unknown(at, "a template part known only at run time")
			}
			b.WriteString(s)
		}
		if !p.grow(0) || b.Len() > 1<<20 {
			return p.unknown(at, "a string too long")
		}
	}
	if !p.growString(b.Len()) {
		return p.unknown(at, "strings too long in all")
	}
	return &String{origin: at, V: b.String()}
}

// stringOf is a primitive's string form, as a template literal gives it.
func stringOf(v Value) (string, bool) {
	switch s := v.(type) {
	case *String:
		return s.V, true
	case *Number:
		return numberString(s.V), true
	case *Bool:
		return strconv.FormatBool(s.V), true
	case *Null:
		return "null", true
	case *Undefined:
		return "undefined", true
	case *TypeRef:
		return s.Name, true
	}
	return "", false
}

func (p *Program) array(x *ast.ArrayLiteral, sc *scope, depth int, at origin) Value {
	out := &Array{origin: at}
	for _, el := range x.Value {
		if el == nil { // a hole
			out.Items = append(out.Items, &Undefined{origin: at})
			continue
		}
		if sp, ok := el.(*ast.SpreadElement); ok {
			v := p.eval(sp.Expression, sc, depth+1)
			switch a := v.(type) {
			case *Array:
				if !p.grow(len(a.Items)) {
					return p.unknown(at, "an array too large")
				}
				out.Items = append(out.Items, a.Items...)
			case *Unknown:
				out.Items = append(out.Items, here(a, origin{mod: sc.mod, idx: int(sp.Expression.Idx0())}))
			default:
				out.Items = append(out.Items, p.unknown(v.orig(), "a spread of a value that is not an array"))
			}
			continue
		}
		if !p.grow(1) {
			return p.unknown(at, "an array too large")
		}
		out.Items = append(out.Items, here(p.eval(el, sc, depth+1), origin{mod: sc.mod, idx: int(el.Idx0())}))
	}
	return out
}

// typePosition reports whether an object key names a port type: its value
// is then read as a type name when it is a one-argument call with a string
// literal, whatever function is called (SPEC §2.2).
func typePosition(key string) bool { return key == "schema" || key == "type" }

func (p *Program) object(x *ast.ObjectLiteral, sc *scope, depth int, at origin) Value {
	out := newObject(at)
	for _, pr := range x.Value {
		switch q := pr.(type) {
		case *ast.PropertyShort:
			kp := origin{mod: sc.mod, idx: int(q.Name.Idx)}
			if q.Initializer != nil {
				out.set(q.Name.Name.String(), p.unknown(kp, "a default in an object literal"), kp)
				continue
			}
			out.set(q.Name.Name.String(), p.ident(q.Name.Name.String(), sc, depth+1, kp), kp)
		case *ast.PropertyKeyed:
			kp := origin{mod: sc.mod, idx: int(q.Key.Idx0())}
			var key string
			if q.Computed {
				k, ok := stringOf(p.eval(q.Key, sc, depth+1))
				if !ok {
					out.Spreads = append(out.Spreads, p.unknown(kp, "a computed key"))
					continue
				}
				key = k
			} else {
				k, ok := literalKey(q.Key)
				if !ok {
					out.Spreads = append(out.Spreads, p.unknown(kp, "a key that is not a name"))
					continue
				}
				key = k
			}
			if q.Kind != ast.PropertyKindValue {
				out.set(key, p.unknown(kp, "a "+string(q.Kind)+" (code run when read)"), kp)
				continue
			}
			if key == "__proto__" {
				out.set(key, p.unknown(kp, "a prototype assignment"), kp)
				continue
			}
			if typePosition(key) {
				if call, ok := q.Value.(*ast.CallExpression); ok && len(call.ArgumentList) == 1 {
					if s, ok := call.ArgumentList[0].(*ast.StringLiteral); ok {
						out.set(key, &TypeRef{origin: origin{mod: sc.mod, idx: int(call.Idx0())}, Name: s.Value.String()}, kp)
						continue
					}
				}
			}
			if !p.grow(1) {
				return p.unknown(at, "an object too large")
			}
			out.set(key, here(p.eval(q.Value, sc, depth+1), origin{mod: sc.mod, idx: int(q.Value.Idx0())}), kp)
		case *ast.SpreadElement:
			v := p.eval(q.Expression, sc, depth+1)
			switch o := v.(type) {
			case *Object:
				if !p.grow(len(o.Keys)) {
					return p.unknown(at, "an object too large")
				}
				for _, k := range o.Keys {
					out.set(k, o.Vals[k], o.KeyPos[k])
				}
				out.Spreads = append(out.Spreads, o.Spreads...)
			case *Undefined, *Null, *Bool, *Number:
				// spreading these adds nothing
			case *String:
				out.Spreads = append(out.Spreads, p.unknown(v.orig(), "a spread string"))
			case *Unknown:
				out.Spreads = append(out.Spreads, here(o, origin{mod: sc.mod, idx: int(q.Expression.Idx0())}).(*Unknown))
			default:
				out.Spreads = append(out.Spreads, p.unknown(v.orig(), "a spread of a value that is not an object"))
			}
		default:
			out.Spreads = append(out.Spreads, p.unknown(at, "an object member evaluated only at run time"))
		}
	}
	return out
}

// here places an unknown value at the expression that holds it, so a
// finding points at the Tool's field rather than at the helper it called.
func here(v Value, at origin) Value {
	if u, ok := v.(*Unknown); ok && (u.mod != at.mod || u.idx != at.idx) {
		return &Unknown{origin: at, Why: u.Why}
	}
	return v
}

// truthy: 1 true, 0 false, -1 unknown.
func truthy(v Value) int {
	switch x := v.(type) {
	case *Undefined, *Null:
		return 0
	case *Bool:
		if x.V {
			return 1
		}
		return 0
	case *Number:
		if x.V == 0 || math.IsNaN(x.V) {
			return 0
		}
		return 1
	case *String:
		if x.V == "" {
			return 0
		}
		return 1
	case *Unknown:
		return -1
	}
	return 1 // objects, arrays, functions
}

func (p *Program) binary(x *ast.BinaryExpression, sc *scope, depth int, at origin) Value {
	switch x.Operator {
	case token.LOGICAL_AND, token.LOGICAL_OR:
		l := p.eval(x.Left, sc, depth+1)
		t := truthy(l)
		if t < 0 {
			return p.unknown(at, "a condition known only at run time")
		}
		if (t == 1) == (x.Operator == token.LOGICAL_AND) {
			return p.eval(x.Right, sc, depth+1)
		}
		return l
	case token.COALESCE:
		l := p.eval(x.Left, sc, depth+1)
		switch l.(type) {
		case *Undefined, *Null:
			return p.eval(x.Right, sc, depth+1)
		case *Unknown:
			return p.unknown(at, "a value known only at run time")
		}
		return l
	}
	l := p.eval(x.Left, sc, depth+1)
	r := p.eval(x.Right, sc, depth+1)
	if u, ok := l.(*Unknown); ok {
		return u
	}
	if u, ok := r.(*Unknown); ok {
		return u
	}
	switch x.Operator {
	case token.PLUS:
		ln, lok := l.(*Number)
		rn, rok := r.(*Number)
		if lok && rok {
			return &Number{origin: at, V: ln.V + rn.V}
		}
		ls, lok := stringOf(l)
		rs, rok := stringOf(r)
		_, lstr := l.(*String)
		_, rstr := r.(*String)
		if lok && rok && (lstr || rstr) {
			if len(ls)+len(rs) > 1<<20 {
				return p.unknown(at, "a string too long")
			}
			if !p.growString(len(ls) + len(rs)) {
				return p.unknown(at, "strings too long in all")
			}
			return &String{origin: at, V: ls + rs}
		}
	case token.STRICT_EQUAL, token.STRICT_NOT_EQUAL, token.EQUAL, token.NOT_EQUAL:
		eq, ok := primEqual(l, r)
		if ok {
			if x.Operator == token.STRICT_NOT_EQUAL || x.Operator == token.NOT_EQUAL {
				eq = !eq
			}
			return &Bool{origin: at, V: eq}
		}
	case token.LESS, token.GREATER, token.LESS_OR_EQUAL, token.GREATER_OR_EQUAL:
		ln, lok := l.(*Number)
		rn, rok := r.(*Number)
		if lok && rok {
			var v bool
			switch x.Operator {
			case token.LESS:
				v = ln.V < rn.V
			case token.GREATER:
				v = ln.V > rn.V
			case token.LESS_OR_EQUAL:
				v = ln.V <= rn.V
			default:
				v = ln.V >= rn.V
			}
			return &Bool{origin: at, V: v}
		}
	case token.MINUS, token.MULTIPLY, token.SLASH:
		ln, lok := l.(*Number)
		rn, rok := r.(*Number)
		if lok && rok {
			switch x.Operator {
			case token.MINUS:
				return &Number{origin: at, V: ln.V - rn.V}
			case token.MULTIPLY:
				return &Number{origin: at, V: ln.V * rn.V}
			default:
				return &Number{origin: at, V: ln.V / rn.V}
			}
		}
	}
	return p.unknown(at, "an operator on values known only at run time")
}

func primEqual(l, r Value) (bool, bool) {
	switch a := l.(type) {
	case *String:
		b, ok := r.(*String)
		return ok && a.V == b.V, true
	case *Number:
		b, ok := r.(*Number)
		return ok && a.V == b.V, true
	case *Bool:
		b, ok := r.(*Bool)
		return ok && a.V == b.V, true
	case *Undefined:
		_, ok := r.(*Undefined)
		return ok, true
	case *Null:
		_, ok := r.(*Null)
		return ok, true
	}
	return false, false
}

func (p *Program) unary(x *ast.UnaryExpression, sc *scope, depth int, at origin) Value {
	switch x.Operator {
	case token.VOID:
		return &Undefined{origin: at}
	case token.NOT:
		switch truthy(p.eval(x.Operand, sc, depth+1)) {
		case 1:
			return &Bool{origin: at, V: false}
		case 0:
			return &Bool{origin: at, V: true}
		}
	case token.MINUS:
		if n, ok := p.eval(x.Operand, sc, depth+1).(*Number); ok {
			return &Number{origin: at, V: -n.V}
		}
	case token.PLUS:
		if n, ok := p.eval(x.Operand, sc, depth+1).(*Number); ok {
			return n
		}
	}
	return p.unknown(at, "an operator known only at run time")
}

// member reads obj.name.
func (p *Program) member(obj Value, name string, at origin) Value {
	switch o := obj.(type) {
	case *Object:
		if v, ok := o.get(name); ok {
			return v
		}
		if len(o.Spreads) > 0 {
			return p.unknown(at, "a key of an object with unknown spreads")
		}
		return &Undefined{origin: at}
	case *Array:
		if name == "length" {
			return &Number{origin: at, V: float64(len(o.Items))}
		}
		if i, err := strconv.Atoi(name); err == nil && i >= 0 {
			if i < len(o.Items) {
				return o.Items[i]
			}
			return &Undefined{origin: at}
		}
	case *String:
		if name == "length" {
			return &Number{origin: at, V: float64(len([]rune(o.V)))}
		}
	case *ModuleRef:
		if o.Spec == "zod" && (name == "z" || name == "default") {
			return &zodNS{origin: at}
		}
		if o.env == nil {
			return p.unknown(at, "an export of "+o.Spec+", which is not read")
		}
		return p.Export(o.env, name)
	case *Undefined, *Null:
		return p.unknown(at, "a member of undefined")
	case *Unknown:
		return o
	}
	return p.unknown(at, "member "+name+" of a value known only at run time")
}

// call evaluates a call expression.
func (p *Program) call(x *ast.CallExpression, sc *scope, depth int, at origin) Value {
	// Method calls on known values: arr.map(fn), Zod chains.
	if dot, ok := x.Callee.(*ast.DotExpression); ok {
		recv := p.eval(dot.Left, sc, depth+1)
		name := dot.Identifier.Name.String()
		switch r := recv.(type) {
		case *Array:
			if name == "map" && len(x.ArgumentList) >= 1 {
				fn, ok := p.eval(x.ArgumentList[0], sc, depth+1).(*Func)
				if !ok {
					return p.unknown(at, ".map of a function known only at run time")
				}
				out := &Array{origin: at}
				for i, it := range r.Items {
					if !p.grow(1) {
						return p.unknown(at, "an array too large")
					}
					out.Items = append(out.Items, p.apply(fn, []Value{it, &Number{origin: at, V: float64(i)}, r}, depth+1, at))
					if p.Exhausted != "" {
						return p.unknown(at, "evaluation limit")
					}
				}
				return out
			}
			return p.unknown(at, "array method "+name)
		case *zodNS, *Zod:
			args := make([]Value, len(x.ArgumentList))
			for i, a := range x.ArgumentList {
				args[i] = p.eval(a, sc, depth+1)
			}
			return p.zod(recv, name, args, at)
		case *ModuleRef, *Object:
			if callee := p.member(recv, name, at); callee != nil {
				return p.invoke(callee, name, x, sc, depth, at)
			}
		case *Unknown:
			if name == "defineTool" || name == "toolFactory" {
				return p.invoke(&builtin{origin: at, name: name}, name, x, sc, depth, at)
			}
			return r
		}
		return p.unknown(at, "a method call known only at run time")
	}
	calleeName := ""
	switch c := x.Callee.(type) {
	case *ast.Identifier:
		calleeName = c.Name.String()
	case *ast.SequenceExpression:
		if n := len(c.Sequence); n > 0 {
			if d, ok := c.Sequence[n-1].(*ast.DotExpression); ok {
				calleeName = d.Identifier.Name.String()
				// esbuild maps "(0, import_x.f)" to the token before it:
				// the callee's name is where the call is written.
				at.idx = int(d.Identifier.Idx)
			}
		}
	}
	// The markers are known by name: defineTool is the identity function
	// whose argument is a Tool node, toolFactory calls its function.
	if calleeName == "defineTool" || calleeName == "toolFactory" {
		return p.invoke(&builtin{origin: at, name: calleeName}, calleeName, x, sc, depth, at)
	}
	return p.invoke(p.eval(x.Callee, sc, depth+1), calleeName, x, sc, depth, at)
}

func (p *Program) invoke(callee Value, name string, x *ast.CallExpression, sc *scope, depth int, at origin) Value {
	args := make([]Value, 0, len(x.ArgumentList))
	for _, a := range x.ArgumentList {
		if sp, ok := a.(*ast.SpreadElement); ok {
			arr, ok := p.eval(sp.Expression, sc, depth+1).(*Array)
			if !ok {
				return p.unknown(at, "a call with spread arguments")
			}
			args = append(args, arr.Items...)
			continue
		}
		args = append(args, p.eval(a, sc, depth+1))
	}
	switch f := callee.(type) {
	case *builtin:
		switch f.name {
		case "defineTool":
			if len(args) == 0 {
				return p.unknown(at, "defineTool without an argument")
			}
			return &ToolCall{origin: at, Arg: args[0]}
		case "toolFactory":
			if len(args) == 0 {
				return p.unknown(at, "toolFactory without an argument")
			}
			fn, ok := args[0].(*Func)
			if !ok {
				return p.unknown(at, "toolFactory of a value that is not a function")
			}
			return p.apply(fn, nil, depth+1, at)
		case "require":
			if len(args) == 1 {
				if s, ok := args[0].(*String); ok {
					return p.require(s.V, sc.mod, at)
				}
			}
			return p.unknown(at, "a require of a computed name")
		}
	case *Func:
		return p.apply(f, args, depth+1, at)
	case *Unknown:
		return f
	}
	if name != "" {
		return p.unknown(at, "a call to "+name)
	}
	return p.unknown(at, "a call known only at run time")
}

// apply calls a function value. Only bodies of declarations followed by one
// return (or an expression body) are evaluated.
func (p *Program) apply(f *Func, args []Value, depth int, at origin) Value {
	if depth > p.lim.Depth {
		if p.Exhausted == "" {
			p.Exhausted = "depth limit"
		}
		return p.unknown(at, "calls nested too deeply")
	}
	sc := newScope(f.scope, f.scope.mod)
	if f.params != nil {
		if f.params.Rest != nil {
			for _, n := range patternNames(f.params.Rest) {
				sc.vars[n] = &binding{unknown: "a rest parameter", mod: sc.mod, scope: sc}
			}
		}
		for i, prm := range f.params.List {
			var arg Value
			if i < len(args) {
				arg = args[i]
			} else {
				arg = p.unknown(at, "a parameter the caller does not give")
			}
			id, ok := prm.Target.(*ast.Identifier)
			if !ok {
				for _, n := range patternNames(prm.Target) {
					sc.vars[n] = &binding{unknown: "a destructured parameter", mod: sc.mod, scope: sc}
				}
				continue
			}
			if _, isU := arg.(*Undefined); isU && prm.Initializer != nil {
				sc.vars[id.Name.String()] = &binding{init: prm.Initializer, scope: sc, mod: sc.mod}
				continue
			}
			sc.vars[id.Name.String()] = &binding{val: arg, state: 2, mod: sc.mod, scope: sc}
		}
	}
	switch b := f.body.(type) {
	case *ast.ExpressionBody:
		return p.eval(b.Expression, sc, depth+1)
	case *ast.BlockStatement:
		// A body is walked for its assignments once, not once per call
		// (.map calls it per element).
		assigned, ok := p.assigned[b]
		if !ok {
			assigned = map[string]bool{}
			collectAssigned(b, assigned)
			p.assigned[b] = assigned
		}
		bindStatements(sc, sc.mod, b.List, assigned)
		for _, st := range b.List {
			switch s := st.(type) {
			case *ast.VariableStatement, *ast.LexicalDeclaration, *ast.FunctionDeclaration, *ast.EmptyStatement:
				continue
			case *ast.ReturnStatement:
				if s.Argument == nil {
					return &Undefined{origin: at}
				}
				return p.eval(s.Argument, sc, depth+1)
			default:
				return p.unknown(origin{mod: sc.mod, idx: int(st.Idx0())}, "a statement evaluated only at run time")
			}
		}
		return &Undefined{origin: at}
	}
	return p.unknown(at, "a function body evaluated only at run time")
}

// require resolves a sibling module of the corpus; a package import (no
// leading ./ or ../) is never read.
func (p *Program) require(spec string, from *Module, at origin) Value {
	ref := &ModuleRef{origin: at, Spec: spec}
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return ref
	}
	if p.load == nil || from == nil {
		return ref
	}
	base := path.Clean(path.Join(path.Dir(from.Path), spec))
	if base == ".." || strings.HasPrefix(base, "../") || strings.HasPrefix(base, "/") {
		return ref
	}
	for _, cand := range candidates(base) {
		if env, ok := p.modules[cand]; ok {
			ref.env, ref.target = env, env.mod
			return ref
		}
		if len(p.modules) >= p.lim.Modules {
			if p.Exhausted == "" {
				p.Exhausted = "module limit"
			}
			return ref
		}
		src, err := p.load(cand)
		if err != nil {
			continue
		}
		env, err := p.Module(cand, src)
		if err != nil {
			return ref
		}
		ref.env, ref.target = env, env.mod
		return ref
	}
	return ref
}

// candidates are the files an import specifier may name: TypeScript's
// module resolution maps ./x.js to ./x.ts.
func candidates(base string) []string {
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".js":
		return []string{stem + ".ts", stem + ".tsx", base}
	case ".mjs":
		return []string{stem + ".mts", base}
	case ".ts", ".mts", ".tsx":
		return []string{base}
	case "":
		return []string{base + ".ts", base + ".mts", base + ".js", base + ".mjs", base + "/index.ts", base + "/index.js"}
	}
	return []string{base}
}
