package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CoverageIn are the arguments of the coverage tool.
type CoverageIn struct {
	Profile string `json:"profile,omitempty" jsonschema:"an exposure profile declared by an instance (SPEC §5.5); empty for the full graph"`
}

// CoverageOut is the coverage tool's answer: GraphQL coverage { total uncovered tiers { tier count } }.
type CoverageOut struct {
	Total     int         `json:"total" jsonschema:"skills in the graph"`
	Uncovered int         `json:"uncovered" jsonschema:"skills no Tool really performs"`
	Tiers     []TierCount `json:"tiers" jsonschema:"tiers A, B, C, D in that order"`
}

// TierCount is one tier and its number of skills.
type TierCount struct {
	Tier  string `json:"tier"`
	Count int    `json:"count"`
}

const coverageQuery = `query($profile: String) { coverage(profile: $profile) { total uncovered tiers { tier count } } }`

func (h *handler) coverage(ctx context.Context, _ *mcp.CallToolRequest, in CoverageIn) (*mcp.CallToolResult, CoverageOut, error) {
	var d struct{ Coverage CoverageOut }
	vars := map[string]any{}
	if in.Profile != "" {
		vars["profile"] = in.Profile
	}
	err := h.run(ctx, coverageQuery, vars, &d)
	return nil, d.Coverage, err
}

// FindToolIn are the arguments of find_tool_for_skill.
type FindToolIn struct {
	Skill string `json:"skill" jsonschema:"a skill id: its name, or package/name"`
}

// FindToolOut is the answer of find_tool_for_skill.
type FindToolOut struct {
	Skill   string       `json:"skill" jsonschema:"the skill's id"`
	Title   string       `json:"title,omitempty"`
	Covered bool         `json:"covered" jsonschema:"a Tool really performs it"`
	Tier    string       `json:"tier,omitempty" jsonschema:"A, B, C or D when no Tool covers it"`
	Tools   []ToolChoice `json:"tools" jsonschema:"the Tools that really perform it (valid satisfies edges)"`
}

// ToolChoice is one Tool that performs the skill, with what helps pick it.
type ToolChoice struct {
	ID           string     `json:"id"`
	Title        string     `json:"title,omitempty"`
	Description  string     `json:"description,omitempty"`
	Transports   []string   `json:"transports" jsonschema:"mcp, shell, container, inProcess, manual"`
	Selection    *Selection `json:"selection,omitempty" jsonschema:"when to pick it; absent unless complete"`
	Alternatives []string   `json:"alternatives" jsonschema:"ids of derived substitutes (same skill, same I/O signature)"`
	Reachable    bool       `json:"reachable"`
	Parity       string     `json:"parity,omitempty" jsonschema:"MCP parity state when the Tool has an MCP side"`
}

// Selection says when to pick a Tool.
type Selection struct {
	When   string `json:"when"`
	Limits string `json:"limits"`
	Cost   string `json:"cost"`
}

const findToolQuery = `query($id: ID!) { skill(id: $id) { id title covered tier
  tools { id title description transports reachable selection { when limits cost } alternatives { id } parity { state } } } }`

func (h *handler) findTool(ctx context.Context, _ *mcp.CallToolRequest, in FindToolIn) (*mcp.CallToolResult, FindToolOut, error) {
	var d struct {
		Skill *struct {
			ID, Title, Tier string
			Covered         bool
			Tools           []struct {
				ID, Title, Description string
				Transports             []string
				Reachable              bool
				Selection              *Selection
				Alternatives           []struct{ ID string }
				Parity                 *struct{ State string }
			}
		}
	}
	if strings.TrimSpace(in.Skill) == "" {
		return nil, FindToolOut{}, fmt.Errorf("skill is empty: name a skill id")
	}
	if err := h.run(ctx, findToolQuery, map[string]any{"id": in.Skill}, &d); err != nil {
		return nil, FindToolOut{}, err
	}
	if d.Skill == nil {
		return nil, FindToolOut{}, fmt.Errorf("no skill %q in the graph", in.Skill)
	}
	out := FindToolOut{Skill: d.Skill.ID, Title: d.Skill.Title, Covered: d.Skill.Covered, Tier: d.Skill.Tier, Tools: []ToolChoice{}}
	for _, t := range d.Skill.Tools {
		c := ToolChoice{ID: t.ID, Title: t.Title, Description: t.Description, Transports: t.Transports,
			Selection: t.Selection, Reachable: t.Reachable, Alternatives: []string{}}
		if c.Transports == nil {
			c.Transports = []string{}
		}
		for _, a := range t.Alternatives {
			c.Alternatives = append(c.Alternatives, a.ID)
		}
		if t.Parity != nil {
			c.Parity = t.Parity.State
		}
		out.Tools = append(out.Tools, c)
	}
	return nil, out, nil
}

// ReachIn are the arguments of reachability.
type ReachIn struct {
	Kind string `json:"kind" jsonschema:"skill, tool or process"`
	ID   string `json:"id" jsonschema:"the entity's id (a process by process/@id or file stem)"`
}

