package main

import (
	"bytes"
	"os"
	"testing"
)

// TestDocsCurrent fails when docs/vocabulary.md is not what the context
// generates.
func TestDocsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../../docs/vocabulary.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := render()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("docs/vocabulary.md is stale: run go generate ./schemas and review the diff")
	}
}
