package procstatus

import (
	"os"
	"runtime"
	"testing"
)

// TestKB: this process's resident set is read, by pid 0 and by its own
// pid, and grows by what it touches; a field or a process that is not
// there is said so.
func TestKB(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/status is Linux's")
	}
	before, ok := KB(0, "VmRSS")
	if !ok || before == 0 {
		t.Fatalf("VmRSS of this process: %d, %v", before, ok)
	}
	if n, ok := KB(os.Getpid(), "VmHWM"); !ok || n < before/2 {
		t.Fatalf("VmHWM by pid: %d, %v (VmRSS %d)", n, ok, before)
	}
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1
	}
	after, _ := KB(0, "VmRSS")
	if after < before+60<<10 {
		t.Fatalf("VmRSS %d KiB after touching 64 MiB, %d before", after, before)
	}
	runtime.KeepAlive(held)
	if _, ok := KB(0, "NoSuchField"); ok {
		t.Fatal("a field that is not there was read")
	}
	if _, ok := KB(1<<30, "VmRSS"); ok {
		t.Fatal("a process that is not there was read")
	}
}
