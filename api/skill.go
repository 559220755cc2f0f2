package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// skillType is Skill: what an agent can do, stated portably.
func skillType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Skill",
		Interfaces:  []*graphql.Interface{t.node},
		Description: "A skill: what an agent can do, stated portably.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"globalId":     globalIDField("Skill", func(x *queries.Skill) string { return x.IRI }),
				"id":           field[*queries.Skill](nn(graphql.ID), "", func(s *queries.Skill) any { return s.ID }),
				"iri":          field[*queries.Skill](nn(graphql.String), "", func(s *queries.Skill) any { return s.IRI }),
				"name":         field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Name) }),
				"title":        field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Title) }),
				"description":  field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Description) }),
				"flavour":      field[*queries.Skill](nn(graphql.String), "harness, agent or hard", func(s *queries.Skill) any { return s.Flavour }),
				"package":      field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Package) }),
				"instance":     field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return instName(s.Instance) }),
				"tier":         field[*queries.Skill](graphql.String, "A, B, C or D; null when covered", func(s *queries.Skill) any { return nilIfEmpty(s.Tier) }),
				"covered":      field[*queries.Skill](nn(graphql.Boolean), "", func(s *queries.Skill) any { return s.Covered }),
				"contradicted": field[*queries.Skill](nn(graphql.Boolean), "only contradicted satisfies edges", func(s *queries.Skill) any { return s.IsContradict }),
				"exempt":       field[*queries.Skill](nn(graphql.Boolean), "uncovered on purpose", func(s *queries.Skill) any { return s.Exempt }),
				"bothHalves": field[*queries.Skill](nn(graphql.Boolean), "tier A and a person step names it too: mechanism + judgement",
					func(s *queries.Skill) any { return s.BothHalves() }),
				"evidence": field[*queries.Skill](strList(), "all tier evidence", func(s *queries.Skill) any { return strs(s.Evidence) }),
				"tools":    field[*queries.Skill](list(t.tool), "Tools with a valid satisfies edge", func(s *queries.Skill) any { return s.Tools }),
				"contradictedBy": field[*queries.Skill](list(t.tool), "Tools whose satisfies edge the contract contradicts",
					func(s *queries.Skill) any { return s.Contradicted }),
				"toolSkills":    field[*queries.Skill](list(t.toolSkill), "tool skills guiding its tools", func(s *queries.Skill) any { return s.ToolSkills() }),
				"mentionsTools": field[*queries.Skill](list(t.tool), "Tools its allowed-tools name (a weak mention, not a binding)", func(s *queries.Skill) any { return s.MentionsTools }),
				"steps":         field[*queries.Skill](list(t.step), "process steps naming it", func(s *queries.Skill) any { return s.Steps }),
				"processes":     field[*queries.Skill](list(t.process), "processes with a step naming it", func(s *queries.Skill) any { return s.Processes() }),
				"contract": {Type: t.contract, Description: "input contract", Resolve: func(p graphql.ResolveParams) (any, error) {
					if c := snap(p).InputContract(p.Source.(*queries.Skill)); c != nil {
						return c, nil
					}
					return nil, nil
				}},
				"reachable":      field[*queries.Skill](nn(graphql.Boolean), "", func(s *queries.Skill) any { return s.Reachable }),
				"coveredSince":   sinceField(false),
				"reachableSince": sinceField(true),
				"witness":        field[*queries.Skill](strList(), "shortest chain from a root", func(s *queries.Skill) any { return strs(s.Witness) }),
				"alternatives":   field[*queries.Skill](list(t.tool), "Tools of this skill that have an alternative", func(s *queries.Skill) any { return s.ToolsWithAlternatives() }),
				"findings":       field[*queries.Skill](list(t.finding), "", func(s *queries.Skill) any { return s.Findings }),
				"source":         field[*queries.Skill](graphql.String, "source file", func(s *queries.Skill) any { return srcPath(s.Source) }),
				"text": {Type: graphql.String, Description: "the skill file as ingested (its Markdown with the front matter), read back from the corpus folder: " +
					"null on a server that reads no corpus folder (a store-only replica) and when the file changed since the answered version",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						return skillText(p.Context, p.Source.(*queries.Skill)), nil
					}},
				"plugin":      field[*queries.Skill](t.plugin, "the agent-host plugin that holds it", func(s *queries.Skill) any { return nilPlugin(s.Plugin) }),
				"resources":   field[*queries.Skill](strList(), "an Agent Skill's other files (references, scripts, assets), relative to the corpus folder", func(s *queries.Skill) any { return strs(s.Resources) }),
				"line":        field[*queries.Skill](graphql.Int, "", func(s *queries.Skill) any { return s.Line }),
				"shellBlocks": field[*queries.Skill](list(graphql.Int), "lines of sh/bash/console blocks", func(s *queries.Skill) any { return s.ShellBlocks }),
				"triage":      field[*queries.Skill](t.triage, "the latest recorded read", func(s *queries.Skill) any { return s.Triage }),
			}
		}),
	})
}
