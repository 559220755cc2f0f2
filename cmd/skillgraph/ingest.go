package main

import (
	"context"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
)

// cmdIngest implements `skillgraph ingest`: it writes the corpora into a
// persistent store (bbolt by default) and reports what changed.
func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("ingest", stderr)
	c.register(fs)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	c.finish()
	if len(c.corpora) == 0 {
		return fmt.Errorf("ingest needs --corpus DIR")
	}
	url := c.storeURL(graph.DefaultStore)
	st, err := graph.Open(ctx, url)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := ingest.Run(ctx, st, c.corpora, ingest.Options{MaxFileSize: c.maxSize, Logger: c.logger(stderr), Progress: progressBar(stderr)})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ingested %d files into %s: %d changed, %d unchanged, %d removed, %d quads written; graph version %d (%s)\n",
		res.Files, url, res.Changed, res.Skipped, res.Removed, res.Quads, res.Version, res.Duration.Round(1e6))
	return nil
}
