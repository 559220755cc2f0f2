package jsonld

import "github.com/cayleygraph/quad"

// withoutDirect sends every document to json-gold until the returned
// function is called: tests of json-gold's batched path, and benchmarks
// comparing both paths.
func withoutDirect() (restore func()) {
	orig := directPath
	directPath = func(any, string) ([]quad.Quad, bool) { return nil, false }
	return func() { directPath = orig }
}

// WithoutDirect is withoutDirect for the package's external tests.
var WithoutDirect = withoutDirect
