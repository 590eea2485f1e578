package e2e

import (
	"bytes"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestKeyToFrame times how long a key takes to show on the screen: the
// home screen's cursor is moved down and up (j, k) in a 120×40
// pseudo-terminal, and each key is timed from its write to the first
// bytes the program draws after it. Bubble Tea writes frames only on its
// frame clock, so this is mostly the wait for the next tick (BENCHMARKS.md,
// "Startup and frame").
//
// By default it times 6 keys and checks only that every one is drawn.
// CONFLICTLAB_KEYLAT_RUNS=N times N keys and holds the median to 10 ms
// (one interval at 120 frames a second, 8.3 ms, and a little for the
// pseudo-terminal); CONFLICTLAB_KEYLAT_BEFORE=BINARY times another build
// in the same run, alternating with this one.
func TestKeyToFrame(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pseudo-terminal is opened the Linux way")
	}
	keys, strict := 6, false
	if v := os.Getenv("CONFLICTLAB_KEYLAT_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 {
			t.Fatalf("CONFLICTLAB_KEYLAT_RUNS=%q: want a number of keys, at least 2", v)
		}
		keys, strict = n, true
	}
	bins := []string{build(t)}
	if before := os.Getenv("CONFLICTLAB_KEYLAT_BEFORE"); before != "" {
		bins = append(bins, before)
	}
	lat := make([][]time.Duration, len(bins))
	// Rounds of a few keys in a fresh process each, alternating the
	// binaries, so that a drift in the machine's load weighs on both.
	const perProcess = 10
	for done := 0; done < keys; done += perProcess {
		n := min(perProcess, keys-done)
		for i, bin := range bins {
			lat[i] = append(lat[i], keyLatencies(t, bin, n)...)
		}
	}
	for i, bin := range bins {
		ds := lat[i]
		name := "this build"
		if i > 0 {
			name = bin
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		t.Logf("%s: key to frame, %d keys: median %.1f ms, p10 %.1f ms, p90 %.1f ms", name, len(ds),
			ms(median(ds)), ms(s[len(s)/10]), ms(s[len(s)*9/10]))
	}
	if strict {
		if m := median(lat[0]); m > 10*time.Millisecond {
			t.Errorf("a key takes %.1f ms to show (median), want ≤ 10 ms", ms(m))
		}
	}
}

// keyLatencies starts bin in a fresh 120×40 pseudo-terminal, waits for
// its home screen and for it to stop drawing (the first race is computed
// in the background after the home screen), then sends n keys, j and k in
// turn, and returns how long each took to bring output.
func keyLatencies(t *testing.T, bin string, n int) []time.Duration {
	t.Helper()
	run, _ := startInPTY(t, bin, []string{"XDG_STATE_HOME=" + t.TempDir()}, nil)
	defer run.stop()
	master, chunks := run.master, run.chunks
	// quiet reads until nothing has been drawn for d (or 20 s pass).
	quiet := func(d time.Duration) {
		deadline := time.After(20 * time.Second)
		for {
			select {
			case _, ok := <-chunks:
				if !ok {
					t.Fatalf("%s ended while drawing", bin)
				}
			case <-time.After(d):
				return
			case <-deadline:
				t.Fatalf("%s is still drawing after 20 s", bin)
			}
		}
	}
	var drawn bytes.Buffer
	deadline := time.After(20 * time.Second)
	for !strings.Contains(ansi.Strip(drawn.String()), "Other modes") {
		select {
		case c, ok := <-chunks:
			if !ok {
				t.Fatalf("%s ended before its home screen; it drew:\n%s", bin, ansi.Strip(drawn.String()))
			}
			drawn.Write(c.data)
		case <-deadline:
			t.Fatalf("after 20 s %s has not drawn its home screen; it drew:\n%s", bin, ansi.Strip(drawn.String()))
		}
	}
	quiet(300 * time.Millisecond)
	var out []time.Duration
	for i := 0; i < n; i++ {
		key := []byte("j")
		if i%2 == 1 {
			key = []byte("k")
		}
		sent := time.Now()
		if _, err := master.Write(key); err != nil {
			t.Fatalf("typing %q: %v", key, err)
		}
		select {
		case c, ok := <-chunks:
			if !ok {
				t.Fatalf("%s ended after %q", bin, key)
			}
			out = append(out, c.at.Sub(sent))
		case <-time.After(5 * time.Second):
			t.Fatalf("%s drew nothing for 5 s after %q", bin, key)
		}
		quiet(100 * time.Millisecond)
	}
	return out
}
