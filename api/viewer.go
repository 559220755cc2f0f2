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