// ReachOut is the answer of reachability.
type ReachOut struct {
	Kind      string   `json:"kind"`
	ID        string   `json:"id"`
	Reachable bool     `json:"reachable"`
	Witness   []string `json:"witness" jsonschema:"the path from a root, root first; empty when nothing reaches it"`
}

func (h *handler) reachability(ctx context.Context, _ *mcp.CallToolRequest, in ReachIn) (*mcp.CallToolResult, ReachOut, error) {
	switch in.Kind {
	case "skill", "tool", "process":
	default:
		return nil, ReachOut{}, fmt.Errorf("kind must be skill, tool or process, not %q", in.Kind)
	}
	var d map[string]*struct {
		ID        string
		Reachable bool
		Witness   []string
	}
	q := fmt.Sprintf(`query($id: ID!) { entity: %s(id: $id) { id reachable witness } }`, in.Kind)
	if err := h.run(ctx, q, map[string]any{"id": in.ID}, &d); err != nil {
		return nil, ReachOut{}, err
	}
	e := d["entity"]
	if e == nil {
		return nil, ReachOut{}, fmt.Errorf("no %s %q in the graph", in.Kind, in.ID)
	}
	w := e.Witness
	if w == nil {
		w = []string{}
	}
	return nil, ReachOut{Kind: in.Kind, ID: e.ID, Reachable: e.Reachable, Witness: w}, nil
}

// FindingsIn are the arguments of findings.
type FindingsIn struct {
	File     string `json:"file,omitempty" jsonschema:"only the findings of this file (relative to its corpus)"`
	Severity string `json:"severity,omitempty" jsonschema:"ERROR, WARNING or INFO"`
	Code     string `json:"code,omitempty" jsonschema:"only this finding code"`
	First    int    `json:"first,omitempty" jsonschema:"page size (default 50, at most 500)"`
	After    string `json:"after,omitempty" jsonschema:"the endCursor of the previous page"`
}

// FindingsOut is one page of findings.
type FindingsOut struct {
	TotalCount  int       `json:"totalCount"`
	Findings    []Finding `json:"findings"`
	EndCursor   string    `json:"endCursor,omitempty"`
	HasNextPage bool      `json:"hasNextPage"`
}

// Finding is one integrity finding.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
}

const findingsQuery = `query($file: String, $severity: Severity, $code: String, $first: Int, $after: String) {
  findings(file: $file, severity: $severity, code: $code, first: $first, after: $after) {
    totalCount nodes { code severity file line message } pageInfo { endCursor hasNextPage } } }`

func (h *handler) findings(ctx context.Context, _ *mcp.CallToolRequest, in FindingsIn) (*mcp.CallToolResult, FindingsOut, error) {
	vars := map[string]any{}
	for k, v := range map[string]string{"file": in.File, "severity": strings.ToUpper(in.Severity), "code": in.Code, "after": in.After} {
		if v != "" {
			vars[k] = v
		}
	}
	if in.First != 0 {
		vars["first"] = in.First
	}
	var d struct {
		Findings struct {
			TotalCount int
			Nodes      []Finding
			PageInfo   struct {
				EndCursor   string
				HasNextPage bool
			}
		}
	}
	if err := h.run(ctx, findingsQuery, vars, &d); err != nil {
		return nil, FindingsOut{}, err
	}
	out := FindingsOut{TotalCount: d.Findings.TotalCount, Findings: d.Findings.Nodes, EndCursor: d.Findings.PageInfo.EndCursor, HasNextPage: d.Findings.PageInfo.HasNextPage}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	return nil, out, nil
}

// GraphQLIn are the arguments of graphql.
type GraphQLIn struct {
	Query     string         `json:"query" jsonschema:"one GraphQL query document (docs/schema.graphql)"`
	Variables map[string]any `json:"variables,omitempty" jsonschema:"its variables"`
}

// GraphQLOut is the query's data.
type GraphQLOut struct {
	Data map[string]any `json:"data" jsonschema:"the data of the response, as /graphql answers it"`
}

func (h *handler) graphql(ctx context.Context, _ *mcp.CallToolRequest, in GraphQLIn) (*mcp.CallToolResult, GraphQLOut, error) {
	if isMutation(in.Query) {
		return nil, GraphQLOut{}, fmt.Errorf("mutations are not offered over MCP: use POST /graphql with the maintainer token")
	}
	var d map[string]any
	if err := h.run(ctx, in.Query, in.Variables, &d); err != nil {
		return nil, GraphQLOut{}, err
	}
	if d == nil {
		d = map[string]any{}
	}
	return nil, GraphQLOut{Data: d}, nil
}

// isMutation reports whether the document's first word is "mutation"
// (after comments and white space). A mutation would be refused without
// the token anyway (api.ErrMutationsDisabled); this says why up front.
func isMutation(q string) bool {
	for {
		q = strings.TrimLeft(q, " \t\r\n,\ufeff")
		if !strings.HasPrefix(q, "#") {
			break
		}
		if i := strings.IndexAny(q, "\r\n"); i >= 0 {
			q = q[i:]
		} else {
			q = ""
		}
	}
	return strings.HasPrefix(q, "mutation")
}
