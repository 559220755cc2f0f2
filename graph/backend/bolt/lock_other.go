//go:build !unix

package bolt

// checkNotLocked is a no-op where flock is unavailable.
func checkNotLocked(string) error { return nil }
