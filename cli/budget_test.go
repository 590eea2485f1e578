package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/ui"
)

// explode is a 1.5 KB race whose interleavings explode (issue 25).
const explode = "../testdata/hostile/explode.yaml"

// TestExploreStopsAtItsBudget: explore of a race that would run for
// hours stops at the time bound, or the memory bound, prints the tally it
// reached and says which bound stopped it and how to lift it.
func TestExploreStopsAtItsBudget(t *testing.T) {
	start := time.Now()
	code, out, errs := run(t, false, "explore", "-f", explode, "--timeout", "1s")
	if took := time.Since(start); code != ExitOK || took > 20*time.Second {
		t.Fatalf("exit %d after %s: %s", code, took, errs)
	}
	if !strings.Contains(out, "explored explode") || !strings.Contains(errs, "stopped: it took longer than 1s") ||
		!strings.Contains(errs, "--timeout 10m lifts it, --timeout 0 removes it") {
		t.Fatalf("stdout %q\nstderr %q", out, errs)
	}
	code, _, errs = run(t, false, "explore", "-f", explode, "--timeout", "0", "--max-memory", "48MiB")
	if code != ExitOK || !strings.Contains(errs, "stopped: it needed more than 48MiB of memory") ||
		!strings.Contains(errs, "--max-memory 4GiB lifts it") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	code, _, errs = run(t, false, "explore", "-f", explode, "--max-memory", "lots")
	if code != ExitUsage || !strings.Contains(errs, "--max-memory") {
		t.Fatalf("a bad size: exit %d, stderr %q", code, errs)
	}
	// The defaults bound it too, and --help says them.
	_, out, _ = run(t, false, "explore", "--help")
	if !strings.Contains(out, "--timeout duration") || !strings.Contains(out, `(default 2m0s)`) || !strings.Contains(out, `(default "1GiB")`) {
		t.Fatalf("--help does not give the bounds:\n%s", out)
	}
}

// TestTutorialExploreBudget: the tutorial and the sandbox give the
// sandbox's explorer the same bounds, flags to change them, and a notice
// that says how.
func TestTutorialExploreBudget(t *testing.T) {
	for _, args := range [][]string{{}, {"sandbox"}, {"--explore-timeout", "5s", "--explore-memory", "64MiB"}} {
		var got ui.Options
		code, _, errs := runScreen(t, true, func(o ui.Options) error { got = o; return nil }, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		b := got.SandboxEnv.Explore
		wantT, wantM := DefaultExploreTimeout, uint64(DefaultExploreMemory)
		if len(args) > 1 {
			wantT, wantM = 5*time.Second, 64<<20
		}
		if b.Timeout != wantT || b.MaxMemory != wantM || !strings.Contains(b.Lift, "--explore-timeout 10m --explore-memory 4GiB lifts it") {
			t.Fatalf("%v: the sandbox's budget is %+v", args, b)
		}
	}
}

// TestFailedSaveExitCode: a tutorial whose progress could not be saved
// when it ended exits with ExitInternal, not 0.
func TestFailedSaveExitCode(t *testing.T) {
	code, _, errs := runScreen(t, true, func(ui.Options) error {
		return &ui.NotSavedError{Err: errors.New("permission denied")}
	})
	if code != ExitInternal || !strings.Contains(errs, "progress not saved: permission denied") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// TestServeHelpSaysTheLimits: --help says that names are not
// authentication, how to admit keys only, and every limit's default.
func TestServeHelpSaysTheLimits(t *testing.T) {
	_, out, _ := run(t, false, "serve", "--help")
	for _, want := range []string{
		"A name is NOT authentication",
		"To admit SSH\nkeys only, leave --allow-names out",
		"the defaults (120, 3, 90) suit a room of\n    60 behind one NAT",
		"the burst follows the flag",
		"the login banner says\n    when to try again",
		"one tutorial per connection",
		"--max-per-key int",
		"--explore-memory string",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}
