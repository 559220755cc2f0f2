package api

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// MaxPage caps `first` and `last` on every connection.
const MaxPage = 500

// defaultPage is the page size when neither first nor last is given.
const defaultPage = 50

var pageInfoType = graphql.NewObject(graphql.ObjectConfig{
	Name:        "PageInfo",
	Description: "Relay page information; the cursors are null on an empty page.",
	Fields: graphql.Fields{
		"hasNextPage":     {Type: graphql.NewNonNull(graphql.Boolean), Description: "items follow the page"},
		"hasPreviousPage": {Type: graphql.NewNonNull(graphql.Boolean), Description: "items precede the page"},
		"startCursor":     {Type: graphql.String},
		"endCursor":       {Type: graphql.String},
	},
})

// pagingArgs are the Relay arguments of every connection.
func pagingArgs() graphql.FieldConfigArgument {
	return graphql.FieldConfigArgument{
		"first":  {Type: graphql.Int, Description: "at most this many items from the start (default 50, at most 500)"},
		"after":  {Type: graphql.String, Description: "items after this cursor"},
		"last":   {Type: graphql.Int, Description: "at most this many items from the end (at most 500)"},
		"before": {Type: graphql.String, Description: "items before this cursor"},
	}
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

// pageSize reads first or last: absent is -1, out of range an error.
func pageSize(args map[string]any, name string) (int, error) {
	f, ok := args[name].(int)
	if !ok {
		return -1, nil
	}
	if f < 0 {
		return 0, fmt.Errorf("%s must be ≥ 0, got %d", name, f)
	}
	if f > MaxPage {
		return 0, fmt.Errorf("%s may be at most %d, got %d", name, MaxPage, f)
	}
	return f, nil
}

// page slices n items as Relay's pagination algorithm does: after and
// before narrow the range, then first keeps its start and last its end.
// Without first and last the page is the first 50. first: 0 (or last: 0)
// is an empty page whose pageInfo still says what lies around it.
func page(n int, args map[string]any) (start, end int, err error) {
	first, err := pageSize(args, "first")
	if err != nil {
		return 0, 0, err
	}
	last, err := pageSize(args, "last")
	if err != nil {
		return 0, 0, err
	}
	end = n
	if a, ok := args["after"].(string); ok && a != "" {
		i, err := decodeCursor(a)
		if err != nil {
			return 0, 0, err
		}
		start = min(i+1, n)
	}
	if b, ok := args["before"].(string); ok && b != "" {
		i, err := decodeCursor(b)
		if err != nil {
			return 0, 0, err
		}
		end = max(min(i, n), start)
	}
	if first < 0 && last < 0 {
		first = defaultPage
	}
	if first >= 0 {
		end = min(end, start+first)
	}
	if last >= 0 {
		start = max(start, end-last)
	}
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
	pi := map[string]any{"hasNextPage": end < len(all), "hasPreviousPage": start > 0, "startCursor": nil, "endCursor": nil}
	if end > start {
		pi["startCursor"] = encodeCursor(start)
		pi["endCursor"] = encodeCursor(end - 1)
	}
	return map[string]any{"totalCount": len(all), "edges": edges, "nodes": all[start:end], "pageInfo": pi}, nil
}

// flagFilterKey names the filter of args when every filter it sets is a
// boolean (reachable, covered, …): lists a snapshot's memo may hold
// (memoFiltered, capped). Text filters are never memoised.
func flagFilterKey(args map[string]any, filters graphql.FieldConfigArgument) (string, bool) {
	names := make([]string, 0, len(filters))
	for k, a := range filters {
		if _, set := args[k]; !set || k == "orderBy" || k == "desc" {
			continue
		}
		if a.Type != graphql.Boolean {
			return "", false
		}
		if _, ok := args[k].(bool); !ok {
			return "", false
		}
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "%s=%t;", k, args[k].(bool))
	}
	return b.String(), true
}

// filtered reports whether args has a filter argument (orderBy and desc
// only order).
func filtered(args map[string]any, filters graphql.FieldConfigArgument) bool {
	for k := range filters {
		if _, ok := args[k]; ok && k != "orderBy" && k != "desc" {
			return true
		}
	}
	return false
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
	args := pagingArgs()
	for k, v := range filterArgs[name] {
		args[k] = v
	}
	return &graphql.Field{
		Type: nn(conn),
		Args: args,
		Resolve: func(p graphql.ResolveParams) (any, error) {
			s := snap(p)
			var src []any
			if name == "Skill" {
				src = orderedSkills(s, p.Args)
			} else {
				src = memoList(memoOf(s), name, func() []any { return items(s) })
			}
			if !filtered(p.Args, filterArgs[name]) {
				return pageOf(src, p.Args) // the whole list, shared: pageOf only reads it
			}
			keepAll := func() []any {
				var all []any
				for _, it := range src {
					if keep(it, p.Args) {
						all = append(all, it)
					}
				}
				return all
			}
			if key, ok := flagFilterKey(p.Args, filterArgs[name]); ok {
				// A client paging through reachable: true asks the same
				// filter once per page: kept once per snapshot.
				order := name
				if name == "Skill" {
					order = skillOrderKey(p.Args)
				}
				return pageOf(memoFiltered(memoOf(s), order+"?"+key, keepAll), p.Args)
			}
			return pageOf(keepAll(), p.Args)
		},
	}
}
