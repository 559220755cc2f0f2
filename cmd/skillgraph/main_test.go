package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestUsageNamesEveryVerb guards the usage text against drifting from the
// dispatch in run: every verb run accepts is listed.
func TestUsageNamesEveryVerb(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &out, &errb); err != nil {
		t.Fatalf("help: %v (stderr %q)", err, errb.String())
	}
	for _, verb := range []string{"ingest", "check", "coverage", "query", "serve", "export", "gen", "version"} {
		t.Run(verb, func(t *testing.T) {
			if !strings.Contains(out.String(), "skillgraph "+verb) {
				t.Errorf("usage does not list %q:\n%s", verb, out.String())
			}
		})
	}
}
