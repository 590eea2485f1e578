package simcluster

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// libraries are the packages between the code's call and the transport;
// the call site is the first frame outside them.
var libraries = []string{
	"runtime.", "net/http.", "net/url.", "context.", "sync.", "reflect.",
	"k8s.io/client-go/", "k8s.io/apimachinery/", "sigs.k8s.io/controller-runtime/",
	"github.com/conflictlab/conflictlab/simcluster.",
}

// call is what the stack says about a call being served.
type call struct {
	// site is where the code made it: "reconcile.go:42", the timeline's
	// purpose for the step and what a report of nondeterminism names.
	site string
	// inReconcile: the calling goroutine is a reconcile's (the harness's
	// worker loop is at the bottom of its stack; a goroutine the code
	// started has its own function there).
	inReconcile bool
	// inRetry: it was made inside a retry helper (client-go's retry,
	// apimachinery's wait), which sleeps on the wall clock after a
	// failure before it calls again.
	inRetry bool
}

// callSite reads the stack of the call being served.
func callSite() call {
	var buf [64]uintptr
	pcs := buf[:]
	for {
		n := runtime.Callers(3, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	c := call{site: "?"}
	found := false
	for _, pc := range pcs {
		f := frameOf(pc)
		if !found && f.site != "" {
			c.site, found = f.site, true
		}
		c.inRetry = c.inRetry || f.retry
		if f.loop {
			c.inReconcile = true
			return c
		}
	}
	return c
}

// pcFrame is what a return address says about a call: the call site it
// is in the code (empty for a library frame), and whether it is the
// worker loop or a retry helper. Symbolising frames is most of
// callSite's cost, and a program has few distinct return addresses: each
// is worked out once.
type pcFrame struct {
	site  string
	loop  bool
	retry bool
}

var pcFrames sync.Map // uintptr → pcFrame

func frameOf(pc uintptr) pcFrame {
	if f, ok := pcFrames.Load(pc); ok {
		return f.(pcFrame)
	}
	var out pcFrame
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		// An inlined call expands into several frames: the innermost
		// outside the libraries is the site.
		f, more := frames.Next()
		if out.site == "" && !isLibrary(f.Function) {
			out.site = fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		}
		out.loop = out.loop || f.Function == workerLoop
		out.retry = out.retry || strings.HasPrefix(f.Function, "k8s.io/client-go/util/retry.") ||
			strings.HasPrefix(f.Function, "k8s.io/apimachinery/pkg/util/wait.")
		if !more {
			break
		}
	}
	pcFrames.Store(pc, out)
	return out
}

// workerLoop is the function every reconcile goroutine runs.
const workerLoop = "github.com/conflictlab/conflictlab/simcluster.(*codeActor).loop"

func isLibrary(fn string) bool {
	for _, p := range libraries {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
