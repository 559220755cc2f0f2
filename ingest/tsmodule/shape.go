package tsmodule

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNesting bounds how deeply brackets may nest in a module.
const MaxNesting = 200

// MaxDepth bounds how deep a module's syntax tree may be, as estimated from
// its tokens before anything parses it (see scanShape).
//
// esbuild's and goja's parsers are recursive descent, and esbuild's
// visitor, renamer and printer and the evaluator here recurse over the
// tree: a chain of 300 000 unbracketed `!`, `.a`, `()`, `=>`, `**`, `?:`
// or `new` nests 300 000 levels with no bracket at all, and overflowed the
// stack (a fatal error, not a panic: the process died). Some chains also
// cost esbuild more than linear time (a comma chain is quadratic, nested
// arrow functions cubic in their nesting). The evaluator gives up past
// 200 levels anyway (DefaultLimits().Depth), so a tree deeper than this
// holds nothing it could read.
const MaxDepth = 256

// arrowWeight is what one `=>` or `function` adds to the estimate: each
// opens a scope, and esbuild's renamer is cubic in how deeply scopes nest
// (1 000 nested arrows took it 6.4 s). 256/8 = 32 nested functions.
const arrowWeight = 8

// ErrTooDeep is a module nested beyond MaxNesting or MaxDepth.
var ErrTooDeep = errors.New("module is nested too deeply to read")

// DepthError says where a module went past a bound of its shape.
type DepthError struct {
	Line  int    // 1-based line of the token that crossed the bound
	What  string // "brackets", "expressions", or why a line cannot be read safely
	Depth int    // the depth reached there
	Max   int
}

func (e *DepthError) Error() string { return fmt.Sprintf("%v: %s", ErrTooDeep, e.Detail()) }

// Detail is the error without its ErrTooDeep prefix.
func (e *DepthError) Detail() string {
	if e.What == "brackets" || e.What == "expressions" {
		return fmt.Sprintf("%s reach %d levels at line %d, at most %d", e.What, e.Depth, e.Line, e.Max)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.What)
}

// Unwrap makes errors.Is(err, ErrTooDeep) hold.
func (e *DepthError) Unwrap() error { return ErrTooDeep }

// Level kinds: what a bracket opens decides whether a comma in it separates
// list entries (which do not nest) or chains a sequence (which does).
const (
	kindBlock  = iota // { of a block or class body, and the module's top level: statements
	kindObject        // { of an object literal or type literal: a list
	kindArray         // [ of an array literal: a list
	kindIndex         // [ after a value: a member, whose commas are a sequence
	kindArgs          // ( after a value: call arguments or parameters, a list
	kindGroup         // ( of a grouping: a sequence
	kindHead          // ( of if, while, for, with, switch, catch: the statement goes on after it
	kindSubst         // ${ of a template literal
)

type shapeLevel struct {
	kind    int
	closer  byte
	unsure  bool // a { whose kind the scan cannot be sure of (after `>` or a contextual word)
	outer   int  // the depth estimate of the enclosing levels
	run     int  // tokens that nest, since the last point where the parser unwound
	elses   int  // an else-if chain: each else nests the next statement
	angle   int  // '<' not yet closed by '>' (generic type arguments)
	quest   int  // ternary '?' not yet matched by ':'
	ternary bool // the last ':' matched a '?'
	decl    bool // in a var, let or const declaration: commas separate its declarators
}

// scanner is one pass over a module's bytes that bounds the depth its
// parse could reach, without parsing it. It reads tokens only as far as
// needed: strings, template literals, comments and regular expressions are
// skipped; every punctuator and keyword that can nest a parse counts at
// its bracket level until a point where any parser has unwound (a `;`, a
// comma between list entries or declarators, a statement boundary).
//
// The estimate must never be lower than the parse's depth, or a hostile
// module gets past it, so every doubt is settled towards counting more.
// Whether a `/` starts a regular expression is decided from the token
// before it, as the grammar does: after an operator or a reserved word it
// does, after a name, literal, `]`, `++` or a call's `)` it divides, after
// the `)` of an if/while/for/with head or the `}` of a block it does.
// Where the scan cannot know (after yield, await or of, which may be names,
// or a `}` it could not classify), the rest of the line is
// counted as code, every punctuator a level, skipping nothing; a line
// where the two readings could part for more than the line (a backtick,
// `/*`, brackets that do not balance on it) is refused.
type scanner struct {
	src   []byte
	i     int
	line  int
	stack []shapeLevel
	err   *DepthError
	// deepest is the largest estimate seen (for the tests' margins).
	deepest int

	prev       int    // class of the previous token
	prevWord   string // the previous token when it is a word or punctuator
	newline    bool   // a line break since the previous token
	pendingE   bool   // a reset happened: the else chain holds only if `else` comes next
	lastKind   int    // the kind of the level the last closer closed
	lastUnsure bool   // … and whether that kind was a guess
}

