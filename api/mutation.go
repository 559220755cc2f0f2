package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphql-go/graphql"
)

// Mutator performs the authenticated mutations. The server implements it;
// api only describes them, so it never reaches back into ingest.
type Mutator interface {
	// RecordTriage stores a maintainer's verdict on a skill in the triage
	// graph and returns the new graph version.
	RecordTriage(ctx context.Context, skill, verdict, note string) (int64, error)
	// Reingest re-reads the given corpus-relative paths (all files when
	// empty) and returns the new graph version.
	Reingest(ctx context.Context, paths []string) (int64, error)
}

type mutatorKey struct{}

// WithMutator returns a context whose mutations go to m. Without one,
// mutations are refused.
func WithMutator(ctx context.Context, m Mutator) context.Context {
	return context.WithValue(ctx, mutatorKey{}, m)
}

// ErrMutationsDisabled is returned when no Mutator is in the context.
var ErrMutationsDisabled = errors.New("mutations are disabled: the server has no SKILLGRAPH_TOKEN, or the request is not authenticated")

// Verdicts a maintainer may record (SPEC §6.3).
var Verdicts = []string{"mechanism", "judgement", "split"}

func mutationType() *graphql.Object {
	result := graphql.NewObject(graphql.ObjectConfig{Name: "MutationResult", Fields: graphql.Fields{
		"graphVersion": {Type: graphql.NewNonNull(graphql.Int)},
	}})
	verdictEnum := graphql.NewEnum(graphql.EnumConfig{Name: "Verdict", Values: graphql.EnumValueConfigMap{
		"mechanism": {Value: "mechanism", Description: "a Tool should perform it"},
		"judgement": {Value: "judgement", Description: "a person performs it"},
		"split":     {Value: "split", Description: "mechanism plus judgement"},
	}})
	return graphql.NewObject(graphql.ObjectConfig{
		Name: "Mutation",
		Fields: graphql.Fields{
			"recordTriage": {
				Type:        graphql.NewNonNull(result),
				Description: "Record a triage verdict for a skill; kept across re-ingests (bearer token required).",
				Args: graphql.FieldConfigArgument{
					"skill":   {Type: graphql.NewNonNull(graphql.ID)},
					"verdict": {Type: graphql.NewNonNull(verdictEnum)},
					"note":    {Type: graphql.String},
				},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					m, ok := p.Context.Value(mutatorKey{}).(Mutator)
					if !ok {
						return nil, ErrMutationsDisabled
					}
					skill := p.Args["skill"].(string)
					if s := snap(p); s != nil && s.Skill(skill) == nil {
						return nil, fmt.Errorf("no skill %q", skill)
					}
					note, _ := p.Args["note"].(string)
					v, err := m.RecordTriage(p.Context, skill, p.Args["verdict"].(string), note)
					if err != nil {
						return nil, err
					}
					return map[string]any{"graphVersion": int(v)}, nil
				},
			},
			"reingest": {
				Type:        graphql.NewNonNull(result),
				Description: "Re-read the corpus (bearer token required); paths are informational, every changed file is re-ingested.",
				Args:        graphql.FieldConfigArgument{"paths": {Type: graphql.NewList(graphql.NewNonNull(graphql.String))}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					m, ok := p.Context.Value(mutatorKey{}).(Mutator)
					if !ok {
						return nil, ErrMutationsDisabled
					}
					var paths []string
					if xs, ok := p.Args["paths"].([]any); ok {
						for _, x := range xs {
							if s, ok := x.(string); ok {
								paths = append(paths, s)
							}
						}
					}
					v, err := m.Reingest(p.Context, paths)
					if err != nil {
						return nil, err
					}
					return map[string]any{"graphVersion": int(v)}, nil
				},
			},
		},
	})
}
