package queries

import (
	"context"
	"reflect"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// TestDecodeChangesInParallelIsSerial: a cold start's Update decodes its
// graphs on several goroutines; the nodes are the ones, in the order, the
// serial decode gives (the snapshot's answers rest on that order).
func TestDecodeChangesInParallelIsSerial(t *testing.T) {
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 120, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	changes := append(res.Changes, graph.Change{Graph: res.Changes[0].Graph + "-gone", Delete: true})
	serial := decodeChangesOn(changes, 1)
	if len(serial) < len(res.Changes) {
		t.Fatalf("%d nodes of %d graphs", len(serial), len(res.Changes))
	}
	for _, workers := range []int{2, 3, 7} {
		got := decodeChangesOn(changes, workers)
		if len(got) != len(serial) {
			t.Fatalf("%d workers: %d nodes, serially %d", workers, len(got), len(serial))
		}
		for i := range got {
			if !reflect.DeepEqual(*got[i], *serial[i]) {
				t.Fatalf("%d workers: node %d is %s in %s, serially %s in %s", workers, i, got[i].iri, got[i].graph, serial[i].iri, serial[i].graph)
			}
		}
	}
}