// Token classes for prev.
const (
	tStart   = iota
	tPunct   // an operator or opening bracket: an expression may start
	tValue   // a name, literal or `]`: what follows is an operator
	tKeyword // a reserved word: an expression may start (return, typeof, if, …)
	tAmbig   // `)`, `}`, `++`, `--` or a contextual word: see slash
)

// reserved are the reserved words that nest what follows them or start a
// construct: a `/` after them starts a regular expression.
var reserved = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "extends": true,
	"if": true, "for": true, "while": true, "with": true, "switch": true, "try": true, "catch": true,
	"finally": true, "export": true, "default": true, "import": true, "class": true, "function": true,
	"enum": true, "const": true, "var": true,
}

// contextual are words that may be names or keywords (TypeScript's among
// them): after them a `/` is either, and they may nest what follows.
var contextual = map[string]bool{
	"yield": true, "await": true, "of": true, "let": true, "async": true, "as": true, "satisfies": true,
	"static": true, "get": true, "set": true, "keyof": true, "infer": true, "is": true, "asserts": true,
	"unique": true, "readonly": true, "declare": true, "abstract": true, "type": true, "namespace": true,
	"module": true, "interface": true, "implements": true, "accessor": true, "out": true, "override": true,
}

// continuing words continue an expression on the next line or after a
// `}`: they never start a statement.
var continuing = map[string]bool{"in": true, "instanceof": true, "of": true, "as": true, "satisfies": true, "extends": true, "implements": true, "is": true, "keyof": true, "infer": true}

// scanShape estimates how deep a module's parse would nest; nil when it
// is within MaxNesting brackets and MaxDepth levels.
func scanShape(src []byte) *DepthError {
	_, err := measureShape(src)
	return err
}

// measureShape is scanShape that also returns the deepest estimate.
func measureShape(src []byte) (int, *DepthError) {
	s := &scanner{src: src, line: 1}
	s.stack = append(s.stack, shapeLevel{kind: kindBlock})
	s.scan()
	return s.deepest, s.err
}

func (s *scanner) top() *shapeLevel { return &s.stack[len(s.stack)-1] }

func (s *scanner) depth() int {
	t := s.top()
	return t.outer + 1 + t.run + t.elses
}

func (s *scanner) check() {
	d := s.depth()
	if d > s.deepest {
		s.deepest = d
	}
	if d > MaxDepth && s.err == nil {
		s.err = &DepthError{Line: s.line, What: "expressions", Depth: d, Max: MaxDepth}
	}
}

func (s *scanner) refuse(what string) {
	if s.err == nil {
		s.err = &DepthError{Line: s.line, What: what, Depth: s.depth(), Max: MaxDepth}
	}
}

// add counts n nesting tokens at the current level.
func (s *scanner) add(n int) {
	s.settleElse(false)
	s.top().run += n
	s.check()
}

// reset marks a point where the parser has unwound the level's
// expression: a `;`, a list comma, a statement boundary.
func (s *scanner) reset() {
	t := s.top()
	t.run, t.quest, t.angle, t.decl, t.ternary = 0, 0, 0, false, false
	s.pendingE = true
}

// settleElse ends an else chain unless the token being read is `else`.
func (s *scanner) settleElse(isElse bool) {
	if s.pendingE {
		s.pendingE = false
		if !isElse {
			s.top().elses = 0
		}
	}
}

func (s *scanner) push(kind int, closer byte, unsure bool) {
	outer := s.depth()
	s.stack = append(s.stack, shapeLevel{kind: kind, closer: closer, outer: outer, unsure: unsure})
	if n := len(s.stack) - 1; n > MaxNesting && s.err == nil {
		s.err = &DepthError{Line: s.line, What: "brackets", Depth: n, Max: MaxNesting}
	}
	s.check()
}

