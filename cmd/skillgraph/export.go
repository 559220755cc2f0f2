package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
)

var exportCommand = &command{
	name:    "export",
	args:    "(--corpus DIR | --store URL) [--format nquads|jsonld]",
	summary: "Print the whole store (or the given corpora alone) as N-Quads or JSON-LD; 'skillgraph import' reads it back.",
	about:   "The export holds every named graph, triage decisions included, so it is a backup of the store.",
	values:  map[string][]string{"format": {"nquads", "jsonld"}},
	setup:   setupExport,
}

// setupExport registers the flags of `skillgraph export`.
func setupExport(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	format := fs.String("format", "nquads", "nquads or jsonld")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		if *format != "nquads" && *format != "jsonld" {
			return usageError{"export", fmt.Sprintf("--format must be nquads or jsonld, not %q", *format)}
		}
		if len(c.corpora) > 0 {
			if err := c.requireContent(); err != nil {
				return err
			}
		}
		// With a corpus the export is of that corpus alone: a fresh memory store.
		def := graph.DefaultStore
		if len(c.corpora) > 0 {
			def = "memory"
		}
		url := c.storeURL(def)
		open := graph.Open
		if len(c.corpora) == 0 { // only read: the store must be there
			open = openToRead
		}
		st, err := open(ctx, url)
		if err != nil {
			return err
		}
		defer st.Close()
		if len(c.corpora) > 0 {
			if _, err := ingest.Run(ctx, st, c.corpora, ingest.Options{MaxFileSize: c.maxSize, Logger: c.logger(stderr)}); err != nil {
				return err
			}
		}
		if *format == "jsonld" {
			return server.ExportJSONLD(ctx, st, stdout, 0)
		}
		_, err = st.WriteNQuads(ctx, stdout)
		return err
	}
}
