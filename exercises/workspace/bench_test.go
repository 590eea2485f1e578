//go:build unix

package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/workspace"
)

// BenchmarkEditToVerdict is the learner's loop once the workspace has
// been built: a save of exercise 1's code, then its check (go test
// offline: compile the package, link the test binary, explore the race,
// read the verdict back). It reports the CPU of the go commands it runs
// (child-cpu-ms/op), steadier than the wall clock on a loaded machine.
// BENCHMARKS.md, "Exercises".
func BenchmarkEditToVerdict(b *testing.B) {
	all, err := exercises.Course()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "ws")
	if err := workspace.Init(ctx, dir, all, workspace.Options{Source: os.DirFS(filepath.Join("..", ".."))}); err != nil {
		b.Fatal(err)
	}
	x := all[0]
	if _, err := workspace.Check(ctx, dir, x, workspace.CheckOptions{}); err != nil { // the first build
		b.Fatal(err)
	}
	name := exercises.Files(x.Start)[0]
	code := filepath.Join(dir, x.Dir, name)
	before := childCPU()
	n := 0
	for b.Loop() {
		n++
		src := append(append([]byte(nil), x.Start[name]...), fmt.Sprintf("\n// edit %d\n", n)...)
		if err := os.WriteFile(code, src, 0o644); err != nil {
			b.Fatal(err)
		}
		res, err := workspace.Check(ctx, dir, x, workspace.CheckOptions{})
		if err != nil || res.Verdict == nil {
			b.Fatalf("no verdict: %v %+v", err, res)
		}
	}
	b.ReportMetric(float64((childCPU()-before).Milliseconds())/float64(n), "child-cpu-ms/op")
}

// childCPU is the user and system time of the child processes that have
// ended (the go commands and what they ran).
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
