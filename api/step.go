package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// stepType is Step: a BPMN activity of a process.
func stepType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name: "Step",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":         field[*queries.Activity](nn(graphql.ID), "", func(a *queries.Activity) any { return a.ID }),
				"key":        field[*queries.Activity](nn(graphql.String), "witness key", func(a *queries.Activity) any { return a.Key() }),
				"element":    field[*queries.Activity](nn(graphql.String), "BPMN element", func(a *queries.Activity) any { return a.Element }),
				"name":       field[*queries.Activity](graphql.String, "", func(a *queries.Activity) any { return nilIfEmpty(a.Title) }),
				"automation": field[*queries.Activity](graphql.String, "automated, person or null", func(a *queries.Activity) any { return nilIfEmpty(a.Automation()) }),
				"lane":       field[*queries.Activity](graphql.String, "", func(a *queries.Activity) any { return nilIfEmpty(a.Lane) }),
				"process":    field[*queries.Activity](nn(t.process), "", func(a *queries.Activity) any { return a.Process }),
				"skills":     field[*queries.Activity](list(t.skill), "", func(a *queries.Activity) any { return a.Skills }),
				"calls":      field[*queries.Activity](t.process, "", func(a *queries.Activity) any { return a.Calls }),
				"line":       field[*queries.Activity](graphql.Int, "", func(a *queries.Activity) any { return a.Line }),
			}
		}),
	})
}
