package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// toolType is Tool: one concrete mechanism that exercises a skill.
func toolType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Tool",
		Interfaces:  []*graphql.Interface{t.node},
		Description: "One concrete mechanism that exercises a skill.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"globalId":    globalIDField("Tool", func(x *queries.Tool) string { return x.IRI }),
				"id":          field[*queries.Tool](nn(graphql.ID), "", func(t *queries.Tool) any { return t.ID }),
				"iri":         field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.IRI }),
				"title":       field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Title) }),
				"description": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Description) }),
				"origin":      field[*queries.Tool](nn(graphql.String), "authored, hard-skill or mcp", func(t *queries.Tool) any { return t.Origin }),
				"instance":    field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return instName(t.Instance) }),
				"satisfies":   field[*queries.Tool](list(t.skill), "skills it claims", func(t *queries.Tool) any { return t.Satisfies }),
				"validFor":    field[*queries.Tool](list(t.skill), "skills it can really perform", func(t *queries.Tool) any { return t.ValidFor }),
				"inputs":      field[*queries.Tool](list(t.port), "", func(t *queries.Tool) any { return t.Inputs }),
				"outputs":     field[*queries.Tool](list(t.port), "", func(t *queries.Tool) any { return t.Outputs }),
				"invoke":      field[*queries.Tool](nn(t.invoke), "", func(t *queries.Tool) any { return t }),
				"install":     field[*queries.Tool](graphql.String, "install object as JSON", func(t *queries.Tool) any { return nilIfEmpty(t.InstallJSON) }),
				"selection": field[*queries.Tool](t.selection, "when to pick it; null unless complete", func(t *queries.Tool) any {
					if t.HasSelection() {
						return t
					}
					return nil
				}),
				"requires":     field[*queries.Tool](strList(), "os and runtime requirements, and network", func(t *queries.Tool) any { return t.Requires() }),
				"remedies":     field[*queries.Tool](graphql.String, "remedies as JSON", func(t *queries.Tool) any { return nilIfEmpty(t.RemediesJSON) }),
				"subprocesses": field[*queries.Tool](list(t.process), "", func(t *queries.Tool) any { return t.Subprocesses }),
				"renders":      field[*queries.Tool](strList(), "", func(t *queries.Tool) any { return strs(t.Renders) }),
				"maintains":    field[*queries.Tool](strList(), "maintained artefacts as JSON", func(t *queries.Tool) any { return strs(t.MaintainsRaw) }),
				"alternatives": field[*queries.Tool](list(t.tool), "derived substitutes", func(t *queries.Tool) any { return t.Alternatives }),
				"reachable":    field[*queries.Tool](nn(graphql.Boolean), "", func(t *queries.Tool) any { return t.Reachable }),
				"witness":      field[*queries.Tool](strList(), "", func(t *queries.Tool) any { return strs(t.Witness) }),
				"exposedBy":    field[*queries.Tool](list(t.tool), "MCP tools that are the same mechanism", func(t *queries.Tool) any { return t.ExposedBy }),
				"parity":       parityField(t),
				"guidedBy":     field[*queries.Tool](list(t.toolSkill), "", func(t *queries.Tool) any { return t.GuidedBy }),
				"gatedBy":      field[*queries.Tool](list(t.toolSkill), "required tool skills that gate it", func(t *queries.Tool) any { return t.GatedBy }),
				"transports":   field[*queries.Tool](strList(), "mcp, shell, container, inProcess, manual", func(t *queries.Tool) any { return strs(t.Transports()) }),
				"readOnly": field[*queries.Tool](graphql.Boolean, "tri-state: null when not stated", func(t *queries.Tool) any {
					if t.ReadOnly == nil {
						return nil
					}
					return *t.ReadOnly
				}),
				"findings": field[*queries.Tool](list(t.finding), "", func(t *queries.Tool) any { return t.Findings }),
				"source":   field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return srcPath(t.Source) }),
				"line":     field[*queries.Tool](graphql.Int, "", func(t *queries.Tool) any { return t.Line }),
			}
		}),
	})
}

// invokeType is Invoke: how a Tool is run.
func invokeType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Invoke", Fields: graphql.Fields{
		"shell":     field[*queries.Tool](strList(), "argv words", func(t *queries.Tool) any { return strs(t.Shell) }),
		"container": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Container) }),
		"mcpServer": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.McpServer) }),
		"mcpTool":   field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.McpTool) }),
		"inProcess": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.InProcess) }),
		"manual":    field[*queries.Tool](nn(graphql.Boolean), "", func(t *queries.Tool) any { return t.Manual }),
	}})
}

// selectionType is Selection: when to pick a Tool among alternatives.
func selectionType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Selection", Fields: graphql.Fields{
		"when":   field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.When }),
		"limits": field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.Limits }),
		"cost":   field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.Cost }),
	}})
}
