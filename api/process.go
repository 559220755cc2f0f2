package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// processType is Process: a BPMN process.
func processType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:       "Process",
		Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"globalId":  globalIDField("Process", func(x *queries.Process) string { return x.IRI }),
				"id":        field[*queries.Process](nn(graphql.ID), "process/@id", func(p *queries.Process) any { return p.ID }),
				"iri":       field[*queries.Process](nn(graphql.String), "", func(p *queries.Process) any { return p.IRI }),
				"stem":      field[*queries.Process](nn(graphql.String), "file stem", func(p *queries.Process) any { return p.Stem }),
				"name":      field[*queries.Process](graphql.String, "", func(p *queries.Process) any { return nilIfEmpty(p.Title) }),
				"steps":     field[*queries.Process](list(t.step), "", func(p *queries.Process) any { return p.Activities }),
				"reachable": field[*queries.Process](nn(graphql.Boolean), "", func(p *queries.Process) any { return p.Reachable }),
				"witness":   field[*queries.Process](strList(), "", func(p *queries.Process) any { return strs(p.Witness) }),
				"source":    field[*queries.Process](graphql.String, "", func(p *queries.Process) any { return srcPath(p.Source) }),
			}
		}),
	})
}
