package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/api"
)

// cmdQuery implements `skillgraph query`: one GraphQL document against the
// snapshot, printed as the JSON response; exit 1 when it has errors.
func cmdQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("query", stderr)
	c.register(fs)
	vars := fs.String("variables", "", "variables as a JSON object")
	op := fs.String("operation", "", "operation name")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	c.finish()
	if len(pos) != 1 {
		return fmt.Errorf("query needs exactly one GraphQL document argument")
	}
	req := api.Request{Query: pos[0], OperationName: *op}
	if *vars != "" {
		if err := json.Unmarshal([]byte(*vars), &req.Variables); err != nil {
			return fmt.Errorf("--variables: %w", err)
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
	res := schema.Execute(ctx, s, req, api.DefaultLimits)
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
