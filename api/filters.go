package api

import (
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

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