// pop closes the innermost level the closer matches and returns its kind
// (-1: none; the parser stops at such a closer, so what follows does not
// matter).
func (s *scanner) pop(c byte) int {
	for j := len(s.stack) - 1; j >= 1; j-- {
		if s.stack[j].closer != c {
			continue
		}
		l := s.stack[j]
		s.stack = s.stack[:j]
		s.lastKind, s.lastUnsure = l.kind, l.unsure
		return l.kind
	}
	s.lastKind, s.lastUnsure = -1, true
	return -1
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// lineEnd reports the length of a JavaScript line terminator at i (\n,
// \r\n, \r, U+2028, U+2029), 0 if there is none.
func (s *scanner) lineEnd(i int) int {
	switch c := s.src[i]; {
	case c == '\n':
		return 1
	case c == '\r':
		if i+1 < len(s.src) && s.src[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0xE2 && i+2 < len(s.src) && s.src[i+1] == 0x80 && (s.src[i+2] == 0xA8 || s.src[i+2] == 0xA9):
		return 3
	}
	return 0
}

// punct3 and punct2 are the multi-character punctuators that count as one
// token (one level at most).
var punct3 = []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??="}
var punct2 = []string{"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "%=", "&=", "|=", "^=", "**", "<<", ">>"}

func (s *scanner) scan() {
	lineStart := true // only blanks and comments so far on this line
	for s.i < len(s.src) && s.err == nil {
		c := s.src[s.i]
		if n := s.lineEnd(s.i); n > 0 {
			s.line++
			s.newline = true
			s.i += n
			lineStart = true
			continue
		}
		if c == ' ' || c == '\t' || c == '\f' || c == '\v' {
			s.i++
			continue
		}
		atStart := lineStart
		lineStart = false
		switch {
		case s.at("//"):
			s.skipLine()
		case s.at("<!--") || atStart && s.at("-->"):
			// Legacy HTML comments: esbuild reads them as line comments,
			// another reader perhaps as code; either way the line counts.
			s.countLine()
		case s.at("/*"):
			s.i += 2
			for s.i < len(s.src) && !s.at("*/") {
				if n := s.lineEnd(s.i); n > 0 {
					s.line++
					s.newline = true
					s.i += n
					continue
				}
				s.i++
			}
			s.i += 2
			lineStart = atStart
		case c == '/':
			s.slash()
		case c == '"' || c == '\'':
			s.boundary(false)
			s.add(0)
			s.str(c)
			s.token(tValue, "")
		case c == '`':
			s.add(1) // a template after a value is a tagged one: no boundary
			s.i++
			s.template()
		case c >= '0' && c <= '9' || c == '.' && s.i+1 < len(s.src) && s.src[s.i+1] >= '0' && s.src[s.i+1] <= '9':
			s.boundary(false)
			s.add(0)
			for s.i < len(s.src) && (isIdentPart(s.src[s.i]) || s.src[s.i] == '.') {
				s.i++
			}
			s.token(tValue, "")
		case isIdentStart(c) || c == '\\' || c == '#' || c == '@':
			start := s.i
			s.i++
			for s.i < len(s.src) && (isIdentPart(s.src[s.i]) || s.src[s.i] == '\\') {
				s.i++
			}
			s.word(string(s.src[start:s.i]), c)
		case c == '(' || c == '[' || c == '{':
			s.open(c)
		case c == ')' || c == ']' || c == '}':
			s.i++
			if c == '}' && s.top().kind == kindSubst {
				s.pop('}')
				s.template() // the template literal goes on
				continue
			}
			kind := s.pop(c)
			switch {
			case c == ']':
				s.token(tValue, "")
			case kind == kindHead:
				s.token(tAmbig, "head)")
			default:
				s.token(tAmbig, string(c))
			}
		case c == ';':
			s.i++
			s.reset()
			s.token(tPunct, ";")
		case c == ',':
			s.i++
			t := s.top()
			if (t.decl || t.kind == kindObject || t.kind == kindArray || t.kind == kindArgs) && t.angle == 0 {
				s.reset()
			} else {
				s.add(1)
			}
			s.token(tPunct, ",")
		default:
			s.operator()
		}
	}
}

func (s *scanner) at(p string) bool {
	return len(s.src)-s.i >= len(p) && string(s.src[s.i:s.i+len(p)]) == p
}

func (s *scanner) skipLine() {
	for s.i < len(s.src) && s.lineEnd(s.i) == 0 {
		s.i++
	}
}

// countLine reads the rest of the line as code whatever it holds: every
// punctuator and reserved or contextual word counts a level, nothing is
// skipped. Both readings meet again at the line's end — strings end there
// — unless the line holds a backtick or `/*` (a literal or comment that may
// run past it in one reading) or a bracket (open or closed in one reading,
// part of a regular expression in the other): then the module is refused.
func (s *scanner) countLine() {
	for s.i < len(s.src) && s.lineEnd(s.i) == 0 && s.err == nil {
		c := s.src[s.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			s.i++
		case c == '`' || s.at("/*") || strings.IndexByte("()[]{}", c) >= 0:
			s.refuse("a `/` or `<!--` that may be read two ways, before a bracket, backtick or comment on its line")
		case isIdentPart(c) || c == '\\' || c == '#' || c == '@':
			start := s.i
			for s.i < len(s.src) && (isIdentPart(s.src[s.i]) || s.src[s.i] == '\\' || s.src[s.i] == '#' || s.src[s.i] == '@') {
				s.i++
			}
			if w := string(s.src[start:s.i]); reserved[w] || contextual[w] {
				s.top().run++
			}
		default:
			s.i++
			s.top().run++
		}
		s.check()
	}
	// The next line goes on from an operator: no statement boundary.
	s.token(tPunct, "")
}

// str skips a string literal from its quote; it ends at its quote or, not
// closed, at the line's end (where the parser stops too).
func (s *scanner) str(q byte) {
	for s.i++; s.i < len(s.src); s.i++ {
		c := s.src[s.i]
		if c == q {
			s.i++
			return
		}
		if c == '\\' && s.i+1 < len(s.src) {
			if n := s.lineEnd(s.i + 1); n > 0 {
				s.line++
				s.i += n // a line continuation
				continue
			}
			s.i++
			continue
		}
		if s.lineEnd(s.i) > 0 {
			return
		}
	}
}

func (s *scanner) token(class int, w string) {
	s.prev, s.prevWord, s.newline = class, w, false
}

// boundary resets the level where a statement ends before a token that
// cannot continue an expression: a name, literal or non-continuing word
// after a line break that follows a value (or a call's `)`), or after a
// `}`. There the parser has unwound the statement, or it stops with an
// error.
func (s *scanner) boundary(continues bool) {
	if continues {
		return
	}
	switch {
	case s.prev == tValue && s.newline,
		s.prev == tAmbig && s.prevWord == ")" && s.newline,
		s.prev == tAmbig && s.prevWord == "}":
		s.reset()
	}
}

func (s *scanner) word(w string, first byte) {
	if s.prev == tPunct && (s.prevWord == "." || s.prevWord == "?.") {
		s.add(0) // a member name
		s.token(tValue, w)
		return
	}
	s.boundary(continuing[w])
	if w == "else" {
		s.settleElse(true)
		s.top().elses++
		s.check()
	}
	if w == "var" || w == "const" || w == "let" && s.nameNext() {
		// A declaration's commas separate declarators, each parsed on its
		// own (`let` only before a name: `let, a` is a sequence).
		s.top().decl = true
	}
	switch {
	case w == "function" || w == "class":
		s.add(arrowWeight)
	case reserved[w] || contextual[w] || first == '@':
		s.add(1)
	default:
		s.add(0)
	}
	switch {
	case reserved[w]:
		s.token(tKeyword, w)
	case contextual[w]:
		s.token(tAmbig, w)
	default:
		s.token(tValue, w)
	}
}

// nameNext reports whether a name, `[` or `{` follows on the same line.
func (s *scanner) nameNext() bool {
	j := s.i
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	return j < len(s.src) && (isIdentStart(s.src[j]) || s.src[j] == '[' || s.src[j] == '{')
}

func (s *scanner) open(c byte) {
	kind, closer, unsure := kindGroup, byte(')'), false
	prev, pw := s.prev, s.prevWord
	switch c {
	case '(':
		switch {
		case prev == tValue, prev == tAmbig && (pw == ")" || pw == "async"):
			kind = kindArgs
		case prev == tKeyword && (pw == "if" || pw == "while" || pw == "for" || pw == "with" || pw == "switch" || pw == "catch"):
			kind = kindHead
		}
	case '[':
		kind, closer = kindArray, ']'
		if prev == tValue || prev == tAmbig {
			kind = kindIndex
		}
	case '{':
		kind, closer = kindObject, '}'
		t := s.top()
		switch {
		case prev == tStart, prev == tValue:
			kind = kindBlock // a block, a class, interface or enum body
		case prev == tAmbig:
			kind = kindBlock // after `)` or `}`: a body or a block
			unsure = pw != ")" && pw != "head)" && pw != "}"
		case prev == tPunct && (pw == ";" || pw == "=>" || pw == "{" || pw == ""):
			kind = kindBlock
		case prev == tPunct && pw == ":" && t.kind == kindBlock && !t.ternary:
			kind = kindBlock // a labelled block or a case's block
		case prev == tPunct && pw == ">":
			kind, unsure = kindBlock, true // class A<T> {, or a > {…}
		case prev == tKeyword:
			if pw == "do" || pw == "else" || pw == "try" || pw == "finally" || pw == "catch" || pw == "class" || pw == "return" && s.newline {
				kind = kindBlock
			}
		}
	}
	s.add(1)
	s.i++
	s.push(kind, closer, unsure)
	s.token(tPunct, string(c))
}

// template skips a template literal from just after its backtick (or the
// `}` of a substitution) to its end or its next `${`.
func (s *scanner) template() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '\\':
			s.i += 2
			continue
		case '\n':
			s.line++
		case '`':
			s.i++
			s.token(tValue, "`")
			return
		case '$':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '{' {
				s.i += 2
				s.push(kindSubst, '}', false)
				s.token(tPunct, "${")
				return
			}
		}
		s.i++
	}
}

