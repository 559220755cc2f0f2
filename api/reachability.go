package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// reachabilityType is Reachability: dispatch reachability (SPEC §5.3).
func reachabilityType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Reachability", Fields: graphql.Fields{
		"roots":               field[*queries.Reachability](strList(), "", func(r *queries.Reachability) any { return strs(r.Roots) }),
		"coveredNotReachable": field[*queries.Reachability](list(t.skill), "", func(r *queries.Reachability) any { return r.CoveredNotReachable }),
		"unreachableTools":    field[*queries.Reachability](list(t.tool), "", func(r *queries.Reachability) any { return r.UnreachableTools }),
		"toolsWithoutCommand": field[*queries.Reachability](list(t.tool), "", func(r *queries.Reachability) any { return r.ToolsWithoutCommand }),
		"unreachableProcesses": field[*queries.Reachability](strList(), "by process/@id", func(r *queries.Reachability) any {
			out := []string{}
			for _, p := range r.UnreachableProcesses {
				out = append(out, p.ID)
			}
			return out
		}),
		"path": {
			Type:        strList(),
			Description: "A shortest chain of dispatch edges between two node keys (e.g. process:P, skill:s); empty when none.",
			Args: graphql.FieldConfigArgument{
				"from": {Type: nn(graphql.String)},
				"to":   {Type: nn(graphql.String)},
			},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				r := p.Source.(*queries.Reachability)
				return strs(r.Path(p.Args["from"].(string), p.Args["to"].(string))), nil
			},
		},
	}})
}
