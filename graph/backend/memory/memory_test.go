package memory_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/graph/graphtest"
)

// TestSuite: the memory backend passes the shared suite: stamps, no
// checkpoint, gone with the process, writes that cannot fail half-way.
func TestSuite(t *testing.T) {
	graphtest.RunSuite(t, graphtest.Harness{
		URL:    func(*testing.T) string { return "memory" },
		Stamps: true,
	})
}
