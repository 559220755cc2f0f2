//go:build !unix

package graph

// checkNotLocked is a no-op where flock is unavailable.
func checkNotLocked(string) error { return nil }
