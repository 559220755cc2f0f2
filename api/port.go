package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// portType is Port: a typed Tool input or output.
func portType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Port", Description: "A typed Tool input or output.", Fields: graphql.Fields{
		"name":        field[*queries.Port](nn(graphql.String), "", func(p *queries.Port) any { return p.Name }),
		"type":        field[*queries.Port](graphql.String, "Absolute type IRI.", func(p *queries.Port) any { return nilIfEmpty(p.TypeIRI) }),
		"jsonType":    field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.JSONType) }),
		"required":    field[*queries.Port](nn(graphql.Boolean), "", func(p *queries.Port) any { return p.Required }),
		"repeated":    field[*queries.Port](nn(graphql.Boolean), "", func(p *queries.Port) any { return p.Repeated }),
		"arg":         field[*queries.Port](graphql.String, "flag:--x, positional:N or stdin.", func(p *queries.Port) any { return nilIfEmpty(p.Arg) }),
		"description": field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.Description) }),
		"render":      field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.Render) }),
	}})
}
