package api

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/schema.graphql")

// TestSchemaDoc keeps docs/schema.graphql equal to the served schema.
func TestSchemaDoc(t *testing.T) {
	s, err := NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	got := s.SDL()
	const path = "../docs/schema.graphql"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Fatal("docs/schema.graphql is stale: run go test ./api -run TestSchemaDoc -update and review the diff")
	}
}
