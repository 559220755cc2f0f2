package main

import (
	"context"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
)

// cmdExport implements `skillgraph export`: the whole store (or the given
// corpora alone) as N-Quads or JSON-LD.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("export", stderr)
	c.register(fs)
	format := fs.String("format", "nquads", "nquads or jsonld")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	c.finish()
	// With a corpus the export is of that corpus alone: a fresh memory store.
	def := graph.DefaultStore
	if len(c.corpora) > 0 {
		def = "memory"
	}
	url := c.storeURL(def)
	st, err := graph.Open(ctx, url)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(c.corpora) > 0 {
		if _, err := ingest.Run(ctx, st, c.corpora, ingest.Options{MaxFileSize: c.maxSize, Logger: c.logger(stderr)}); err != nil {
			return err
		}
	}
	switch *format {
	case "nquads":
		_, err := st.WriteNQuads(ctx, stdout)
		return err
	case "jsonld":
		return server.ExportJSONLD(ctx, st, stdout, 0)
	}
	return fmt.Errorf("--format must be nquads or jsonld, not %q", *format)
}
