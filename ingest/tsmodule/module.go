package tsmodule

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"
)

// MaxNesting bounds how deeply brackets may nest in a module. Both parsers
// are recursive descent: a refusal up front keeps a hostile module from
// exhausting the stack.
const MaxNesting = 200

// ErrTooDeep is returned for a module nested beyond MaxNesting.
var ErrTooDeep = errors.New("module nests brackets too deeply")

// Module is one compiled module: its JavaScript AST and the map from
// positions in that JavaScript back to lines of the original source.
type Module struct {
	Path    string // slash-separated, relative to the corpus root
	program *ast.Program
	file    *file.File
	smap    *sourcemap.Consumer
}

// Compile strips a module's types and parses it. The module is not run.
func Compile(p string, src []byte) (*Module, error) {
	if d := nesting(src); d > MaxNesting {
		return nil, fmt.Errorf("%w (%d levels, at most %d)", ErrTooDeep, d, MaxNesting)
	}
	loader := api.LoaderTS
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs":
		loader = api.LoaderJS
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader:     loader,
		Format:     api.FormatCommonJS, // imports become require calls goja can parse
		Target:     api.ESNext,
		Sourcemap:  api.SourceMapExternal,
		Sourcefile: p,
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		line := 1
		if e.Location != nil {
			line = e.Location.Line
		}
		return nil, &SyntaxError{Line: line, Msg: e.Text}
	}
	fs := &file.FileSet{}
	prog, err := parser.ParseFile(fs, p, res.Code, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, &SyntaxError{Line: 1, Msg: "after type stripping: " + err.Error()}
	}
	m := &Module{Path: p, program: prog, file: prog.File}
	if sm, err := sourcemap.Parse(p+".map", res.Map); err == nil {
		m.smap = sm
	}
	return m, nil
}

// SyntaxError is a module that does not parse.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Line maps a position in the compiled JavaScript to a 1-based line of the
// original module (1 when it is not known).
func (m *Module) Line(idx file.Idx) int {
	if m == nil || m.file == nil || idx <= 0 {
		return 1
	}
	pos := m.file.Position(int(idx) - m.file.Base())
	if m.smap != nil {
		if _, _, line, _, ok := m.smap.Source(pos.Line, pos.Column-1); ok && line > 0 {
			return line
		}
	}
	if pos.Line > 0 {
		return pos.Line
	}
	return 1
}

// nesting measures the deepest bracket nesting of a source text, skipping
// strings and comments. Regular expressions are not told apart from
// division, so a bracket inside one may count: the bound is generous.
func nesting(src []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
			if depth > deepest {
				deepest = depth
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '`':
			// Template literals may hold ${…}: count the braces inside as
			// nesting too, which only over-estimates.
			for i++; i < len(src) && src[i] != '`'; i++ {
				switch src[i] {
				case '\\':
					i++
				case '{':
					depth++
					if depth > deepest {
						deepest = depth
					}
				case '}':
					if depth > 0 {
						depth--
					}
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				i += 2
				for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
					i++
				}
				i++
			}
		}
	}
	return deepest
}
