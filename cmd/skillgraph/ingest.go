package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/graph"
)

var ingestCommand = &command{
	name:    "ingest",
	args:    "--corpus DIR [--corpus DIR2] [--store URL]",
	summary: "Write the corpora into a persistent store (bbolt by default) and report what changed.",
	about:   "Only changed files are written; files that disappeared leave the store. A progress bar is shown on a terminal.",
	setup:   setupIngest,
}

// setupIngest registers `skillgraph ingest`'s flags.
func setupIngest(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	return func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
		c.finish()
		if len(c.corpora) == 0 {
			return usageError{"ingest", "needs --corpus DIR"}
		}
		if err := c.requireContent(); err != nil {
			return err
		}
		url := c.storeURL(graph.DefaultStore)
		st, err := graph.Open(ctx, url)
		if err != nil {
			return err
		}
		defer st.Close()
		res, err := ingestTallied(ctx, st, c.corpora, c.ingestOptions(stderr, true))
		if err != nil {
			return err
		}
		recordIngest(ctx, st, res.Version, c.corpora[0], stderr)
		fmt.Fprintf(stdout, "ingested %d files into %s: %d changed, %d unchanged, %d removed, %d quads written; graph version %d (%s)\n",
			res.Files, url, res.Changed, res.Skipped, res.Removed, res.Quads, res.Version, res.Duration.Round(1e6))
		return nil
	}
}
