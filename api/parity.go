package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// parityField is Tool.parity: how the Tool's MCP side agrees with the
// other side (queries/parity.go); null for a Tool with no MCP side. Its
// object type is made here, once, when the Tool fields are first built.
func parityField(t *types) *graphql.Field {
	port := graphql.NewObject(graphql.ObjectConfig{
		Name:        "PortParity",
		Description: "One port of an authored Tool and the codes of its disagreements with the listed MCP tools (none: it agrees).",
		Fields: graphql.Fields{
			"name":   field[queries.PortParity](nn(graphql.String), "", func(p queries.PortParity) any { return p.Name }),
			"output": field[queries.PortParity](nn(graphql.Boolean), "an output (compared only when a listing states an outputSchema)", func(p queries.PortParity) any { return p.Output }),
			"codes":  field[queries.PortParity](strList(), "mcp-parity-* codes of this port; empty when it agrees", func(p queries.PortParity) any { return strs(p.Codes) }),
		},
	})
	obj := graphql.NewObject(graphql.ObjectConfig{
		Name:        "ToolParity",
		Description: "MCP parity of a Tool: an authored Tool against the listed MCP tools that expose it, or a listed MCP tool against the Tools that describe it.",
		Fields: graphql.Fields{
			"state": field[*queries.Parity](nn(graphql.String),
				"agrees, disagrees, unlisted (invoke.mcp names a tool its server's snapshot does not list), unrecorded (no snapshot of the server), unauthored (a listed tool no Tool describes)",
				func(p *queries.Parity) any { return p.State }),
			"against": field[*queries.Parity](list(t.tool), "the other side of each pair", func(p *queries.Parity) any { return p.Against }),
			"findings": field[*queries.Parity](list(t.finding), "the disagreements (mcp-parity-*), or the mcp-tool-unlisted / mcp-tool-unauthored finding",
				func(p *queries.Parity) any { return p.Findings }),
			"ports": field[*queries.Parity](list(port), "an authored Tool's ports, each with its disagreements; empty for a listed tool or when nothing is compared",
				func(p *queries.Parity) any { return p.Ports }),
		},
	})
	return field[*queries.Tool](obj, "MCP parity (SPEC §2.5 exposedBy); null when the Tool has no MCP side", func(t *queries.Tool) any {
		if t.Parity == nil {
			return nil
		}
		return t.Parity
	})
}
