package mcpserve

import (
	"context"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/queries"
)

// MaxCompletions is the most values one completion/complete answers (the
// MCP spec's own cap); total and hasMore say how many more there are.
const MaxCompletions = 100

// complete answers completion/complete for the skill resource template's
// arguments: package completes package names, id the skill ids of the
// package already chosen (context.arguments.package) or of every
// package. Any other reference is invalid params, as the spec asks for an
// unknown prompt or template.
func (h *handler) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	if p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" || p.Ref.URI != SkillURITemplate {
		ref := "nothing"
		if p != nil && p.Ref != nil {
			ref = p.Ref.Type + " " + p.Ref.Name + p.Ref.URI
		}
		return nil, invalidParams("no completion for " + strings.TrimSpace(ref) + ": only the arguments of " + SkillURITemplate + " complete")
	}
	snap := h.snapshot()
	if snap == nil {
		return nil, errNoSnapshot
	}
	var chosen string
	if p.Context != nil {
		chosen = p.Context.Arguments["package"]
	}
	var values []string
	switch p.Argument.Name {
	case "package":
		values = skillValues(snap, func(s *queries.Skill) string { return s.Package }, "", p.Argument.Value)
	case "id":
		values = skillValues(snap, func(s *queries.Skill) string { return s.Name }, chosen, p.Argument.Value)
	default:
		return nil, invalidParams("no argument " + p.Argument.Name + " in " + SkillURITemplate + ": package or id")
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}
	if len(values) > MaxCompletions {
		res.Completion.Values = values[:MaxCompletions]
		res.Completion.HasMore = true
	}
	return res, nil
}

// skillValues are the distinct values of key over the skills that have a
// package (the template's skills) in package pkg (any when ""), starting
// with prefix, sorted.
func skillValues(snap *queries.Snapshot, key func(*queries.Skill) string, pkg, prefix string) []string {
	seen := map[string]bool{}
	values := []string{}
	for _, s := range snap.Skills {
		if s.Package == "" || (pkg != "" && s.Package != pkg) {
			continue
		}
		v := key(s)
		if v == "" || seen[v] || !strings.HasPrefix(v, prefix) {
			continue
		}
		seen[v] = true
		values = append(values, v)
	}
	sort.Strings(values)
	return values
}

// invalidParams is a JSON-RPC invalid-params error (-32602).
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
