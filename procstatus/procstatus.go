// Package procstatus reads a process's memory figures from Linux's
// /proc/PID/status (VmRSS, the resident set; VmHWM, its peak), for the
// tests and soaks that hold the tutorial and the workshop server to a
// memory bound.
package procstatus

import (
	"os"
	"strconv"
	"strings"
)

// KB is field's value in KiB for process pid (0: this process); ok is
// false where there is no such file or field (not Linux, the process
// gone).
func KB(pid int, field string) (kb uint64, ok bool) {
	path := "/proc/self/status"
	if pid != 0 {
		path = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, found := strings.CutPrefix(line, field+":"); found {
			n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
