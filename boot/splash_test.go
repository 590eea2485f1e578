package boot

import (
	"bytes"
	"errors"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

const splashModes = ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen

func TestWantSplash(t *testing.T) {
	for _, c := range []struct {
		name     string
		args     []string
		terminal bool
		w, h     int
		want     bool
	}{
		{"the tutorial on a terminal", []string{"conflictlab"}, true, 80, 24, true},
		{"a large window", []string{"conflictlab"}, true, 300, 90, true},
		{"a subcommand", []string{"conflictlab", "sim"}, true, 80, 24, false},
		{"a flag", []string{"conflictlab", "--lessons", "dir"}, true, 80, 24, false},
		{"stdin not a terminal", []string{"conflictlab"}, false, 80, 24, false},
		{"too narrow for the screens", []string{"conflictlab"}, true, 79, 24, false},
		{"too short for the screens", []string{"conflictlab"}, true, 80, 23, false},
		{"size unknown", []string{"conflictlab"}, true, 0, 0, false},
	} {
		if got := wantSplash(c.args, c.terminal, c.w, c.h); got != c.want {
			t.Errorf("%s: wantSplash = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTheProgramDrawsOverTheSplashInPlace: the program's first frame (the
// home screen, in the styles it starts with) begins with the splash's
// header, styled alike, and its "? keys" ends in the same cell: what the
// learner sees first stays where it is, the title is added beside it.
func TestTheProgramDrawsOverTheSplashInPlace(t *testing.T) {
	for _, w := range []int{chrome.MinWidth, 120} {
		d := uitest.New(t, ui.New(ui.Options{Ticker: uitest.Ticker}), w, 30)
		first, _, _ := strings.Cut(d.Model.View().Content, "\n")
		if !strings.Contains(ansi.Strip(first), "› lessons") {
			t.Fatalf("%d columns: the program's first frame is not the home screen: %q", w, ansi.Strip(first))
		}
		frame := splashFrame(w, false, colorprofile.TrueColor)
		header, ok := strings.CutPrefix(frame, splashModes)
		if !ok {
			t.Fatalf("the splash does not begin by taking the alternate screen, hiding the cursor and clearing: %q", frame)
		}
		brand := chrome.Brand(styles.New(true, false))
		if !strings.HasPrefix(header, brand) || !strings.HasPrefix(first, brand) {
			t.Errorf("%d columns: the splash's header %q and the program's %q do not both begin with %q", w, header, first, brand)
		}
		seen, drawn := ansi.Strip(header), ansi.Strip(first)
		if ansi.StringWidth(seen) != w || ansi.StringWidth(drawn) != w {
			t.Errorf("%d columns: the splash's header is %d cells wide, the program's %d", w, ansi.StringWidth(seen), ansi.StringWidth(drawn))
		}
		if !strings.HasSuffix(seen, "? keys ") || !strings.HasSuffix(drawn, "? keys ") {
			t.Errorf("%d columns: \"? keys\" moves from %q to %q", w, seen, drawn)
		}
		if strings.Contains(header, "\n") {
			t.Errorf("the splash is more than the header's line: %q", header)
		}
	}
}

func TestSplashColours(t *testing.T) {
	if f := splashFrame(80, false, colorprofile.ANSI256); !strings.Contains(f, "38;5;") || strings.Contains(f, "38;2;") {
		t.Errorf("on a 256-colour terminal the splash is not in 256 colours: %q", f)
	}
	// NO_COLOR: no colour at all, whatever the terminal has, as the program
	// draws then.
	f := splashFrame(80, true, colorprofile.TrueColor)
	if strings.Contains(f, "38;") || strings.Contains(f, "48;") {
		t.Errorf("with NO_COLOR the splash has colours: %q", f)
	}
	if !strings.Contains(ansi.Strip(f), " Conflict Lab") {
		t.Errorf("with NO_COLOR the splash has no header: %q", f)
	}
}

// exits records what the splash's exit was asked for.
func exits() (func(int), chan int) {
	ch := make(chan int, 1)
	return func(code int) { ch <- code }, ch
}

// noExit fails if the splash has asked to end the process (after what).
func noExit(t *testing.T, codes chan int, after string) {
	t.Helper()
	select {
	case c := <-codes:
		t.Errorf("the process was ended (%d) after %s", c, after)
	default:
	}
}

const restore = ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor

// shown is a splash of "FRAME" on out, up and watched as the tutorial's.
func shown(t *testing.T, out *bytes.Buffer, exit func(int)) *splash {
	t.Helper()
	s := newSplash(out, exit)
	if !s.show("FRAME") {
		t.Fatal("the splash was not shown")
	}
	go s.watch()
	return s
}

func TestLeaveGivesTheTerminalBackOnce(t *testing.T) {
	var out bytes.Buffer
	exit, codes := exits()
	s := shown(t, &out, exit)
	if out.String() != "FRAME" {
		t.Fatalf("show wrote %q", out.String())
	}
	if !s.takeDown() {
		t.Fatal("the splash was up and boot's, yet takeDown did nothing")
	}
	if out.String() != "FRAME"+restore {
		t.Fatalf("taking the splash down wrote %q, want the cursor and the main screen back", strings.TrimPrefix(out.String(), "FRAME"))
	}
	if s.takeDown() {
		t.Error("a second takeDown wrote again")
	}
	if s.handOver() != nil { // after Leave: nothing left to hand over
		t.Error("HandOver after Leave gave a signal channel")
	}
	if out.String() != "FRAME"+restore {
		t.Errorf("after the splash was down, more was written: %q", out.String())
	}
	noExit(t, codes, "Leave")
}

// TestAfterHandOverTheProgramGetsTheSignals: after HandOver, Leave
// writes nothing, boot's watcher has stopped, and a real SIGHUP arrives
// on the channel HandOver returned, for the program, without ending the
// process.
func TestAfterHandOverTheProgramGetsTheSignals(t *testing.T) {
	var out bytes.Buffer
	exit, codes := exits()
	s := shown(t, &out, exit)
	caught := s.handOver()
	if caught == nil {
		t.Fatal("HandOver of a splash that is up gave no signal channel")
	}
	defer signal.Stop(caught)
	if s.takeDown() || out.String() != "FRAME" {
		t.Fatalf("after HandOver, Leave wrote %q", strings.TrimPrefix(out.String(), "FRAME"))
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("HandOver did not stop the signal watcher")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case sig := <-caught:
		if sig != syscall.SIGHUP {
			t.Errorf("the program's channel got %v, want SIGHUP", sig)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a SIGHUP after HandOver did not reach the program's channel")
	}
	noExit(t, codes, "HandOver")
	if s.handOver() != nil {
		t.Error("a second HandOver gave the channel again")
	}
}

// TestASignalBeforeTheProgramGivesTheTerminalBack sends the process a real
// SIGHUP while the splash catches it: the terminal is given back, then the
// process ends with 129, as the program would.
func TestASignalBeforeTheProgramGivesTheTerminalBack(t *testing.T) {
	var out bytes.Buffer
	exit, codes := exits()
	s := shown(t, &out, exit)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-codes:
		if code != 129 {
			t.Errorf("exit code %d, want 129 (128 + SIGHUP)", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGHUP during the splash did not end the process")
	}
	s.mu.Lock()
	got := out.String()
	s.mu.Unlock()
	if got != "FRAME"+restore {
		t.Errorf("before ending, the splash wrote %q; want the cursor and the main screen back", strings.TrimPrefix(got, "FRAME"))
	}
	if s.takeDown() {
		t.Error("after the signal the splash was still up")
	}
}

type brokenTerminal struct{}

func (brokenTerminal) Write([]byte) (int, error) { return 0, errors.New("EIO") }

func TestNoSplashWhenTheTerminalRefusesIt(t *testing.T) {
	exit, _ := exits()
	s := newSplash(brokenTerminal{}, exit)
	if s.show("FRAME") {
		t.Fatal("a splash the terminal refused is taken for up")
	}
	if s.takeDown() {
		t.Fatal("Leave wrote to a terminal that refused the splash")
	}
}

// TestNoSplashHere: a test binary has arguments and no terminal: nothing
// was drawn, and HandOver and Leave do nothing.
func TestNoSplashHere(t *testing.T) {
	if current != nil {
		t.Fatal("the test binary drew a splash")
	}
	HandOver()
	Leave()
}
