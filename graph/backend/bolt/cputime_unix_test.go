//go:build unix

package bolt

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) this process has used: the
// benchmarks report it beside the wall time, which on a shared machine
// mostly measures the other processes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
