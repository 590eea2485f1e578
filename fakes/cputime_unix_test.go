//go:build unix

package fakes

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time (user + system, all threads, GC included)
// the test process has used. Benchmarks report it per operation: on a
// machine shared with other work it is far steadier than wall time.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
