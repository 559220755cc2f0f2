// Package api exposes the analysis snapshot through GraphQL
// (github.com/graphql-go/graphql). Every resolver reads the immutable
// snapshot carried in the request context: lists are answered from the
// in-memory index, never with one store round trip per item.
package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

type ctxKey struct{}

// WithSnapshot returns a context carrying the snapshot resolvers read.
func WithSnapshot(ctx context.Context, s *queries.Snapshot) context.Context {
	return context.WithValue(ctx, ctxKey{}, s)
}

func snap(p graphql.ResolveParams) *queries.Snapshot {
	s, _ := p.Context.Value(ctxKey{}).(*queries.Snapshot)
	return s
}

// MaxPage caps `first` on every connection.
const MaxPage = 500

var severityEnum = graphql.NewEnum(graphql.EnumConfig{
	Name:        "Severity",
	Description: "Severity of a finding.",
	Values: graphql.EnumValueConfigMap{
		"ERROR":   {Value: "error"},
		"WARNING": {Value: "warning"},
		"INFO":    {Value: "info"},
	},
})

var pageInfoType = graphql.NewObject(graphql.ObjectConfig{
	Name: "PageInfo",
	Fields: graphql.Fields{
		"hasNextPage": {Type: graphql.NewNonNull(graphql.Boolean)},
		"endCursor":   {Type: graphql.String},
	},
})

type pageInfo struct {
	HasNextPage bool   `json:"hasNextPage"`
	EndCursor   string `json:"endCursor"`
}

func strList() *graphql.NonNull {
	return graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String)))
}

func nn(t graphql.Output) *graphql.NonNull { return graphql.NewNonNull(t) }

func list(t graphql.Type) *graphql.NonNull {
	return graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(t)))
}

// field builds a resolver over a typed source.
func field[T any](t graphql.Output, desc string, f func(T) any) *graphql.Field {
	return &graphql.Field{Type: t, Description: desc, Resolve: func(p graphql.ResolveParams) (any, error) {
		src, ok := p.Source.(T)
		if !ok {
			return nil, fmt.Errorf("internal: unexpected source %T", p.Source)
		}
		return f(src), nil
	}}
}

