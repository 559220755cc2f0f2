package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// sourceType is Source: one ingested file and its named graph.
func sourceType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Source", Fields: graphql.Fields{
		"iri":      field[*queries.Source](nn(graphql.String), "graph label", func(s *queries.Source) any { return s.IRI }),
		"path":     field[*queries.Source](nn(graphql.String), "", func(s *queries.Source) any { return s.Path }),
		"parser":   field[*queries.Source](nn(graphql.String), "", func(s *queries.Source) any { return s.Parser }),
		"sha256":   field[*queries.Source](graphql.String, "", func(s *queries.Source) any { return s.SHA256 }),
		"instance": field[*queries.Source](graphql.String, "", func(s *queries.Source) any { return instName(s.Instance) }),
	}})
}
