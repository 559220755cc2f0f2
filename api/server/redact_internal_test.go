package server

import "testing"

// TestRedactedStore: /readyz names the store it waits for without the
// password of its DSN.
func TestRedactedStore(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"memory", "memory"},
		{"bbolt:/var/lib/sg/graph.db", "bbolt:/var/lib/sg/graph.db"},
		{"postgres:postgres://sg:s3cret@db:5432/sg?sslmode=disable", "postgres:postgres://sg:xxxxx@db:5432/sg?sslmode=disable"},
		{"postgresql://sg:s3cret@db/sg", "postgresql://sg:xxxxx@db/sg"},
	} {
		if got := redactedStore(tc.in); got != tc.want {
			t.Errorf("redactedStore(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