func strs(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Schema is the skillgraph GraphQL schema.
type Schema struct {
	gql   graphql.Schema
	intro introWeights
}

// GraphQL returns the underlying graphql-go schema.
func (s *Schema) GraphQL() graphql.Schema { return s.gql }

// NewSchema builds the schema.
func NewSchema() (*Schema, error) {
	var skillType, toolType, processType, activityType, beanType *graphql.Object

	findingType := graphql.NewObject(graphql.ObjectConfig{
		Name:        "Finding",
		Description: "An integrity or analysis finding with a stable code.",
		Fields: graphql.Fields{
			"code":     field[queries.Finding](nn(graphql.String), "Stable code, see docs/findings.md.", func(f queries.Finding) any { return f.Code }),
			"severity": field[queries.Finding](nn(severityEnum), "", func(f queries.Finding) any { return string(f.Severity) }),
			"message":  field[queries.Finding](nn(graphql.String), "", func(f queries.Finding) any { return f.Message }),
			"file":     field[queries.Finding](graphql.String, "Relative to the corpus root.", func(f queries.Finding) any { return nilIfEmpty(f.File) }),
			"line":     field[queries.Finding](graphql.Int, "1-based line.", func(f queries.Finding) any { return f.Line }),
			"subject":  field[queries.Finding](graphql.String, "IRI of the node concerned.", func(f queries.Finding) any { return nilIfEmpty(f.Subject) }),
			"instance": field[queries.Finding](graphql.String, "", func(f queries.Finding) any { return nilIfEmpty(f.Instance) }),
		},
	})
	findingEdge := graphql.NewObject(graphql.ObjectConfig{Name: "FindingEdge", Fields: graphql.Fields{
		"node":   {Type: nn(findingType)},
		"cursor": {Type: nn(graphql.String)},
	}})
	findingConn := graphql.NewObject(graphql.ObjectConfig{Name: "FindingConnection", Fields: graphql.Fields{
		"totalCount": {Type: nn(graphql.Int)},
		"edges":      {Type: list(findingEdge)},
		"pageInfo":   {Type: nn(pageInfoType)},
	}})
	portType := graphql.NewObject(graphql.ObjectConfig{Name: "Port", Description: "A typed Tool input or output.", Fields: graphql.Fields{
		"name":        field[*queries.Port](nn(graphql.String), "", func(p *queries.Port) any { return p.Name }),
		"type":        field[*queries.Port](graphql.String, "Absolute type IRI.", func(p *queries.Port) any { return nilIfEmpty(p.TypeIRI) }),
		"jsonType":    field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.JSONType) }),
		"required":    field[*queries.Port](nn(graphql.Boolean), "", func(p *queries.Port) any { return p.Required }),
		"repeated":    field[*queries.Port](nn(graphql.Boolean), "", func(p *queries.Port) any { return p.Repeated }),
		"arg":         field[*queries.Port](graphql.String, "flag:--x, positional:N or stdin.", func(p *queries.Port) any { return nilIfEmpty(p.Arg) }),
		"description": field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.Description) }),
		"render":      field[*queries.Port](graphql.String, "", func(p *queries.Port) any { return nilIfEmpty(p.Render) }),
	}})
	invokeType := graphql.NewObject(graphql.ObjectConfig{Name: "Invoke", Fields: graphql.Fields{
		"shell":     field[*queries.Tool](strList(), "argv words", func(t *queries.Tool) any { return strs(t.Shell) }),
		"container": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Container) }),
		"mcpServer": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.McpServer) }),
		"mcpTool":   field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.McpTool) }),
		"inProcess": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.InProcess) }),
		"manual":    field[*queries.Tool](nn(graphql.Boolean), "", func(t *queries.Tool) any { return t.Manual }),
	}})
	selectionType := graphql.NewObject(graphql.ObjectConfig{Name: "Selection", Fields: graphql.Fields{
		"when":   field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.When }),
		"limits": field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.Limits }),
		"cost":   field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.Cost }),
	}})
	toolSkillType := graphql.NewObject(graphql.ObjectConfig{Name: "ToolSkill", Description: "Guidance for a tool; not counted in coverage.", Fields: graphql.Fields{
		"key":      field[*queries.ToolSkill](nn(graphql.ID), "", func(t *queries.ToolSkill) any { return t.Key }),
		"iri":      field[*queries.ToolSkill](nn(graphql.String), "", func(t *queries.ToolSkill) any { return t.IRI }),
		"title":    field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Title) }),
		"summary":  field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return nilIfEmpty(t.Summary) }),
		"phases":   field[*queries.ToolSkill](strList(), "", func(t *queries.ToolSkill) any { return strs(t.Phases) }),
		"required": field[*queries.ToolSkill](nn(graphql.Boolean), "", func(t *queries.ToolSkill) any { return t.Required }),
		"source":   field[*queries.ToolSkill](graphql.String, "", func(t *queries.ToolSkill) any { return srcPath(t.Source) }),
	}})
	contractType := graphql.NewObject(graphql.ObjectConfig{Name: "Contract", Fields: graphql.Fields{
		"ref":      {Type: nn(graphql.String)},
		"readable": {Type: nn(graphql.Boolean)},
		"external": {Type: nn(graphql.Boolean)},
		"required": {Type: strList()},
	}})
	triageType := graphql.NewObject(graphql.ObjectConfig{Name: "TriageDecision", Fields: graphql.Fields{
		"verdict":    field[*queries.Triage](nn(graphql.String), "mechanism, judgement or split", func(t *queries.Triage) any { return t.Verdict }),
		"note":       field[*queries.Triage](graphql.String, "", func(t *queries.Triage) any { return t.Note }),
		"recordedAt": field[*queries.Triage](graphql.String, "", func(t *queries.Triage) any { return t.RecordedAt }),
	}})

	skillType = graphql.NewObject(graphql.ObjectConfig{
		Name:        "Skill",
		Description: "A skill: what an agent can do, stated portably.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":           field[*queries.Skill](nn(graphql.ID), "", func(s *queries.Skill) any { return s.ID }),
				"iri":          field[*queries.Skill](nn(graphql.String), "", func(s *queries.Skill) any { return s.IRI }),
				"name":         field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Name) }),
				"title":        field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Title) }),
				"description":  field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Description) }),
				"flavour":      field[*queries.Skill](nn(graphql.String), "harness, agent or hard", func(s *queries.Skill) any { return s.Flavour }),
				"package":      field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return nilIfEmpty(s.Package) }),
				"instance":     field[*queries.Skill](graphql.String, "", func(s *queries.Skill) any { return instName(s.Instance) }),
				"tier":         field[*queries.Skill](graphql.String, "A, B, C or D; null when covered", func(s *queries.Skill) any { return nilIfEmpty(s.Tier) }),
				"covered":      field[*queries.Skill](nn(graphql.Boolean), "", func(s *queries.Skill) any { return s.Covered }),
				"contradicted": field[*queries.Skill](nn(graphql.Boolean), "only contradicted satisfies edges", func(s *queries.Skill) any { return s.IsContradict }),
				"exempt":       field[*queries.Skill](nn(graphql.Boolean), "uncovered on purpose", func(s *queries.Skill) any { return s.Exempt }),
				"bothHalves": field[*queries.Skill](nn(graphql.Boolean), "tier A and a person step names it too: mechanism + judgement",
					func(s *queries.Skill) any { return s.Tier == "A" && queries.HasPersonStep(s) }),
				"evidence": field[*queries.Skill](strList(), "all tier evidence", func(s *queries.Skill) any { return strs(s.Evidence) }),
				"tools":    field[*queries.Skill](list(toolType), "Tools with a valid satisfies edge", func(s *queries.Skill) any { return s.Tools }),
				"contradictedBy": field[*queries.Skill](list(toolType), "Tools whose satisfies edge the contract contradicts",
					func(s *queries.Skill) any { return s.Contradicted }),
				"toolSkills": field[*queries.Skill](list(toolSkillType), "tool skills guiding its tools", func(s *queries.Skill) any {
					seen := map[*queries.ToolSkill]bool{}
					var out []*queries.ToolSkill
					for _, t := range s.Tools {
						for _, g := range t.GuidedBy {
							if !seen[g] {
								seen[g] = true
								out = append(out, g)
							}
						}
					}
					return out
				}),
				"steps": field[*queries.Skill](list(activityType), "process steps naming it", func(s *queries.Skill) any { return s.Steps }),
				"processes": field[*queries.Skill](list(processType), "processes with a step naming it", func(s *queries.Skill) any {
					seen := map[*queries.Process]bool{}
					var out []*queries.Process
					for _, a := range s.Steps {
						if !seen[a.Process] {
							seen[a.Process] = true
							out = append(out, a.Process)
						}
					}
					return out
				}),
				"contract": {Type: contractType, Description: "input contract", Resolve: func(p graphql.ResolveParams) (any, error) {
					return contractView(snap(p), p.Source.(*queries.Skill)), nil
				}},
				"reachable":    field[*queries.Skill](nn(graphql.Boolean), "", func(s *queries.Skill) any { return s.Reachable }),
				"witness":      field[*queries.Skill](strList(), "shortest chain from a root", func(s *queries.Skill) any { return strs(s.Witness) }),
				"alternatives": field[*queries.Skill](list(toolType), "Tools of this skill that have an alternative", func(s *queries.Skill) any { return skillAlternatives(s) }),
				"findings":     field[*queries.Skill](list(findingType), "", func(s *queries.Skill) any { return s.Findings }),
				"source":       field[*queries.Skill](graphql.String, "source file", func(s *queries.Skill) any { return srcPath(s.Source) }),
				"line":         field[*queries.Skill](graphql.Int, "", func(s *queries.Skill) any { return s.Line }),
				"shellBlocks":  field[*queries.Skill](list(graphql.Int), "lines of sh/bash/console blocks", func(s *queries.Skill) any { return s.ShellBlocks }),
				"triage":       field[*queries.Skill](triageType, "the latest recorded read", func(s *queries.Skill) any { return s.Triage }),
			}
		}),
	})
	toolType = graphql.NewObject(graphql.ObjectConfig{
		Name:        "Tool",
		Description: "One concrete mechanism that exercises a skill.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":          field[*queries.Tool](nn(graphql.ID), "", func(t *queries.Tool) any { return t.ID }),
				"iri":         field[*queries.Tool](nn(graphql.String), "", func(t *queries.Tool) any { return t.IRI }),
				"title":       field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Title) }),
				"description": field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return nilIfEmpty(t.Description) }),
				"origin":      field[*queries.Tool](nn(graphql.String), "authored, hard-skill or mcp", func(t *queries.Tool) any { return t.Origin }),
				"instance":    field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return instName(t.Instance) }),
				"satisfies":   field[*queries.Tool](list(skillType), "skills it claims", func(t *queries.Tool) any { return t.Satisfies }),
				"validFor":    field[*queries.Tool](list(skillType), "skills it can really perform", func(t *queries.Tool) any { return t.ValidFor }),
				"inputs":      field[*queries.Tool](list(portType), "", func(t *queries.Tool) any { return t.Inputs }),
				"outputs":     field[*queries.Tool](list(portType), "", func(t *queries.Tool) any { return t.Outputs }),
				"invoke":      field[*queries.Tool](nn(invokeType), "", func(t *queries.Tool) any { return t }),
				"install":     field[*queries.Tool](graphql.String, "install object as JSON", func(t *queries.Tool) any { return nilIfEmpty(t.InstallJSON) }),
				"selection": field[*queries.Tool](selectionType, "when to pick it; null unless complete", func(t *queries.Tool) any {
					if t.HasSelection() {
						return t
					}
					return nil
				}),
				"requires": field[*queries.Tool](strList(), "os and runtime requirements, and network", func(t *queries.Tool) any {
					out := append(append([]string{}, t.OS...), t.Runtime...)
					if t.Network != nil && *t.Network {
						out = append(out, "network")
					}
					return out
				}),
				"remedies":     field[*queries.Tool](graphql.String, "remedies as JSON", func(t *queries.Tool) any { return nilIfEmpty(t.RemediesJSON) }),
				"subprocesses": field[*queries.Tool](list(processType), "", func(t *queries.Tool) any { return t.Subprocesses }),
				"renders":      field[*queries.Tool](strList(), "", func(t *queries.Tool) any { return strs(t.Renders) }),
				"maintains":    field[*queries.Tool](strList(), "maintained artefacts as JSON", func(t *queries.Tool) any { return strs(t.MaintainsRaw) }),
				"alternatives": field[*queries.Tool](list(toolType), "derived substitutes", func(t *queries.Tool) any { return t.Alternatives }),
				"reachable":    field[*queries.Tool](nn(graphql.Boolean), "", func(t *queries.Tool) any { return t.Reachable }),
				"witness":      field[*queries.Tool](strList(), "", func(t *queries.Tool) any { return strs(t.Witness) }),
				"exposedBy":    field[*queries.Tool](list(toolType), "MCP tools that are the same mechanism", func(t *queries.Tool) any { return t.ExposedBy }),
				"guidedBy":     field[*queries.Tool](list(toolSkillType), "", func(t *queries.Tool) any { return t.GuidedBy }),
				"gatedBy":      field[*queries.Tool](list(toolSkillType), "required tool skills that gate it", func(t *queries.Tool) any { return t.GatedBy }),
				"transports":   field[*queries.Tool](strList(), "mcp, shell, container, inProcess, manual", func(t *queries.Tool) any { return strs(t.Transports()) }),
				"readOnly": field[*queries.Tool](graphql.Boolean, "tri-state: null when not stated", func(t *queries.Tool) any {
					if t.ReadOnly == nil {
						return nil
					}
					return *t.ReadOnly
				}),
				"findings": field[*queries.Tool](list(findingType), "", func(t *queries.Tool) any { return t.Findings }),
				"source":   field[*queries.Tool](graphql.String, "", func(t *queries.Tool) any { return srcPath(t.Source) }),
				"line":     field[*queries.Tool](graphql.Int, "", func(t *queries.Tool) any { return t.Line }),
			}
		}),
	})
	activityType = graphql.NewObject(graphql.ObjectConfig{
		Name: "Step",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":         field[*queries.Activity](nn(graphql.ID), "", func(a *queries.Activity) any { return a.ID }),
				"key":        field[*queries.Activity](nn(graphql.String), "witness key", func(a *queries.Activity) any { return a.Key() }),
				"element":    field[*queries.Activity](nn(graphql.String), "BPMN element", func(a *queries.Activity) any { return a.Element }),
				"name":       field[*queries.Activity](graphql.String, "", func(a *queries.Activity) any { return nilIfEmpty(a.Title) }),
				"automation": field[*queries.Activity](graphql.String, "automated, person or null", func(a *queries.Activity) any { return nilIfEmpty(a.Automation()) }),
				"lane":       field[*queries.Activity](graphql.String, "", func(a *queries.Activity) any { return nilIfEmpty(a.Lane) }),
				"process":    field[*queries.Activity](nn(processType), "", func(a *queries.Activity) any { return a.Process }),
				"skills":     field[*queries.Activity](list(skillType), "", func(a *queries.Activity) any { return a.Skills }),
				"calls":      field[*queries.Activity](processType, "", func(a *queries.Activity) any { return a.Calls }),
				"line":       field[*queries.Activity](graphql.Int, "", func(a *queries.Activity) any { return a.Line }),
			}
		}),
	})
	processType = graphql.NewObject(graphql.ObjectConfig{
		Name: "Process",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":        field[*queries.Process](nn(graphql.ID), "process/@id", func(p *queries.Process) any { return p.ID }),
				"iri":       field[*queries.Process](nn(graphql.String), "", func(p *queries.Process) any { return p.IRI }),
				"stem":      field[*queries.Process](nn(graphql.String), "file stem", func(p *queries.Process) any { return p.Stem }),
				"name":      field[*queries.Process](graphql.String, "", func(p *queries.Process) any { return nilIfEmpty(p.Title) }),
				"steps":     field[*queries.Process](list(activityType), "", func(p *queries.Process) any { return p.Activities }),
				"reachable": field[*queries.Process](nn(graphql.Boolean), "", func(p *queries.Process) any { return p.Reachable }),
				"witness":   field[*queries.Process](strList(), "", func(p *queries.Process) any { return strs(p.Witness) }),
				"source":    field[*queries.Process](graphql.String, "", func(p *queries.Process) any { return srcPath(p.Source) }),
			}
		}),
	})
	beanType = graphql.NewObject(graphql.ObjectConfig{
		Name: "Bean",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"id":        field[*queries.Bean](nn(graphql.ID), "", func(b *queries.Bean) any { return b.ID }),
				"iri":       field[*queries.Bean](nn(graphql.String), "", func(b *queries.Bean) any { return b.IRI }),
				"title":     field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Title) }),
				"status":    field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Status) }),
				"type":      field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Type) }),
				"priority":  field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.Priority) }),
				"tags":      field[*queries.Bean](strList(), "", func(b *queries.Bean) any { return strs(b.Tags) }),
				"parent":    field[*queries.Bean](beanType, "", func(b *queries.Bean) any { return b.Parent }),
				"blocking":  field[*queries.Bean](list(beanType), "", func(b *queries.Bean) any { return b.Blocking }),
				"mentions":  field[*queries.Bean](strList(), "names mentioned in the body", func(b *queries.Bean) any { return strs(b.Mentions) }),
				"createdAt": field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.CreatedAt) }),
				"updatedAt": field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return nilIfEmpty(b.UpdatedAt) }),
				"source":    field[*queries.Bean](graphql.String, "", func(b *queries.Bean) any { return srcPath(b.Source) }),
			}
		}),
	})

	tieredSkill := graphql.NewObject(graphql.ObjectConfig{Name: "TieredSkill", Fields: graphql.Fields{
		"skill":    field[*queries.Skill](nn(skillType), "", func(s *queries.Skill) any { return s }),
		"evidence": field[*queries.Skill](strList(), "", func(s *queries.Skill) any { return strs(s.Evidence) }),
	}})
	tierType := graphql.NewObject(graphql.ObjectConfig{Name: "Tier", Fields: graphql.Fields{
		"tier":   field[queries.Tier](nn(graphql.String), "", func(t queries.Tier) any { return t.Tier }),
		"count":  field[queries.Tier](nn(graphql.Int), "", func(t queries.Tier) any { return len(t.Skills) }),
		"skills": field[queries.Tier](list(tieredSkill), "", func(t queries.Tier) any { return t.Skills }),
	}})
	coverageType := graphql.NewObject(graphql.ObjectConfig{Name: "Coverage", Fields: graphql.Fields{
		"total":        field[*queries.Coverage](nn(graphql.Int), "", func(c *queries.Coverage) any { return c.Total }),
		"uncovered":    field[*queries.Coverage](nn(graphql.Int), "", func(c *queries.Coverage) any { return len(c.Uncovered) }),
		"covered":      field[*queries.Coverage](list(skillType), "", func(c *queries.Coverage) any { return c.Covered }),
		"contradicted": field[*queries.Coverage](list(skillType), "", func(c *queries.Coverage) any { return c.Contradicted }),
		"tiers":        field[*queries.Coverage](list(tierType), "always A, B, C, D in order", func(c *queries.Coverage) any { return c.Tiers }),
		"bothHalves":   field[*queries.Coverage](list(skillType), "tier-A skills a person step names too", func(c *queries.Coverage) any { return c.BothHalves }),
		"exempt":       field[*queries.Coverage](list(skillType), "exemptions that stand", func(c *queries.Coverage) any { return c.Exempt }),
	}})
	reachType := graphql.NewObject(graphql.ObjectConfig{Name: "Reachability", Fields: graphql.Fields{
		"roots":               field[*queries.Reachability](strList(), "", func(r *queries.Reachability) any { return strs(r.Roots) }),
		"coveredNotReachable": field[*queries.Reachability](list(skillType), "", func(r *queries.Reachability) any { return r.CoveredNotReachable }),
		"unreachableTools":    field[*queries.Reachability](list(toolType), "", func(r *queries.Reachability) any { return r.UnreachableTools }),
		"toolsWithoutCommand": field[*queries.Reachability](list(toolType), "", func(r *queries.Reachability) any { return r.ToolsWithoutCommand }),
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
	groupType := graphql.NewObject(graphql.ObjectConfig{Name: "AlternativeGroup", Fields: graphql.Fields{
		"skill": field[queries.Group](nn(skillType), "", func(g queries.Group) any { return g.Skill }),
		"tools": field[queries.Group](list(toolType), "", func(g queries.Group) any { return g.Tools }),
	}})
	altType := graphql.NewObject(graphql.ObjectConfig{Name: "Alternatives", Fields: graphql.Fields{
		"groups":           field[*queries.Alternatives](list(groupType), "", func(a *queries.Alternatives) any { return a.Groups }),
		"missingSelection": field[*queries.Alternatives](list(toolType), "", func(a *queries.Alternatives) any { return a.MissingSelection }),
		"complementary":    field[*queries.Alternatives](list(groupType), "", func(a *queries.Alternatives) any { return a.Complementary }),
	}})
	instanceType := graphql.NewObject(graphql.ObjectConfig{Name: "Instance", Fields: graphql.Fields{
		"name":    field[*queries.Instance](nn(graphql.ID), "", func(i *queries.Instance) any { return i.Name }),
		"iri":     field[*queries.Instance](nn(graphql.String), "", func(i *queries.Instance) any { return i.IRI }),
		"title":   field[*queries.Instance](graphql.String, "", func(i *queries.Instance) any { return nilIfEmpty(i.Title) }),
		"version": field[*queries.Instance](graphql.String, "", func(i *queries.Instance) any { return nilIfEmpty(i.Version) }),
		"needs":   field[*queries.Instance](strList(), "", func(i *queries.Instance) any { return strs(i.Needs) }),
	}})
	sourceType := graphql.NewObject(graphql.ObjectConfig{Name: "Source", Fields: graphql.Fields{
		"iri":      field[*queries.Source](nn(graphql.String), "graph label", func(s *queries.Source) any { return s.IRI }),
		"path":     field[*queries.Source](nn(graphql.String), "", func(s *queries.Source) any { return s.Path }),
		"parser":   field[*queries.Source](nn(graphql.String), "", func(s *queries.Source) any { return s.Parser }),
		"sha256":   field[*queries.Source](graphql.String, "", func(s *queries.Source) any { return s.SHA256 }),
		"instance": field[*queries.Source](graphql.String, "", func(s *queries.Source) any { return instName(s.Instance) }),
	}})

	query := graphql.NewObject(graphql.ObjectConfig{
		Name: "Query",
		Fields: graphql.Fields{
			"graphVersion": {Type: nn(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return int(snap(p).Version), nil }},
			"instances":    {Type: list(instanceType), Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Instances, nil }},
			"instance": {Type: instanceType, Args: graphql.FieldConfigArgument{"name": {Type: graphql.String}},
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
			"skill": {Type: skillType, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) { return nilSkill(snap(p).Skill(p.Args["id"].(string))), nil }},
			"tool": {Type: toolType, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) { return nilTool(snap(p).Tool(p.Args["id"].(string))), nil }},
			"process": {Type: processType, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if pr := snap(p).Process(p.Args["id"].(string)); pr != nil {
						return pr, nil
					}
					return nil, nil
				}},
			"bean": {Type: beanType, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if b := snap(p).Bean(p.Args["id"].(string)); b != nil {
						return b, nil
					}
					return nil, nil
				}},
			"skills":    connection("Skill", skillType, skillFilter, func(s *queries.Snapshot) []any { return anyList(s.Skills) }),
			"tools":     connection("Tool", toolType, toolFilter, func(s *queries.Snapshot) []any { return anyList(s.Tools) }),
			"processes": connection("Process", processType, processFilter, func(s *queries.Snapshot) []any { return anyList(s.Processes) }),
			"beans":     connection("Bean", beanType, beanFilter, func(s *queries.Snapshot) []any { return anyList(s.Beans) }),
			"coverage": {Type: nn(coverageType), Args: profileArg, Description: "Coverage tiers; under an exposure profile when profile is given.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, err := profiled(p)
					if err != nil {
						return nil, err
					}
					return &v.Coverage, nil
				}},
			"reachability": {Type: nn(reachType), Args: profileArg, Description: "Dispatch reachability; under an exposure profile when profile is given.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, err := profiled(p)
					if err != nil {
						return nil, err
					}
					return &v.Reach, nil
				}},
			"workflows": {Type: list(workflowType(processType, activityType, skillType)), Args: profileArg,
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
			"programs": {Type: list(programType(toolType, skillType)), Description: "Programs shell Tools run, and the skills that break without each (SPEC 5.7).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Programs, nil }},
			"gating": {Type: list(gateType(toolType, toolSkillType)), Description: "Tools gated by required tool skills (SPEC 5.6).",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					out := []*queries.Tool{}
					for _, t := range snap(p).Tools {
						if len(t.GatedBy) > 0 {
							out = append(out, t)
						}
					}
					return out, nil
				}},
			"alternatives": {Type: nn(altType), Resolve: func(p graphql.ResolveParams) (any, error) { return &snap(p).Alternatives, nil }},
			"findings": {
				Type: nn(findingConn),
				Args: graphql.FieldConfigArgument{
					"severity": {Type: severityEnum}, "code": {Type: graphql.String}, "file": {Type: graphql.String},
					"first": {Type: graphql.Int}, "after": {Type: graphql.String},
				},
				Resolve: resolveFindings,
			},
			"search": {
				Type:        list(skillOrToolType(skillType, toolType)),
				Description: "Skills and Tools whose id, name, title or description contains the text (case-insensitive).",
				Args:        graphql.FieldConfigArgument{"text": {Type: nn(graphql.String)}, "first": {Type: graphql.Int}},
				Resolve:     resolveSearch,
			},
			"sources": {Type: list(sourceType), Resolve: func(p graphql.ResolveParams) (any, error) { return snap(p).Sources, nil }},
			"ingestedAt": {Type: graphql.String, Description: "When the served snapshot was built from the store (RFC 3339).",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					if t := snap(p).BuiltAt; !t.IsZero() {
						return t.Format(time.RFC3339), nil
					}
					return nil, nil
				}},
			"packages": {Type: list(countType), Description: "Skill packages with their number of skills.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					n := map[string]int{}
					for _, sk := range snap(p).Skills {
						if sk.Package != "" {
							n[sk.Package]++
						}
					}
					return counts(n), nil
				}},
			"findingCodes": {Type: list(countType), Description: "Finding codes present, with their number.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					n := map[string]int{}
					for _, f := range snap(p).Findings {
						n[f.Code]++
					}
					return counts(n), nil
				}},
			"viewer": {Type: nn(viewerType), Description: "What the caller may do: canRecord is true with a valid bearer token.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					v, _ := p.Context.Value(viewerKey{}).(Viewer)
					return v, nil
				}},
		},
	})
	gql, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutationType()})
	if err != nil {
		return nil, fmt.Errorf("build schema: %w", err)
	}
	watchDeadline(&gql)
	return &Schema{gql: gql, intro: newIntroWeights(&gql)}, nil
}

