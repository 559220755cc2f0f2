// Command loadnq loads an N-Quads file (as written by `skillgraph export
// --format nquads`) into a skillgraph store through skillgraph's own store
// layer (graph.Open + graph.Apply, one Change per named graph), so that
// `skillgraph query --store` can answer from exactly the quads that Cayley's
// CLI and Oxigraph load. It is the "same quads" half of skillgraph in
// cmd/sidebyside/run.sh; `skillgraph ingest` (from the corpus files) is the
// other half.
//
//	go run ./cmd/sidebyside/loadnq -store bbolt:/tmp/x/g.db FILE.nq
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/skillgraph/skillgraph/graph"
)

func main() {
	store := flag.String("store", "", "store URL (bbolt:PATH or memory)")
	flag.Parse()
	if *store == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: loadnq -store bbolt:PATH FILE.nq")
		os.Exit(2)
	}
	if err := run(*store, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "loadnq:", err)
		os.Exit(1)
	}
}

func run(url, path string) error {
	ctx := context.Background()
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	byGraph := map[string][]quad.Quad{}
	r := nquads.NewReader(f, false)
	n := 0
	for {
		q, err := r.ReadQuad()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: quad %d: %w", path, n+1, err)
		}
		label := ""
		if q.Label != nil {
			label = quad.ToString(q.Label)
			if iri, ok := q.Label.(quad.IRI); ok {
				label = string(iri)
			}
		}
		byGraph[label] = append(byGraph[label], graph.Normalize(q))
		n++
	}
	parsed := time.Since(start)
	changes := graph.ChangesOf(byGraph)
	s, err := graph.Open(ctx, url)
	if err != nil {
		return err
	}
	v, err := s.Apply(ctx, changes)
	if err != nil {
		s.Close()
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	fmt.Printf("loaded %d quads in %d graphs into %s: graph version %d (parse %.3fs, total %.3fs)\n",
		n, len(changes), url, v, parsed.Seconds(), time.Since(start).Seconds())
	return nil
}
