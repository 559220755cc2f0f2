package api

import (
	"time"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// queryType is Query, the root of every read.
func queryType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name: "Query",
		Fields: withFields(graphql.Fields{
			"graphVersion": {Type: nn(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return int(snap(p).Version), nil }},
			"instances":    {Type: list(t.instance), Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Instances, nil }},
			"instance": {Type: t.instance, Args: graphql.FieldConfigArgument{"name": {Type: graphql.String}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					s := snap(p)
					if n, ok := p.Args["name"].(string); ok {
						return s.Instance(n), nil
					}
					if len(s.Instances) > 0 {
						return s.Instances[0], nil
					}
					return nil, nil
				}},
			"node": nodeField(t),
			"skill": {Type: t.skill, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) { return nilSkill(snap(p).Skill(p.Args["id"].(string))), nil }},
			"tool": {Type: t.tool, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) { return nilTool(snap(p).Tool(p.Args["id"].(string))), nil }},
			"process": {Type: t.process, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if pr := snap(p).Process(p.Args["id"].(string)); pr != nil {
						return pr, nil
					}
					return nil, nil
				}},
			"bean": {Type: t.bean, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if b := snap(p).Bean(p.Args["id"].(string)); b != nil {
						return b, nil
					}
					return nil, nil
				}},
			"skills":    connection("Skill", t.skill, skillFilter, func(s *queries.Snapshot) []any { return anyList(s.Skills) }),
			"tools":     connection("Tool", t.tool, toolFilter, func(s *queries.Snapshot) []any { return anyList(s.Tools) }),
			"processes": connection("Process", t.process, processFilter, func(s *queries.Snapshot) []any { return anyList(s.Processes) }),
			"beans":     connection("Bean", t.bean, beanFilter, func(s *queries.Snapshot) []any { return anyList(s.Beans) }),
			"coverage": {Type: nn(t.coverage), Args: profileArg, Description: "Coverage tiers; under an exposure profile when profile is given.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, err := profiled(p)
					if err != nil {
						return nil, err
					}
					return &v.Coverage, nil
				}},
			"reachability": {Type: nn(t.reach), Args: profileArg, Description: "Dispatch reachability; under an exposure profile when profile is given.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, err := profiled(p)
					if err != nil {
						return nil, err
					}
					return &v.Reach, nil
				}},
			"workflows": {Type: list(workflowType(t.process, t.step, t.skill)), Args: profileArg,
				Description: "Workflow coverage per process, worst first (SPEC 5.5).",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, err := profiled(p)
					if err != nil {
						return nil, err
					}
					return v.Workflows, nil
				}},
			"profiles": {Type: list(profileType), Description: "Declared exposure profiles.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					s := snap(p)
					out := []map[string]any{}
					for _, n := range s.ProfileNames() {
						pr, _, _ := s.ProfileOf(n)
						var ro any
						if pr.ReadOnly != nil {
							ro = *pr.ReadOnly
						}
						out = append(out, map[string]any{"name": n, "tools": strs(pr.Tools), "readOnly": ro, "transports": strs(pr.Transports)})
					}
					return out, nil
				}},
			"programs": {Type: list(programType(t.tool, t.skill)), Description: "Programs shell Tools run, and the skills that break without each (SPEC 5.7).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Programs, nil }},
			"gating": {Type: list(gateType(t.tool, t.toolSkill)), Description: "Tools gated by required tool skills (SPEC 5.6).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).GatedTools(), nil }},
			"alternatives": {Type: nn(t.alternatives), Resolve: func(p graphql.ResolveParams) (any, error) { return &snap(p).Alternatives, nil }},
			"findings":     findingsField(t),
			"search": {
				Type:        list(skillOrToolType(t.skill, t.tool)),
				Description: "Skills and Tools whose id, name, title or description contains the text (case-insensitive).",
				Args:        graphql.FieldConfigArgument{"text": {Type: nn(graphql.String)}, "first": {Type: graphql.Int}},
				Resolve:     resolveSearch,
			},
			"sources": {Type: list(t.source), Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Sources, nil }},
			"ingestedAt": {Type: graphql.String, Description: "When the served snapshot was built from the store (RFC 3339).",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if t := snap(p).BuiltAt; !t.IsZero() {
						return t.Format(time.RFC3339), nil
					}
					return nil, nil
				}},
			"packages": {Type: list(countType), Description: "Skill packages with their number of skills.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).PackageCounts(), nil }},
			"findingCodes": {Type: list(countType), Description: "Finding codes present, with their number.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).FindingCodeCounts(), nil }},
			"viewer": {Type: nn(viewerType), Description: "What the caller may do: canRecord is true with a valid bearer token.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, _ := p.Context.Value(viewerKey{}).(Viewer)
					return v, nil
				}},
		}, withFields(withFields(withFields(findingRuleFields(), hostFields(t)), historyFields()), toolSkillFields(t))),
	})
}

// withFields adds more fields to a field map (the map is changed).
func withFields(fs graphql.Fields, more graphql.Fields) graphql.Fields {
	for k, v := range more {
		fs[k] = v
	}
	return fs
}
