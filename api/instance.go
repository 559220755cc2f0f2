package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// instanceType is Instance: a declared harness instance.
func instanceType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Instance", Fields: graphql.Fields{
		"name":    field[*queries.Instance](nn(graphql.ID), "", func(i *queries.Instance) any { return i.Name }),
		"iri":     field[*queries.Instance](nn(graphql.String), "", func(i *queries.Instance) any { return i.IRI }),
		"title":   field[*queries.Instance](graphql.String, "", func(i *queries.Instance) any { return nilIfEmpty(i.Title) }),
		"version": field[*queries.Instance](graphql.String, "", func(i *queries.Instance) any { return nilIfEmpty(i.Version) }),
		"needs":   field[*queries.Instance](strList(), "", func(i *queries.Instance) any { return strs(i.Needs) }),
	}})
}
