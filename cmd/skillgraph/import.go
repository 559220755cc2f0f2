package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

var importCommand = &command{
	name:    "import",
	args:    "FILE --store URL [--format auto|nquads|jsonld]",
	summary: "Restore an export (N-Quads or JSON-LD, as 'skillgraph export' writes them) into a store: a backup restored, or a graph moved from bbolt to PostgreSQL.",
	about: "The store then holds exactly the export's named graphs, triage decisions included: graphs it held that the export lacks are " +
		"removed, in the same one transaction, and the graph version is bumped. Exporting it again gives the same export.",
	params: []param{{"FILE", "the export to read; - reads standard input"}},
	values: map[string][]string{"format": {"auto", "nquads", "jsonld"}},
	setup:  setupImport,
}

// setupImport registers the flags of `skillgraph import`.
func setupImport(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	format := fs.String("format", "auto", "auto (JSON-LD when the file starts with { or [), nquads or jsonld")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if err := wantArgs("import", pos, 1, "one FILE (an export)"); err != nil {
			return err
		}
		if c.store == "" {
			return usageError{"import", "needs --store URL (memory, bbolt:PATH or postgres:DSN, or SKILLGRAPH_STORE)"}
		}
		if len(c.corpora) > 0 {
			return usageError{"import", "reads an export, not a corpus: --corpus does not apply"}
		}
		switch *format {
		case "auto", "nquads", "jsonld":
		default:
			return usageError{"import", fmt.Sprintf("--format must be auto, nquads or jsonld, not %q", *format)}
		}
		in := io.Reader(os.Stdin)
		if pos[0] != "-" {
			f, err := os.Open(pos[0])
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			defer f.Close()
			in = f
		}
		changes, n, err := readExport(ctx, bufio.NewReader(in), *format)
		if err != nil {
			return fmt.Errorf("import %s: %w", pos[0], err)
		}
		st, err := graph.Open(ctx, c.store)
		if err != nil {
			return err
		}
		defer st.Close()
		changes, err = replaceAll(ctx, st, changes)
		if err != nil {
			return err
		}
		v, err := st.Apply(ctx, changes)
		if err != nil {
			return fmt.Errorf("import into %s: %w", c.store, err)
		}
		fmt.Fprintf(stdout, "imported %d quads in %d graphs into %s; graph version %d\n", n, countWrites(changes), c.store, v)
		return nil
	}
}

// readExport parses an export into one change per named graph. The store's
// bookkeeping graph is never imported: the target keeps its own version.
// It stops when ctx is done (SIGTERM): between quads, and inside the
// JSON-LD conversion (jsonld.ImportQuads).
func readExport(ctx context.Context, r *bufio.Reader, format string) ([]graph.Change, int, error) {
	if format == "auto" {
		format = "nquads"
		if b, err := peekNonSpace(r); err == nil && (b == '{' || b == '[') {
			format = "jsonld"
		}
	}
	var qs []quad.Quad
	switch format {
	case "jsonld":
		var doc any
		dec := json.NewDecoder(r)
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, 0, fmt.Errorf("not JSON-LD: %w", err)
		}
		var err error
		if qs, err = jsonld.ImportQuads(ctx, doc); err != nil {
			return nil, 0, err
		}
	default:
		rd := nquads.NewReader(r, false)
		for line := 1; ; line++ {
			if line%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, 0, err
				}
			}
			q, err := rd.ReadQuad()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, 0, fmt.Errorf("not N-Quads (quad %d): %w", line, err)
			}
			qs = append(qs, q)
		}
	}
	byGraph := map[string][]quad.Quad{}
	n := 0
	for _, q := range qs {
		l, ok := q.Label.(quad.IRI)
		if !ok {
			return nil, 0, fmt.Errorf("a quad outside any named graph (%s): a skillgraph export names the graph of every quad", q.NQuad())
		}
		if string(l) == graph.MetaGraph {
			continue
		}
		byGraph[string(l)] = append(byGraph[string(l)], q)
		n++
	}
	if n == 0 {
		return nil, 0, errors.New("no quads: an empty file is not an export (export an empty store gives no file worth restoring)")
	}
	return graph.ChangesOf(byGraph), n, nil
}

// replaceAll adds the deletion of every graph the store holds that the
// export does not, so the store ends up holding the export exactly.
func replaceAll(ctx context.Context, st *graph.Store, changes []graph.Change) ([]graph.Change, error) {
	keep := map[string]bool{}
	for _, c := range changes {
		keep[c.Graph] = true
	}
	stale := map[string]bool{}
	err := st.Each(ctx, func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) != graph.MetaGraph && !keep[string(l)] {
			stale[string(l)] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", st.URL(), err)
	}
	labels := make([]string, 0, len(stale))
	for l := range stale {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		changes = append(changes, graph.Change{Graph: l, Delete: true})
	}
	return changes, nil
}

func countWrites(changes []graph.Change) int {
	n := 0
	for _, c := range changes {
		if !c.Delete {
			n++
		}
	}
	return n
}

// peekNonSpace is the first byte after leading white space, unread.
func peekNonSpace(r *bufio.Reader) (byte, error) {
	for i := 1; ; i++ {
		b, err := r.Peek(i)
		if err != nil {
			return 0, err
		}
		if c := b[i-1]; !bytes.ContainsRune([]byte(" \t\r\n"), rune(c)) {
			return c, nil
		}
	}
}
