package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// BenchmarkCheckFindingCost: what one more finding costs `check --corpus`
// with no store, ingest and snapshot together (issue #28 row 14), the way
// it is built now (direct: the converted quads, no store written) and the
// way it was (stored: written into a memory store, read back). One file
// of n invalid tools, named (kept, with their findings) or nameless (only
// findings); the difference of B/op between two n over their difference
// is one finding's own. Run:
// go test ./cmd/skillgraph -run '^$' -bench CheckFindingCost -benchtime 3x -benchmem
func BenchmarkCheckFindingCost(b *testing.B) {
	ctx := context.Background()
	for _, named := range []bool{false, true} {
		for _, n := range []int{100, 450} {
			root := writeTree(b, map[string]string{"mcp/m.json": invalidTools(n, named)})
			b.Run(fmt.Sprintf("direct/named=%v/%d", named, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					st, err := graph.Open(ctx, "memory")
					if err != nil {
						b.Fatal(err)
					}
					if _, err := snapshotOfCorpora(ctx, st, []string{root}, ingest.Options{}); err != nil {
						b.Fatal(err)
					}
					st.Close()
				}
			})
			b.Run(fmt.Sprintf("stored/named=%v/%d", named, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					storedSnapshot(ctx, b, []string{root})
				}
			})
		}
	}
}
