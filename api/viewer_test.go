package api_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestViewerKeysDiffer: the response cache and the shared root fields key
// an answer on the viewer, so two viewers that may see or do different
// things must never share a key (a token holder's answer served to an
// anonymous caller, or the reverse).
func TestViewerKeysDiffer(t *testing.T) {
	seen := map[string]api.Viewer{}
	for _, v := range []api.Viewer{{}, {CanRecord: true}, {ReadOnly: true}, {CanRecord: true, ReadOnly: true}} {
		k := v.Key()
		if other, dup := seen[k]; dup {
			t.Fatalf("viewers %+v and %+v share the key %q", other, v, k)
		}
		seen[k] = v
	}
}
