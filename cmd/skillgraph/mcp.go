package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/mcpserve"
	"github.com/skillgraph/skillgraph/queries"
)

var mcpCommand = &command{
	name:    "mcp",
	args:    "(--corpus DIR | --store URL)",
	summary: "Serve the graph to an agent as an MCP server on stdin/stdout (read-only tools: list_skills, get_skill, coverage, find_tool_for_skill, reachability, findings, diff, graphql).",
	about: "Speaks MCP (JSON-RPC 2.0, one message per line) on stdin and stdout, for an agent host that starts it as a stdio server; " +
		"logs go to stderr. The corpus is read once, at start. Every tool is read-only and answers as GraphQL does, under the same limits; " +
		"docs/mcp.md shows the host configuration.",
	setup: setupMCP,
}

// setupMCP registers the flags of `skillgraph mcp`.
func setupMCP(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	return func(ctx context.Context, _ []string, _, stderr io.Writer) error {
		c.finish()
		snap, err := c.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		schema, err := api.NewSchema()
		if err != nil {
			return err
		}
		files, err := api.OpenCorpusFolders(c.corpora)
		if err != nil {
			return err
		}
		defer files.Close()
		var differ mcpserve.Differ
		if len(c.corpora) > 0 {
			differ = revisionDiffer(c.corpora, c.maxSize, func() []sarifCorpus { return c.found })
		}
		srv := mcpserve.New(mcpserve.Options{
			Files:    files,
			Diff:     differ,
			Snapshot: func() *queries.Snapshot { return snap },
			Schema:   schema,
			Limits:   api.DefaultLimits(),
			Version:  currentBuild().Version,
		})
		// The host ends the server by closing stdin: that is a clean end.
		if err := srv.Run(ctx, mcpserve.Stdio(os.Stdin, os.Stdout)); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
			return fmt.Errorf("mcp server: %w", err)
		}
		return nil
	}
}
