package main

import (
	"bytes"
	"os"
	"testing"
)

// TestDocsCurrent fails when docs/findings.md is not what the registry
// generates: the docs cannot drift from the codes.
func TestDocsCurrent(t *testing.T) {
	const path = "../../../../docs/findings.md"
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := render(); !bytes.Equal(got, want) {
		t.Fatal("docs/findings.md is stale: run go generate ./ingest/record and review the diff")
	}
}
