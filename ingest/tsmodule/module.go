package tsmodule

import (
	"container/list"
	"crypto/sha256"
	"fmt"
	"path"
	"strings"
	"sync"
	"sync/atomic"

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

// compileCacheBytes bounds the source bytes of the modules compileCache
// holds: a compiled module keeps ~9 bytes per byte of source (its AST and
// source map; measured on a 175 KB Tool module), so at most ~75 MB. The
// TypeScript of the largest real corpus is ~200 KB.
const compileCacheBytes = 8 << 20

// compileCache holds compiled modules by path and content, for every
// Program of the process. An ingest reads each Tool module with a Program
// of its own (ingest/tool.ParseModule), so a module imported by many
// modules — a chain of 200, each importing the one before — was compiled
// again for each of them: 200 × 64 compiles, 9.4 s. A Module is never
// changed once compiled (goja's file.File locks its own line table), so
// Programs on other goroutines share it; what a Program evaluates stays
// its own. Keyed by content, it cannot go stale.
var compileCache = struct {
	sync.Mutex
	byKey map[[sha256.Size]byte]*list.Element
	order *list.List // of *compiled, most recently used first
	bytes int
}{byKey: map[[sha256.Size]byte]*list.Element{}, order: list.New()}

type compiled struct {
	key  [sha256.Size]byte
	size int
	mod  *Module
	err  error
}

// compileOnce is Compile through compileCache.
func compileOnce(p string, src []byte) (*Module, error) {
	h := sha256.New()
	h.Write([]byte(p))
	h.Write([]byte{0})
	h.Write(src)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	c := &compileCache
	c.Lock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		hit := e.Value.(*compiled)
		c.Unlock()
		return hit.mod, hit.err
	}
	c.Unlock()
	m, err := Compile(p, src)
	c.Lock()
	defer c.Unlock()
	if _, ok := c.byKey[key]; !ok && len(src) <= compileCacheBytes/4 {
		c.byKey[key] = c.order.PushFront(&compiled{key: key, size: len(src), mod: m, err: err})
		c.bytes += len(src)
		for c.bytes > compileCacheBytes {
			old := c.order.Remove(c.order.Back()).(*compiled)
			delete(c.byKey, old.key)
			c.bytes -= old.size
		}
	}
	return m, err
}

// compiles counts the modules esbuild has compiled (for the tests: each
// module of a corpus once).
var compiles atomic.Int64

// Compile strips a module's types and parses it. The module is not run.
func Compile(p string, src []byte) (*Module, error) {
	compiles.Add(1)
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
