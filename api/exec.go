package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/location"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
	"github.com/graphql-go/graphql/language/visitor"

	"github.com/skillgraph/skillgraph/queries"
)

// Request is one GraphQL request.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables,omitempty"`
	OperationName string         `json:"operationName,omitempty"`
	// Extensions are accepted and ignored; one that is not an object is a
	// bad request.
	Extensions map[string]any `json:"extensions,omitempty"`
}

// Response is the answer to one request.
type Response struct {
	Data   any                        `json:"data"`
	Errors []gqlerrors.FormattedError `json:"errors,omitempty"`
	// RequestError is true when the operation did not run: the document
	// did not parse, broke a limit or failed validation. Such a response
	// has no data entry (GraphQL over HTTP, "request error").
	RequestError bool `json:"-"`
	// encoded is the whole response when ExecuteShared wrote it.
	encoded []byte
	// order and op write Data's keys in selection order (order.go);
	// without them (a Response built by hand) the keys are sorted.
	order *orderer
	op    *ast.OperationDefinition
}

// MarshalJSON writes {"errors"} for a request error, else {"data", "errors"}.
func (r *Response) MarshalJSON() ([]byte, error) {
	if r.RequestError {
		return json.Marshal(struct {
			Errors []gqlerrors.FormattedError `json:"errors"`
		}{r.Errors})
	}
	data, err := r.EncodeData()
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Data   json.RawMessage            `json:"data"`
		Errors []gqlerrors.FormattedError `json:"errors,omitempty"`
	}{data, r.Errors})
}

