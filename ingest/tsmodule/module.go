package tsmodule

import (
	"fmt"
	"path"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"
)

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
	// Bound the parse's depth before either parser recurses over it.
	if err := scanShape(src); err != nil {
		return nil, err
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