// watchDeadline makes every resolver of the schema's own types return the
// context's error once the request deadline has passed: graphql-go runs
// the resolvers synchronously in a goroutine it does not stop, so without
// this a request whose client left would keep a core busy to the end.
// graphql's own __ types are shared by every schema of the process and
// are bounded by the introspection limits instead.
func watchDeadline(s *graphql.Schema) {
	for name, t := range s.TypeMap() {
		o, ok := t.(*graphql.Object)
		if !ok || strings.HasPrefix(name, "__") {
			continue
		}
		for _, fd := range o.Fields() {
			next := fd.Resolve
			if next == nil {
				next = graphql.DefaultResolveFn
			}
			fd.Resolve = func(p graphql.ResolveParams) (any, error) {
				if err := p.Context.Err(); err != nil {
					return nil, err
				}
				return next(p)
			}
		}
	}
}

// nilSkill avoids a typed-nil pointer reaching graphql-go as a non-null value.
func nilSkill(s *queries.Skill) any {
	if s == nil {
		return nil
	}
	return s
}

func nilTool(t *queries.Tool) any {
	if t == nil {
		return nil
	}
	return t
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func srcPath(s *queries.Source) any {
	if s == nil {
		return nil
	}
	return s.Path
}

func instName(i *queries.Instance) any {
	if i == nil {
		return nil
	}
	return i.Name
}

type contractInfo struct {
	Ref      string   `json:"ref"`
	Readable bool     `json:"readable"`
	External bool     `json:"external"`
	Required []string `json:"required"`
}

func contractView(snap *queries.Snapshot, s *queries.Skill) any {
	if s.InputRef == "" {
		return nil
	}
	ci := contractInfo{Ref: s.InputRef, Required: []string{}}
	if strings.HasPrefix(s.InputRef, "https://") || strings.HasPrefix(s.InputRef, "http://") {
		ci.External = true
		return ci
	}
	if c := snap.Contracts[s.InputIRI]; c != nil {
		ci.Readable = true
		ci.Required = strs(c.Required)
	}
	return ci
}

func skillAlternatives(s *queries.Skill) []*queries.Tool {
	var out []*queries.Tool
	for _, t := range s.Tools {
		if len(t.Alternatives) > 0 {
			out = append(out, t)
		}
	}
	return out
}

func anyList[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// encodeCursor makes an opaque cursor from an offset.
func encodeCursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("o:" + strconv.Itoa(i)))
}

