package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// triageType is TriageDecision: the latest recorded read of a skill.
func triageType() *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "TriageDecision", Fields: graphql.Fields{
		"verdict":    field[*queries.Triage](nn(graphql.String), "mechanism, judgement or split", func(t *queries.Triage) any { return t.Verdict }),
		"note":       field[*queries.Triage](graphql.String, "", func(t *queries.Triage) any { return t.Note }),
		"recordedAt": field[*queries.Triage](graphql.String, "", func(t *queries.Triage) any { return t.RecordedAt }),
	}})
}
