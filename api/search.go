package api

import (
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

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