var errBadCursor = errors.New("invalid cursor")

func decodeCursor(c string) (int, error) {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "o:") {
		return 0, errBadCursor
	}
	n, err := strconv.Atoi(string(b[2:]))
	if err != nil || n < 0 {
		return 0, errBadCursor
	}
	return n, nil
}

// page slices items after the cursor, first at most.
func page(n int, args map[string]any) (start, end int, err error) {
	first := 50
	if f, ok := args["first"].(int); ok {
		if f < 0 {
			return 0, 0, fmt.Errorf("first must be ≥ 0, got %d", f)
		}
		if f > MaxPage {
			return 0, 0, fmt.Errorf("first may be at most %d, got %d", MaxPage, f)
		}
		first = f
	}
	if a, ok := args["after"].(string); ok && a != "" {
		i, err := decodeCursor(a)
		if err != nil {
			return 0, 0, err
		}
		start = i + 1
	}
	start = min(start, n)
	end = min(start+first, n)
	return start, end, nil
}

func resolveFindings(p graphql.ResolveParams) (any, error) {
	s := snap(p)
	sev, _ := p.Args["severity"].(string)
	code, _ := p.Args["code"].(string)
	file, _ := p.Args["file"].(string)
	var all []queries.Finding
	for _, f := range s.Findings {
		if (sev == "" || string(f.Severity) == sev) && (code == "" || f.Code == code) && (file == "" || f.File == file) {
			all = append(all, f)
		}
	}
	return pageOf(all, p.Args)
}