// slash reads a `/` that opens no comment: a regular expression or a
// division, decided from the token before it (see scanner).
func (s *scanner) slash() {
	regex, sure := false, true
	switch s.prev {
	case tStart, tPunct, tKeyword:
		regex = true
	case tValue:
	case tAmbig:
		switch s.prevWord {
		case "head)":
			regex = true
		case ")", "++", "--":
		case "}":
			regex = s.lastKind == kindBlock
			sure = !s.lastUnsure
		case "yield", "await", "of":
			// A keyword before an expression, or a name before a division.
			sure = false
		default:
			// The other contextual words are followed by a type, a name or
			// a declaration as keywords: a `/` after one divides a name.
		}
	}
	switch {
	case !sure:
		s.add(1)
		s.countLine()
	case regex:
		s.regex()
	default:
		s.operator()
	}
}

// regex skips a regular expression literal where nothing else may stand.
func (s *scanner) regex() {
	s.add(0)
	class := false
	for s.i++; s.i < len(s.src) && s.lineEnd(s.i) == 0; s.i++ {
		switch s.src[s.i] {
		case '\\':
			if s.i+1 < len(s.src) && s.lineEnd(s.i+1) == 0 {
				s.i++
			}
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				s.i++
				for s.i < len(s.src) && isIdentPart(s.src[s.i]) {
					s.i++
				}
				s.token(tValue, "")
				return
			}
		}
	}
	s.token(tValue, "") // not closed on its line: the parser stops here
}

func (s *scanner) operator() {
	p := string(s.src[s.i : s.i+1])
	for _, set := range [][]string{punct3, punct2} {
		for _, q := range set {
			if s.at(q) {
				p = q
				break
			}
		}
		if len(p) > 1 {
			break
		}
	}
	if p == "?." && s.i+2 < len(s.src) && s.src[s.i+2] >= '0' && s.src[s.i+2] <= '9' {
		p = "?" // a ? .5 : b
	}
	s.i += len(p)
	t := s.top()
	switch p {
	case "=>":
		s.add(arrowWeight)
	case "?":
		t.quest++
		s.add(1)
	case ":":
		t.ternary = t.quest > 0
		if t.ternary {
			t.quest--
		}
		s.add(1)
	case "<":
		t.angle++
		s.add(1)
	case ">", ">>", ">>>":
		t.angle -= len(p)
		if t.angle < 0 {
			t.angle = 0
		}
		s.add(1)
	default:
		s.add(1)
	}
	class := tPunct
	if p == "++" || p == "--" {
		class = tAmbig
	}
	s.token(class, p)
}
