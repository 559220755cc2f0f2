package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// groupType is AlternativeGroup: Tools that substitute for each other for one skill.
func groupType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "AlternativeGroup", Fields: graphql.Fields{
		"skill": field[queries.Group](nn(t.skill), "", func(g queries.Group) any { return g.Skill }),
		"tools": field[queries.Group](list(t.tool), "", func(g queries.Group) any { return g.Tools }),
	}})
}

// alternativesType is Alternatives: derived alternatives (SPEC §5.4).
func alternativesType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Alternatives", Fields: graphql.Fields{
		"groups":           field[*queries.Alternatives](list(t.group), "", func(a *queries.Alternatives) any { return a.Groups }),
		"missingSelection": field[*queries.Alternatives](list(t.tool), "", func(a *queries.Alternatives) any { return a.MissingSelection }),
		"complementary":    field[*queries.Alternatives](list(t.group), "", func(a *queries.Alternatives) any { return a.Complementary }),
	}})
}