// pageOf slices one Relay page out of all: totalCount, edges, nodes and
// pageInfo.
func pageOf[T any](all []T, args map[string]any) (map[string]any, error) {
	start, end, err := page(len(all), args)
	if err != nil {
		return nil, err
	}
	edges := make([]map[string]any, 0, end-start)
	for i := start; i < end; i++ {
		edges = append(edges, map[string]any{"node": all[i], "cursor": encodeCursor(i)})
	}
	pi := pageInfo{HasNextPage: end < len(all)}
	if end > start {
		pi.EndCursor = encodeCursor(end - 1)
	}
	return map[string]any{"totalCount": len(all), "edges": edges, "nodes": all[start:end], "pageInfo": pi}, nil
}

func skillOrToolType(skillType, toolType *graphql.Object) *graphql.Union {
	return graphql.NewUnion(graphql.UnionConfig{
		Name:  "SearchResult",
		Types: []*graphql.Object{skillType, toolType},
		ResolveType: func(p graphql.ResolveTypeParams) *graphql.Object {
			if _, ok := p.Value.(*queries.Skill); ok {
				return skillType
			}
			return toolType
		},
	})
}

func resolveSearch(p graphql.ResolveParams) (any, error) {
	s := snap(p)
	text := strings.ToLower(strings.TrimSpace(p.Args["text"].(string)))
	limit := 50
	if f, ok := p.Args["first"].(int); ok && f >= 0 {
		limit = min(f, MaxPage)
	}
	var out []any
	if text == "" {
		return out, nil
	}
	match := func(xs ...string) bool {
		for _, x := range xs {
			if strings.Contains(strings.ToLower(x), text) {
				return true
			}
		}
		return false
	}
	for _, sk := range s.Skills {
		if len(out) < limit && match(sk.ID, sk.Name, sk.Title, sk.Description) {
			out = append(out, sk)
		}
	}
	for _, t := range s.Tools {
		if len(out) < limit && match(t.ID, t.Title, t.Description) {
			out = append(out, t)
		}
	}
	return out, nil
}

