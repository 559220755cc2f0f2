//go:build !unix

package main

// cpuTime is not measured where getrusage is missing.
func cpuTime() string { return "unknown" }
