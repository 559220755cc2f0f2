package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

// findingRuleType is FindingRule: one registered finding code, as the
// registry (ingest/record) holds it — the page's finding help and
// `check --explain` read the same entry.
var findingRuleType = graphql.NewObject(graphql.ObjectConfig{
	Name:        "FindingRule",
	Description: "One registered finding code: what it means and why it matters (docs/findings.md).",
	Fields: graphql.Fields{
		"code":     field[record.Rule](nn(graphql.String), "The stable code.", func(r record.Rule) any { return r.Code }),
		"severity": field[record.Rule](nn(severityEnum), "", func(r record.Rule) any { return string(r.Severity) }),
		"spec":     field[record.Rule](nn(graphql.String), "The SPEC section that defines the rule, e.g. §2.1.", func(r record.Rule) any { return r.Spec }),
		"area":     field[record.Rule](nn(graphql.String), "The area of the corpus the rule is about.", func(r record.Rule) any { return string(r.Area) }),
		"means":    field[record.Rule](nn(graphql.String), "What was found, one line.", func(r record.Rule) any { return r.Means }),
		"why":      field[record.Rule](graphql.String, "Why it matters, one line.", func(r record.Rule) any { return nilIfEmpty(r.Why) }),
		"reported": field[record.Rule](nn(graphql.Boolean), "False for a code the SPEC names that skillgraph does not report yet.", func(r record.Rule) any { return !r.Planned }),
	},
})

// findingRuleFields are Query.findingRule, Query.findingRules and
// Query.triageOrder: rules the page reads instead of re-deriving them.
func findingRuleFields() graphql.Fields {
	return graphql.Fields{
		"findingRule": {Type: findingRuleType, Description: "The registry entry of a finding code; null for an unregistered code.",
			Args: graphql.FieldConfigArgument{"code": {Type: nn(graphql.String)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				code, _ := p.Args["code"].(string)
				if r, ok := record.Lookup(code); ok {
					return r, nil
				}
				return nil, nil
			}},
		"findingRules": {Type: list(findingRuleType), Description: "Every registered finding code, in the order of docs/findings.md.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return record.Rules(), nil }},
		"triageOrder": {Type: strList(), Description: "The uncovered tiers in triage order (SPEC §6.3): tier C first, it needs a human read; the queue lists them so.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return queries.TriageOrder(), nil }},
	}
}
