//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU this process has used, rounded.
func cpuTime() string {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return "unknown"
	}
	d := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return d.Round(10 * time.Millisecond).String()
}
