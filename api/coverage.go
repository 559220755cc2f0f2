package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// tieredSkillType is TieredSkill: an uncovered skill with its tier evidence.
func tieredSkillType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "TieredSkill", Fields: graphql.Fields{
		"skill":    field[*queries.Skill](nn(t.skill), "", func(s *queries.Skill) any { return s }),
		"evidence": field[*queries.Skill](strList(), "", func(s *queries.Skill) any { return strs(s.Evidence) }),
	}})
}

// tierType is Tier: the skills of one tier.
func tierType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Tier", Fields: graphql.Fields{
		"tier":   field[queries.Tier](nn(graphql.String), "", func(t queries.Tier) any { return t.Tier }),
		"count":  field[queries.Tier](nn(graphql.Int), "", func(t queries.Tier) any { return len(t.Skills) }),
		"skills": field[queries.Tier](list(t.tieredSkill), "", func(t queries.Tier) any { return t.Skills }),
	}})
}

// coverageType is Coverage: the tier report (SPEC §5.1).
func coverageType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Coverage", Fields: graphql.Fields{
		"total":        field[*queries.Coverage](nn(graphql.Int), "", func(c *queries.Coverage) any { return c.Total }),
		"uncovered":    field[*queries.Coverage](nn(graphql.Int), "", func(c *queries.Coverage) any { return len(c.Uncovered) }),
		"covered":      field[*queries.Coverage](list(t.skill), "", func(c *queries.Coverage) any { return c.Covered }),
		"contradicted": field[*queries.Coverage](list(t.skill), "", func(c *queries.Coverage) any { return c.Contradicted }),
		"tiers":        field[*queries.Coverage](list(t.tier), "always A, B, C, D in order", func(c *queries.Coverage) any { return c.Tiers }),
		"bothHalves":   field[*queries.Coverage](list(t.skill), "tier-A skills a person step names too", func(c *queries.Coverage) any { return c.BothHalves }),
		"exempt":       field[*queries.Coverage](list(t.skill), "exemptions that stand", func(c *queries.Coverage) any { return c.Exempt }),
	}})
}
