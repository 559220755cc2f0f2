package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// writeMCPTools prints the snapshot's Tools as one MCP tools/list result.
func writeMCPTools(w io.Writer, snap *queries.Snapshot, server string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(snap.MCPTools(server)); err != nil {
		return fmt.Errorf("write the tools/list result: %w", err)
	}
	return nil
}

var exportCommand = &command{
	name:    "export",
	args:    "(--corpus DIR | --store URL) [--format nquads|jsonld|mcp-tools] [--server NAME]",
	summary: "Print the whole store (or the given corpora alone) as N-Quads or JSON-LD; 'skillgraph import' reads it back. --format mcp-tools prints the Tools as an MCP tools/list result.",
	about: "The export holds every named graph, triage decisions included, so it is a backup of the store. " +
		"--format mcp-tools projects the Tools into one MCP tools/list result (revision 2025-11-25): name from invoke.mcp.tool or the Tool id, " +
		"the description verbatim, inputSchema and outputSchema from the ports, annotations only where the Tool states them; " +
		"--server NAME keeps the Tools whose invoke.mcp names that server.",
	values: map[string][]string{"format": {"nquads", "jsonld", "mcp-tools"}},
	setup:  setupExport,
}

// setupExport registers the flags of `skillgraph export`.
func setupExport(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	format := fs.String("format", "nquads", "nquads, jsonld or mcp-tools")
	serverName := fs.String("server", "", "with --format mcp-tools: only the Tools whose invoke.mcp names this server")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		if *format != "nquads" && *format != "jsonld" && *format != "mcp-tools" {
			return usageError{"export", fmt.Sprintf("--format must be nquads, jsonld or mcp-tools, not %q", *format)}
		}
		if *serverName != "" && *format != "mcp-tools" {
			return usageError{"export", "--server goes with --format mcp-tools"}
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
		if len(c.corpora) > 0 && ephemeral(url) {
			// No store that lasts: N-Quads are written as the files are
			// converted, JSON-LD compacted from the converted quads and
			// the Tools taken from their snapshot, none through a memory
			// Cayley store (17.2 GB for a 100k-skill corpus, issue #27).
			switch *format {
			case "nquads":
				return exportCorpora(ctx, &c, stdout, stderr)
			case "jsonld":
				return exportCorporaJSONLD(ctx, &c, stdout, stderr)
			case "mcp-tools":
				snap, err := c.snapshotNoStore(ctx, stderr, false)
				if err != nil {
					return err
				}
				return writeMCPTools(stdout, snap, *serverName)
			}
		}
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
			if _, err := ingest.Run(ctx, st, c.corpora, c.ingestOptions(stderr, false)); err != nil {
				return err
			}
		}
		switch *format {
		case "jsonld":
			return server.ExportJSONLD(ctx, st, stdout, 0)
		case "mcp-tools":
			snap, err := queries.Build(ctx, st)
			if err != nil {
				return err
			}
			return writeMCPTools(stdout, snap, *serverName)
		}
		_, err = st.WriteNQuads(ctx, stdout)
		return err
	}
}

// exportCorpora writes the corpora's quads as N-Quads while they are
// converted (ingest.Stream), a window of files at a time: the lines a
// memory store's export of them holds, in the order of the files.
func exportCorpora(ctx context.Context, c *common, stdout, stderr io.Writer) error {
	w := bufio.NewWriterSize(stdout, 1<<16)
	return streamQuads(ctx, c, stderr, func(q quad.Quad) error {
		if _, err := w.WriteString(q.NQuad() + "\n"); err != nil {
			return fmt.Errorf("write the export: %w", err)
		}
		return nil
	}, func() error {
		// Each window out whole: an export stopped later (a signal, a
		// failed conversion) has printed whole lines of whole windows.
		if err := w.Flush(); err != nil {
			return fmt.Errorf("write the export: %w", err)
		}
		return nil
	})
}

// exportCorporaJSONLD writes the corpora as one compacted JSON-LD
// document: every converted quad is held (the document needs them all),
// as quads, not in a store's indexes.
func exportCorporaJSONLD(ctx context.Context, c *common, stdout, stderr io.Writer) error {
	var qs []quad.Quad
	err := streamQuads(ctx, c, stderr, func(q quad.Quad) error {
		qs = append(qs, q)
		return nil
	}, nil)
	if err != nil {
		return err
	}
	return server.WriteJSONLD(stdout, qs)
}

// streamQuads hands each quad of c's corpora, normalised as a store's
// export reads it (graph.Normalize), to each as the files are converted
// (ingest.Stream), and calls window, when set, after each window's.
func streamQuads(ctx context.Context, c *common, stderr io.Writer, each func(quad.Quad) error, window func() error) error {
	_, err := ingest.Stream(ctx, c.corpora, c.ingestOptions(stderr, false), func(_ context.Context, changes []graph.Change) error {
		for _, ch := range changes {
			for _, q := range ch.Quads {
				if err := each(graph.Normalize(q)); err != nil {
					return err
				}
			}
		}
		if window != nil {
			return window()
		}
		return nil
	})
	return err
}
