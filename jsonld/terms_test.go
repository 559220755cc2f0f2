package jsonld

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/schemas"
)

// nodeVars are the names the encoder gives its node values.
var nodeVars = map[string]bool{"n": true, "an": true, "ln": true, "pn": true, "sf": true}

// TestEncoderTermsInContext reads the encoder's source and fails for a key
// it writes that is no term of schemas/context.jsonld: json-gold would drop
// such a key silently and the field would never reach the store.
func TestEncoderTermsInContext(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	keys := map[string]string{} // key → position
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		lit := func(e ast.Expr) {
			if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				if s, err := strconv.Unquote(bl.Value); err == nil {
					keys[s] = fset.Position(bl.Pos()).String()
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit: // node{"k": v}
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "node" {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							lit(kv.Key)
						}
					}
				}
			case *ast.CallExpr: // n.set("k", v)
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "set" && len(n.Args) == 2 {
					lit(n.Args[0])
				}
			case *ast.AssignStmt: // n["k"] = v on a node
				for _, l := range n.Lhs {
					if ix, ok := l.(*ast.IndexExpr); ok {
						if id, ok := ix.X.(*ast.Ident); ok && nodeVars[id.Name] {
							lit(ix.Index)
						}
					}
				}
			}
			return true
		})
	}
	if len(keys) < 50 {
		t.Fatalf("only %d keys found: the scan is broken", len(keys))
	}
	for k, pos := range keys {
		if k == "id" || k == "type" || k == "@context" || k == "@graph" {
			continue
		}
		if _, ok := schemas.LookupTerm(k); !ok {
			t.Errorf("%s: the encoder writes %q, which is no term of schemas/context.jsonld", pos, k)
		}
	}
}
