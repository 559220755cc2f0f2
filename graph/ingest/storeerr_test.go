package ingest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/discover"
)

// TestStoreErrorNamesGraphs: an ingest whose commit fails says which
// graphs (files) it was writing.
func TestStoreErrorNamesGraphs(t *testing.T) {
	ctx := context.Background()
	st, err := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = ingest.Run(ctx, st, []string{"../../ingest/testdata/mini"}, ingest.Options{})
	if err == nil {
		t.Fatal("ingest into a closed store succeeded")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "#source/") {
		t.Errorf("the error names no graph: %v", err)
	}
}

// TestLoadHonoursContext: discovery of a corpus stops on a cancelled
// context instead of walking it.
func TestLoadHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c, err := discover.Load(ctx, "../../ingest/testdata/mini", discover.Options{}); err == nil {
		c.Close()
		t.Fatal("Load with a cancelled context succeeded")
	}
}
