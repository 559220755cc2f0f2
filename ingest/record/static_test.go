package record

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// literalsPending are folders whose code literals are converted to the
// registry's constants by the engineer who owns them; each entry must still
// hold a literal (the test says when to drop it).
var literalsPending = map[string]bool{}

// codeLiteral is a string literal in a position that names a finding code.
type codeLiteral struct {
	dir, pos, code string
}

// TestCodeLiteralsRegistered reads every non-test Go file of the module and
// finds the string literals that name finding codes: a Code field of a
// composite literal, a Code* constant, or the argument of a function whose
// parameter is called code. Each must be registered; outside this package a
// registered code is written as its constant, so each code has one spelling.
func TestCodeLiteralsRegistered(t *testing.T) {
	root := filepath.Join("..", "..")
	lits := scanCodeLiterals(t, root)
	if len(lits) == 0 {
		t.Fatal("no code literal found: the scan is broken")
	}
	pending := map[string]bool{}
	for _, l := range lits {
		if _, ok := Lookup(l.code); !ok {
			t.Errorf("%s: %q is not a registered finding code: add it to ingest/record/codes.go", l.pos, l.code)
			continue
		}
		if l.dir == "ingest/record" {
			continue
		}
		if literalsPending[l.dir] {
			pending[l.dir] = true
			continue
		}
		t.Errorf("%s: write %q as its constant from ingest/record", l.pos, l.code)
	}
	for d := range literalsPending {
		if !pending[d] {
			t.Errorf("%s writes no code literal any more: drop it from literalsPending", d)
		}
	}
}

// scanCodeLiterals parses the module's non-test Go files under root.
func scanCodeLiterals(t *testing.T, root string) []codeLiteral {
	t.Helper()
	fset := token.NewFileSet()
	type file struct {
		dir string
		f   *ast.File
	}
	var files []file
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		files = append(files, file{filepath.ToSlash(rel), f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// local: folder → function or method name → indexes of parameters
	// named code; exported: "pkg.Func" → the same for package functions.
	local := map[string]map[string][]int{}
	exported := map[string][]int{}
	for _, fl := range files {
		for _, decl := range fl.f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			var idx []int
			i := 0
			for _, field := range fd.Type.Params.List {
				for _, n := range field.Names {
					if n.Name == "code" {
						idx = append(idx, i)
					}
					i++
				}
				if len(field.Names) == 0 {
					i++
				}
			}
			if len(idx) == 0 {
				continue
			}
			if local[fl.dir] == nil {
				local[fl.dir] = map[string][]int{}
			}
			local[fl.dir][fd.Name.Name] = idx
			if fd.Recv == nil {
				exported[fl.f.Name.Name+"."+fd.Name.Name] = idx
			}
		}
	}
	var out []codeLiteral
	add := func(dir string, e ast.Expr) {
		bl, ok := e.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(bl.Value)
		if err != nil {
			return
		}
		out = append(out, codeLiteral{dir, fset.Position(bl.Pos()).String(), s})
	}
	for _, fl := range files {
		imported := map[string]bool{}
		for _, im := range fl.f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imported[name] = true
		}
		ast.Inspect(fl.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Code" {
					add(fl.dir, n.Value)
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Code") && i < len(n.Values) {
						add(fl.dir, n.Values[i])
					}
				}
			case *ast.CallExpr:
				var idx []int
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					idx = local[fl.dir][fn.Name]
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); ok && imported[x.Name] {
						idx = exported[x.Name+"."+fn.Sel.Name]
					} else {
						idx = local[fl.dir][fn.Sel.Name]
					}
				}
				for _, i := range idx {
					if i < len(n.Args) {
						add(fl.dir, n.Args[i])
					}
				}
			}
			return true
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}