// filterFunc keeps an item for the given arguments.
type filterFunc func(item any, args map[string]any) bool

var textArg = &graphql.ArgumentConfig{Type: graphql.String, Description: "substring of id, name, title or description"}

func contains(text string, xs ...string) bool {
	text = strings.ToLower(text)
	for _, x := range xs {
		if strings.Contains(strings.ToLower(x), text) {
			return true
		}
	}
	return false
}

func skillFilter(item any, args map[string]any) bool {
	s := item.(*queries.Skill)
	if v, ok := args["tier"].(string); ok && s.Tier != v {
		return false
	}
	if v, ok := args["tiers"].([]any); ok && len(v) > 0 {
		in := false
		for _, t := range v {
			in = in || t == s.Tier
		}
		if !in {
			return false
		}
	}
	if v, ok := args["contradicted"].(bool); ok && s.IsContradict != v {
		return false
	}
	if v, ok := args["exempt"].(bool); ok && s.Exempt != v {
		return false
	}
	if v, ok := args["covered"].(bool); ok && s.Covered != v {
		return false
	}
	if v, ok := args["package"].(string); ok && s.Package != v {
		return false
	}
	if v, ok := args["reachable"].(bool); ok && s.Reachable != v {
		return false
	}
	if v, ok := args["text"].(string); ok && !contains(v, s.ID, s.Name, s.Title, s.Description) {
		return false
	}
	return true
}

