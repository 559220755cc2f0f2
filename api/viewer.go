package api

import (
	"context"
	"sort"
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// Viewer is what the caller of a request may do.
type Viewer struct {
	CanRecord bool `json:"canRecord"` // a valid bearer token was presented
	ReadOnly  bool `json:"readOnly"`  // the server has mutations disabled
}

type viewerKey struct{}

// WithViewer returns a context that answers the viewer field.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

var viewerType = graphql.NewObject(graphql.ObjectConfig{Name: "Viewer", Fields: graphql.Fields{
	"canRecord": {Type: graphql.NewNonNull(graphql.Boolean)},
	"readOnly":  {Type: graphql.NewNonNull(graphql.Boolean)},
}})

var countType = graphql.NewObject(graphql.ObjectConfig{Name: "Count", Fields: graphql.Fields{
	"name":  {Type: graphql.NewNonNull(graphql.String)},
	"count": {Type: graphql.NewNonNull(graphql.Int)},
}})

var skillOrder = graphql.NewEnum(graphql.EnumConfig{Name: "SkillOrder", Values: graphql.EnumValueConfigMap{
	"ID": {Value: "id"}, "PACKAGE": {Value: "package"}, "TIER": {Value: "tier"},
}})

func orderSkills(all []any, args map[string]any) {
	by, _ := args["orderBy"].(string)
	desc, _ := args["desc"].(bool)
	key := func(s *queries.Skill) string { return s.ID }
	switch by {
	case "package":
		key = func(s *queries.Skill) string { return s.Package + "\x00" + s.ID }
	case "tier":
		key = func(s *queries.Skill) string { return string(rune('0'+queries.TriageRank(s.Tier))) + s.ID }
	}
	keys := make(map[any]string, len(all))
	for _, x := range all {
		keys[x] = key(x.(*queries.Skill))
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := keys[all[i]], keys[all[j]]
		if desc {
			return strings.Compare(a, b) > 0
		}
		return a < b
	})
}
