package jsonld

import (
	"errors"
	"fmt"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// ReferenceQuads is ToQuads by json-gold's plain per-document path: the
// context is loaded and processed again for each document. It is the
// reference ToQuads is proven equal to (issue #14: json-gold stays the
// reference of any faster path).
func ReferenceQuads(doc any, graph string) ([]quad.Quad, error) {
	return referenceQuads(doc, graph)
}

// SameAsReference says how got and gotErr, a conversion of doc by ToQuads
// or ToQuadsBatch, differ from ReferenceQuads(doc, graph); nil when they
// agree: the same quads in the same order, blank node labels included, or
// both failing with the same json-gold error code. Only the code is
// compared because json-gold's message names whichever offending term its
// map iteration meets first.
func SameAsReference(doc any, graph string, got []quad.Quad, gotErr error) error {
	want, wantErr := ReferenceQuads(doc, graph)
	switch {
	case (wantErr == nil) != (gotErr == nil):
		return fmt.Errorf("reference error %v, amortised error %v", wantErr, gotErr)
	case wantErr != nil:
		if a, b := errorCode(wantErr), errorCode(gotErr); a != b {
			return fmt.Errorf("errors differ: %v / %v", wantErr, gotErr)
		}
		return nil
	case len(want) != len(got):
		return fmt.Errorf("reference gives %d quads, amortised %d", len(want), len(got))
	}
	for i := range want {
		if want[i] != got[i] {
			return fmt.Errorf("quad %d: reference %s, amortised %s", i, want[i].NQuad(), got[i].NQuad())
		}
	}
	return nil
}

// errorCode is json-gold's code of err, or its whole text for an error
// that is not json-gold's.
func errorCode(err error) string {
	var e *ld.JsonLdError
	if errors.As(err, &e) {
		return string(e.Code)
	}
	return err.Error()
}
