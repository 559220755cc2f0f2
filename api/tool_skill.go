package api

import (
	"encoding/json"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// toolSkillType is ToolSkill: guidance for a tool, as the tool-skill
// engine's registry holds it (issue 23.10).
func toolSkillType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "ToolSkill", Description: "Guidance for a tool; not counted in coverage.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"key":      field[*queries.ToolSkill](nn(graphql.ID), "", func(t *queries.ToolSkill) any { return t.Key }),
				"iri":      field[*queries.ToolSkill](nn(graphql.String), "", func(t *queries.ToolSkill) any { return t.IRI }),
				"title":    field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Title) }),
				"summary":  field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Summary) }),
				"phases":   field[*queries.ToolSkill](strList(), "", func(t *queries.ToolSkill) any { return strs(t.Phases) }),
				"required": field[*queries.ToolSkill](nn(graphql.Boolean), "", func(t *queries.ToolSkill) any { return t.Required }),
				"source":   field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return srcPath(t.Source) }),
				"trigger": field[*queries.ToolSkill](graphql.String, "the trigger tree as JSON (tool, mcp_server, any_of, all_of)", func(t *queries.ToolSkill) any {
					b, err := json.Marshal(t.Trigger)
					if err != nil || len(t.Trigger) == 0 {
						return nil
					}
					return string(b)
				}),
				"summaryBytes": field[*queries.ToolSkill](nn(graphql.Int), "UTF-8 bytes of the summary: its cost in every turn of a phase that catalogues it", func(t *queries.ToolSkill) any { return t.SummaryBytes() }),
				"bodyBytes":    field[*queries.ToolSkill](nn(graphql.Int), "UTF-8 bytes of the body, loaded on demand by load_tool_skill", func(t *queries.ToolSkill) any { return t.BodyBytes }),
				"matches":      field[*queries.ToolSkill](nn(graphql.Boolean), "the whole trigger fires on this graph's surface", func(t *queries.ToolSkill) any { return t.Matches }),
				"guides":       field[*queries.ToolSkill](list(t.tool), "the Tools its trigger's leaves name", func(t *queries.ToolSkill) any { return t.Guides }),
				"gates":        field[*queries.ToolSkill](list(t.tool), "the Tools it gates: required, and its trigger matches", func(t *queries.ToolSkill) any { return t.Gates() }),
				"findings":     field[*queries.ToolSkill](list(t.finding), "", func(t *queries.ToolSkill) any { return t.Findings }),
			}
		})})
}

// catalogueType is ToolSkillCatalogue: a phase's catalogue preview.
func catalogueType(toolSkill *graphql.Object) *graphql.Object {
	entry := graphql.NewObject(graphql.ObjectConfig{Name: "CatalogueEntry", Description: "One line of a phase's tool-skill catalogue.", Fields: graphql.Fields{
		"key":       field[queries.CatalogueEntry](nn(graphql.ID), "", func(e queries.CatalogueEntry) any { return e.ToolSkill.Key }),
		"line":      field[queries.CatalogueEntry](nn(graphql.String), "the line as the prompt carries it", func(e queries.CatalogueEntry) any { return e.Line }),
		"bytes":     field[queries.CatalogueEntry](nn(graphql.Int), "UTF-8 bytes of the line and its newline", func(e queries.CatalogueEntry) any { return e.Bytes }),
		"marked":    field[queries.CatalogueEntry](nn(graphql.Boolean), "carries "+queries.RequiredMarker, func(e queries.CatalogueEntry) any { return e.Marked }),
		"toolSkill": field[queries.CatalogueEntry](nn(toolSkill), "", func(e queries.CatalogueEntry) any { return e.ToolSkill }),
	}})
	return graphql.NewObject(graphql.ObjectConfig{Name: "ToolSkillCatalogue",
		Description: "The tool skills a phase's surface catalogues, sorted by key (the prompt prefix stays byte-stable), and the bytes they cost every turn.",
		Fields: graphql.Fields{
			"phase":   field[queries.Catalogue](nn(graphql.String), "", func(c queries.Catalogue) any { return c.Phase }),
			"bytes":   field[queries.Catalogue](nn(graphql.Int), "bytes of every entry: the catalogue's cost per turn", func(c queries.Catalogue) any { return c.Bytes }),
			"entries": field[queries.Catalogue](list(entry), "", func(c queries.Catalogue) any { return c.Entries }),
		}})
}

// toolSkillFields are the query fields of the tool-skill registry.
func toolSkillFields(t *types) graphql.Fields {
	return graphql.Fields{
		"toolSkills": {Type: list(t.toolSkill), Description: "Every tool skill, sorted by key: the registry load_tool_skill lists.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).ToolSkills, nil }},
		"toolSkillCatalogue": {Type: nn(catalogueType(t.toolSkill)),
			Description: "Preview of a phase's tool-skill catalogue (plan, execute, review, subagent).",
			Args:        graphql.FieldConfigArgument{"phase": {Type: nn(graphql.String)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				ph, _ := p.Args["phase"].(string)
				return snap(p).Catalogue(ph)
			}},
	}
}