func toolFilter(item any, args map[string]any) bool {
	t := item.(*queries.Tool)
	if v, ok := args["origin"].(string); ok && t.Origin != v {
		return false
	}
	if v, ok := args["reachable"].(bool); ok && t.Reachable != v {
		return false
	}
	if v, ok := args["text"].(string); ok && !contains(v, t.ID, t.Title, t.Description) {
		return false
	}
	return true
}

func processFilter(item any, args map[string]any) bool {
	p := item.(*queries.Process)
	if v, ok := args["reachable"].(bool); ok && p.Reachable != v {
		return false
	}
	if v, ok := args["text"].(string); ok && !contains(v, p.ID, p.Stem, p.Title) {
		return false
	}
	return true
}

func beanFilter(item any, args map[string]any) bool {
	b := item.(*queries.Bean)
	if v, ok := args["status"].(string); ok && b.Status != v {
		return false
	}
	if v, ok := args["type"].(string); ok && b.Type != v {
		return false
	}
	if v, ok := args["text"].(string); ok && !contains(v, b.ID, b.Title) {
		return false
	}
	return true
}

var filterArgs = map[string]graphql.FieldConfigArgument{
	"Skill": {"tier": {Type: graphql.String}, "covered": {Type: graphql.Boolean}, "package": {Type: graphql.String},
		"reachable": {Type: graphql.Boolean}, "text": textArg,
		"tiers":        {Type: graphql.NewList(graphql.NewNonNull(graphql.String)), Description: "any of these tiers, listed in this order when orderBy is TIER"},
		"contradicted": {Type: graphql.Boolean}, "exempt": {Type: graphql.Boolean},
		"orderBy": {Type: skillOrder, Description: "ID (default), PACKAGE, or TIER (C, A, B, D, then covered)"},
		"desc":    {Type: graphql.Boolean}},
	"Tool":    {"origin": {Type: graphql.String}, "reachable": {Type: graphql.Boolean}, "text": textArg},
	"Process": {"reachable": {Type: graphql.Boolean}, "text": textArg},
	"Bean":    {"status": {Type: graphql.String}, "type": {Type: graphql.String}, "text": textArg},
}

