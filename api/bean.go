package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// beanType is Bean: a work item.
func beanType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:       "Bean",
		Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"globalId":           globalIDField("Bean", func(x *queries.Bean) string { return x.IRI }),
				"id":                 field[*queries.Bean](nn(graphql.ID), "", func(b *queries.Bean) any { return b.ID }),
				"iri":                field[*queries.Bean](nn(graphql.String), "", func(b *queries.Bean) any { return b.IRI }),
				"title":              field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Title) }),
				"status":             field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Status) }),
				"type":               field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Type) }),
				"priority":           field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Priority) }),
				"tags":               field[*queries.Bean](strList(), "", func(b *queries.Bean) any { return strs(b.Tags) }),
				"parent":             field[*queries.Bean](t.bean, "", func(b *queries.Bean) any { return b.Parent }),
				"blocking":           field[*queries.Bean](list(t.bean), "", func(b *queries.Bean) any { return b.Blocking }),
				"mentions":           field[*queries.Bean](strList(), "names mentioned in the body", func(b *queries.Bean) any { return strs(b.Mentions) }),
				"mentionedSkills":    field[*queries.Bean](list(t.skill), "the skills its body's mentions name", func(b *queries.Bean) any { return b.MentionsSkills }),
				"mentionedTools":     field[*queries.Bean](list(t.tool), "the Tools its body's mentions name", func(b *queries.Bean) any { return b.MentionsTools }),
				"mentionedProcesses": field[*queries.Bean](list(t.process), "the processes its body's mentions name", func(b *queries.Bean) any { return b.MentionsProcesses }),
				"createdAt":          field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.CreatedAt) }),
				"updatedAt":          field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.UpdatedAt) }),
				"source":             field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return srcPath(b.Source) }),
			}
		}),
	})
}
