package server_test

import (
	"os"
	"os/exec"
	"testing"
)

// nodeClients is the node binary and the node_modules of the independent
// clients scripts/test.sh installs (scripts/conformance); the test skips
// without them, and fails when SKILLGRAPH_REQUIRE_CONFORMANCE=1 says they
// must be there.
func nodeClients(t *testing.T) (node, mods string) {
	t.Helper()
	mods = os.Getenv("SKILLGRAPH_NODE_MODULES")
	if mods == "" {
		if os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			t.Fatal("SKILLGRAPH_REQUIRE_CONFORMANCE=1 but SKILLGRAPH_NODE_MODULES is unset (scripts/test.sh installs the clients)")
		}
		t.Skip("SKILLGRAPH_NODE_MODULES unset: cd scripts/conformance && npm ci, then set it to that node_modules")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("SKILLGRAPH_NODE_MODULES is set but node is missing: %v", err)
	}
	return node, mods
}