// connection builds a Relay-style connection field with totalCount.
func connection(name string, node *graphql.Object, keep filterFunc, items func(*queries.Snapshot) []any) *graphql.Field {
	edge := graphql.NewObject(graphql.ObjectConfig{Name: name + "Edge", Fields: graphql.Fields{
		"node":   {Type: nn(node)},
		"cursor": {Type: nn(graphql.String)},
	}})
	conn := graphql.NewObject(graphql.ObjectConfig{Name: name + "Connection", Fields: graphql.Fields{
		"totalCount": {Type: nn(graphql.Int)},
		"edges":      {Type: list(edge)},
		"nodes":      {Type: list(node)},
		"pageInfo":   {Type: nn(pageInfoType)},
	}})
	args := graphql.FieldConfigArgument{"first": {Type: graphql.Int}, "after": {Type: graphql.String}}
	for k, v := range filterArgs[name] {
		args[k] = v
	}
	return &graphql.Field{
		Type: nn(conn),
		Args: args,
		Resolve: func(p graphql.ResolveParams) (any, error) {
			var all []any
			for _, it := range items(snap(p)) {
				if keep(it, p.Args) {
					all = append(all, it)
				}
			}
			if name == "Skill" {
				orderSkills(all, p.Args)
			}
			return pageOf(all, p.Args)
		},
	}
}
