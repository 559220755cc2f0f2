package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestCheckedInClientIsCurrent (issue 25.9): clients/typescript/schema.ts
// is what tsgen writes from the schema's introspection now (regenerate
// with go run ./cmd/tsgen), it is TypeScript esbuild compiles, and it has
// the types dashboards use.
func TestCheckedInClientIsCurrent(t *testing.T) {
	want, err := Generate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../clients/typescript/schema.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("clients/typescript/schema.ts is stale: run go run ./cmd/tsgen and review the diff")
	}
	res := api.Transform(string(got), api.TransformOptions{Loader: api.LoaderTS, Sourcefile: "schema.ts"})
	for _, m := range res.Errors {
		t.Errorf("esbuild: %s (line %d)", m.Text, m.Location.Line)
	}
	for _, want := range []string{"export interface Skill extends Node {", "export interface Query {", "export interface QuerySkillArgs {",
		"export type Severity = ", "export type SearchResult = Skill | Tool;", "export async function query<T = Query>("} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the client lacks %q", want)
		}
	}
}
