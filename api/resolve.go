package api

import (
	"context"
	"fmt"

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

func anyList[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