// EncodeData is the response's data as JSON, its keys in the order the
// operation selected them (spec §7.2.2).
func (r *Response) EncodeData() ([]byte, error) {
	if raw, ok := r.Data.(json.RawMessage); ok {
		return raw, nil
	}
	if r.order == nil || r.op == nil {
		return json.Marshal(r.Data)
	}
	var buf bytes.Buffer
	if err := r.order.encodeData(&buf, r.Data, r.op); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Encode is the response as JSON, as MarshalJSON writes it; a response
// ExecuteShared wrote is returned as it is (the caller may append to it,
// not change it).
func (r *Response) Encode() ([]byte, error) {
	if r.encoded != nil {
		return r.encoded, nil
	}
	return json.Marshal(r)
}

// ErrorResponse is the request error response for err (a document that
// does not parse, a limit broken).
func ErrorResponse(err error) *Response { return requestError(err) }

func requestError(err error) *Response {
	return &Response{Errors: boundMessages(gqlerrors.FormatErrors(err)), RequestError: true}
}

// Document is a parsed request document.
type Document struct {
	ast *ast.Document
	src string
	// checked holds the limits under which the document passed the
	// shape check and validation (neither depends on the variables), so
	// a document kept by a DocumentCache is validated once.
	checked atomic.Pointer[Limits]
}

// Parse parses a GraphQL document after a linear scan that refuses
// bracket nesting the limits could never allow (graphql-go's parser
// recurses once per level). Nodes keep their offsets but not the source:
// graphql-go computes an error's line by matching every newline of the
// source with a regular expression, once per error, which made a flood of
// errors in a large body cost minutes; locations are computed here once
// instead (see fixLocations).
func Parse(query string, lim Limits) (*Document, error) {
	if err := checkNesting(query, lim.maxNesting()); err != nil {
		return nil, err
	}
	doc, err := parser.Parse(parser.ParseParams{
		Source:  source.NewSource(&source.Source{Body: []byte(query), Name: "request"}),
		Options: parser.ParseOptions{NoSource: true},
	})
	if err != nil {
		return nil, err
	}
	return &Document{ast: doc, src: query}, nil
}

// IsMutation reports whether the operation that would run is a mutation.
func (d *Document) IsMutation(operationName string) bool {
	for _, def := range d.ast.Definitions {
		op, ok := def.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		if operationName == "" || (op.Name != nil && op.Name.Value == operationName) {
			if op.Operation == ast.OperationTypeMutation {
				return true
			}
		}
	}
	return false
}

// Execute parses, checks the limits, validates and runs a request against
// a snapshot. Problems are GraphQL errors in the result, never panics.
func (s *Schema) Execute(ctx context.Context, snap *queries.Snapshot, req Request, lim Limits) *Response {
	doc, err := Parse(req.Query, lim)
	if err != nil {
		return requestError(err)
	}
	return s.ExecuteDocument(ctx, snap, doc, req, lim)
}

// ExecuteDocument checks the limits, validates and runs a parsed
// document. Every stage stops at ctx's deadline: validation through a
// rule that watches ctx, execution because every resolver checks ctx
// before it works (graphql-go runs resolvers on in a goroutine that would
// otherwise go on after Execute returned).
func (s *Schema) ExecuteDocument(ctx context.Context, snap *queries.Snapshot, doc *Document, req Request, lim Limits) *Response {
	if res := s.check(ctx, doc, req, lim); res != nil {
		return res
	}
	return s.run(ctx, snap, doc, req, lim)
}

// check applies the variable, shape and cost limits and validates: a
// request error, or nil when the document may run.
func (s *Schema) check(ctx context.Context, doc *Document, req Request, lim Limits) *Response {
	if err := checkVariables(req.Variables, lim); err != nil {
		return requestError(err)
	}
	if c := doc.checked.Load(); c != nil && *c == lim {
		// valid; the cost depends on the variables
		if err := checkLimits(&s.gql, s.intro, doc.ast, req.Variables, lim); err != nil {
			return requestError(err)
		}
		return nil
	}
	sh := shape{schema: &s.gql, lim: lim}
	if err := sh.document(doc.ast); err != nil {
		return requestError(err)
	}
	if err := checkLimits(&s.gql, s.intro, doc.ast, req.Variables, lim); err != nil {
		return requestError(err)
	}
	if errs := validate(ctx, &s.gql, doc.ast); len(errs) > 0 {
		return &Response{Errors: boundMessages(doc.fixLocations(capErrors(errs, lim.MaxErrors))), RequestError: true}
	}
	doc.checked.Store(&lim)
	return nil
}

// run executes a checked document.
func (s *Schema) run(ctx context.Context, snap *queries.Snapshot, doc *Document, req Request, lim Limits) *Response {
	res := graphql.Execute(graphql.ExecuteParams{
		Schema: s.gql, AST: doc.ast, OperationName: req.OperationName, Args: req.Variables,
		Context: WithSnapshot(ctx, snap),
	})
	out := &Response{Data: res.Data, Errors: boundMessages(doc.fixLocations(capErrors(res.Errors, lim.MaxErrors)))}
	if op := operation(doc.ast, req.OperationName); op != nil && op.SelectionSet != nil {
		out.order, out.op = newOrderer(&s.gql, doc.ast, op, req.Variables), op
	}
	if res.Data == nil && len(res.Errors) > 0 && isVariableError(res.Errors) {
		// Variables that do not coerce are a request error too: the
		// operation never started.
		out.RequestError = true
	}
	return out
}

// isVariableError reports graphql-go's variable coercion failures, which
// it returns from Execute before running anything.
func isVariableError(errs []gqlerrors.FormattedError) bool {
	for _, e := range errs {
		if len(e.Message) >= 9 && e.Message[:9] == "Variable " {
			return true
		}
	}
	return false
}

var errValidationDeadline = errors.New("request deadline exceeded while validating the query")

// deadlinePanic carries the deadline out of graphql-go's visitor, which
// has no way to stop a walk from a rule.
type deadlinePanic struct{}

// validate runs graphql-go's rules with one more that stops the walk
// once ctx is done.
func validate(ctx context.Context, schema *graphql.Schema, doc *ast.Document) (errs []gqlerrors.FormattedError) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(deadlinePanic); !ok {
				panic(r)
			}
			errs = gqlerrors.FormatErrors(errValidationDeadline)
		}
	}()
	n := 0
	watch := func(*graphql.ValidationContext) *graphql.ValidationRuleInstance {
		return &graphql.ValidationRuleInstance{VisitorOpts: &visitor.VisitorOptions{
			Enter: func(visitor.VisitFuncParams) (string, any) {
				n++
				if n%64 == 0 && ctx.Err() != nil {
					panic(deadlinePanic{})
				}
				return visitor.ActionNoChange, nil
			},
		}}
	}
	rules := append([]graphql.ValidationRuleFn{watch}, graphql.SpecifiedRules...)
	if ctx.Err() != nil {
		return gqlerrors.FormatErrors(errValidationDeadline)
	}
	vr := graphql.ValidateDocument(schema, doc, rules)
	return vr.Errors
}

// capErrors keeps the first max errors and says how many were left out.
func capErrors(errs []gqlerrors.FormattedError, max int) []gqlerrors.FormattedError {
	if max <= 0 || len(errs) <= max {
		return errs
	}
	left := len(errs) - max
	return append(errs[:max:max], gqlerrors.FormattedError{Message: fmt.Sprintf("%d more errors not shown", left)})
}

// fixLocations turns the locations graphql-go computed without the
// source back into lines and columns. Without a source graphql-go's
// GetLocation reports line 1 and column offset+1, so the column holds the
// byte offset; one pass over the source maps offsets to lines.
func (d *Document) fixLocations(errs []gqlerrors.FormattedError) []gqlerrors.FormattedError {
	var starts []int // offset of each line's first byte
	for i := range errs {
		for j, l := range errs[i].Locations {
			if l.Line != 1 || l.Column < 1 {
				continue
			}
			if starts == nil {
				starts = lineStarts(d.src)
			}
			off := l.Column - 1
			line := sort.Search(len(starts), func(k int) bool { return starts[k] > off }) // first line after off
			errs[i].Locations[j] = location.SourceLocation{Line: line, Column: off - starts[line-1] + 1}
		}
	}
	return errs
}

// lineStarts lists where each line begins; \r\n, \n and \r end a line,
// as in the GraphQL spec.
func lineStarts(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}
