package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/api"
)

var queryCommand = &command{
	name:    "query",
	args:    "(--corpus DIR | --store URL) [--variables JSON] [--operation NAME] 'GRAPHQL'",
	summary: "Run one GraphQL document and print the response JSON; exit 1 when it has errors.",
	params:  []param{{"GRAPHQL", "the GraphQL document, e.g. '{ coverage { total } }' (docs/schema.graphql)"}},
	setup:   setupQuery,
}

// setupQuery registers the flags of `skillgraph query`.
func setupQuery(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	vars := fs.String("variables", "", "variables as a JSON object")
	op := fs.String("operation", "", "operation name")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		if err := wantArgs("query", pos, 1, "exactly one GraphQL document"); err != nil {
			return err
		}
		req := api.Request{Query: pos[0], OperationName: *op}
		if *vars != "" {
			if err := json.Unmarshal([]byte(*vars), &req.Variables); err != nil {
				return usageError{"query", fmt.Sprintf("--variables is not a JSON object: %v", err)}
			}
		}
		s, err := c.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		schema, err := api.NewSchema()
		if err != nil {
			return err
		}
		res := schema.Execute(ctx, s, req, api.DefaultLimits())
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
		if len(res.Errors) > 0 {
			return exitError{1}
		}
		return nil
	}
}
