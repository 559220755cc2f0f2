package api

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// MaxPage caps `first` on every connection.
const MaxPage = 500

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
