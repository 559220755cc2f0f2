package api

import (
	"context"

	"github.com/graphql-go/graphql"
)

// Viewer is what the caller of a request may do.
type Viewer struct {
	CanRecord bool `json:"canRecord"` // a valid bearer token was presented
	ReadOnly  bool `json:"readOnly"`  // the server has mutations disabled
}

// Key is the viewer as it takes part in cache keys ("1" or "0" for
// CanRecord, then for ReadOnly): it decides part of the answer, so the
// response cache and the shared root fields both key on it.
func (v Viewer) Key() string {
	return boolDigit(v.CanRecord) + boolDigit(v.ReadOnly)
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

type viewerKey struct{}

// WithViewer returns a context that answers the viewer field.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

var viewerType = graphql.NewObject(graphql.ObjectConfig{Name: "Viewer", Fields: graphql.Fields{
	"canRecord": {Type: graphql.NewNonNull(graphql.Boolean)},
	"readOnly":  {Type: graphql.NewNonNull(graphql.Boolean)},
}})

var countType = graphql.NewObject(graphql.ObjectConfig{Name: "Count", Fields: graphql.Fields{
	"name":  {Type: graphql.NewNonNull(graphql.String)},
	"count": {Type: graphql.NewNonNull(graphql.Int)},
}})
