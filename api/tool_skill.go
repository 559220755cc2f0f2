package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// toolSkillType is ToolSkill: guidance for a tool.
func toolSkillType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "ToolSkill", Description: "Guidance for a tool; not counted in coverage.", Fields: graphql.Fields{
		"key":      field[*queries.ToolSkill](nn(graphql.ID), "", func(t *queries.ToolSkill) any { return t.Key }),
		"iri":      field[*queries.ToolSkill](nn(graphql.String), "", func(t *queries.ToolSkill) any { return t.IRI }),
		"title":    field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Title) }),
		"summary":  field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Summary) }),
		"phases":   field[*queries.ToolSkill](strList(), "", func(t *queries.ToolSkill) any { return strs(t.Phases) }),
		"required": field[*queries.ToolSkill](nn(graphql.Boolean), "", func(t *queries.ToolSkill) any { return t.Required }),
		"source":   field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return srcPath(t.Source) }),
	}})
}
