package boot

import (
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// The splash is the tutorial's first frame, drawn from init.
//
// Go initialises every package a program links before main runs, and the
// tutorial links the simulator's Kubernetes libraries: their
// initialisation is about a quarter of the time to the home screen
// (BENCHMARKS.md, "Startup and frame"). The first frame needs none of
// them, so boot draws it as soon as the styles are initialised: the
// alternate screen, cleared, the cursor hidden, and the header the
// program's own first frame has (chrome.Header, with the styles the
// program starts with). The program then starts as always and draws the
// home screen over it; the header stays where it was.
//
// From the splash until the program takes the terminal (HandOver), the
// terminal is boot's to give back: a signal in that window, or a return
// that never started the program (Leave), puts back the main screen and
// the cursor. The splash changes no tty setting, so there is nothing else
// to restore. The program's signal handling takes over boot's channel,
// so that no signal falls between the two.

// splash is a first frame on the screen, and whose it is to take down.
type splash struct {
	// shown is closed once the frame is up, or known not to be: until
	// then nobody else writes to the terminal.
	shown chan struct{}
	mu    sync.Mutex
	out   io.Writer
	owned bool // up, and the program has not taken the terminal
	sigs  chan os.Signal
	done  chan struct{}
	exit  func(code int)
}

// current is this process's splash (nil: none was drawn).
var current *splash

// splashSignals are those the program catches (chrome.EndSignals): their
// default action would kill the process with the splash still up.
var splashSignals = chrome.EndSignals

// wantSplash says whether this process is the tutorial on a terminal large
// enough for its screens: no arguments (a subcommand, a flag or --help
// draws something else, or prints), stdin and stdout terminals, and a
// known size of at least chrome.MinWidth × chrome.MinHeight (below it the
// program says how large it needs to be, with no header).
func wantSplash(args []string, terminal bool, w, h int) bool {
	return len(args) == 1 && terminal && w >= chrome.MinWidth && h >= chrome.MinHeight
}

// splashFrame is what the splash writes: the alternate screen, cleared,
// the cursor hidden, and the header of a w-cell window in the program's
// first styles (dark until the terminal says otherwise; no colour for
// NO_COLOR), in the colours the profile has.
func splashFrame(w int, noColor bool, profile colorprofile.Profile) string {
	if noColor {
		profile = colorprofile.Ascii // as ui.NewSession draws with NO_COLOR
	}
	var b strings.Builder
	b.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen)
	cw := &colorprofile.Writer{Forward: &b, Profile: profile}
	_, _ = cw.WriteString(chrome.Header(styles.New(true, noColor), "", w))
	return b.String()
}

// newSplash is a splash to show on out; exit ends the process.
func newSplash(out io.Writer, exit func(int)) *splash {
	return &splash{shown: make(chan struct{}), out: out, sigs: make(chan os.Signal, len(splashSignals)), done: make(chan struct{}), exit: exit}
}

// show catches the signals that would leave the frame up, then draws it;
// it reports whether the frame is up (out may refuse it).
//
// The tutorial runs show on a goroutine of its own, beside the packages
// still initialising: catching a signal the first time starts a thread
// for the runtime's signal mask and waits until a core runs it. On the
// main goroutine, with the other core building the width table, that
// took 2.5 to 9 ms, delaying everything after it.
func (s *splash) show(frame string) bool {
	defer close(s.shown)
	// Caught before the frame is written: a signal between the two would
	// leave the frame up.
	signal.Notify(s.sigs, splashSignals...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := io.WriteString(s.out, frame); err != nil {
		signal.Stop(s.sigs)
		return false
	}
	s.owned = true
	return true
}

// watch ends the process on a signal that comes before the program has
// taken the terminal, the terminal given back first, with 128 + the
// signal's number as the program would (130 for SIGINT). A signal it
// takes just as the program takes over goes back on the channel, which
// the program reads from then on (HandOver).
func (s *splash) watch() {
	select {
	case sig := <-s.sigs:
		if !s.takeDown() {
			select {
			case s.sigs <- sig:
			default: // the program has more signals than it needs to end
			}
			return
		}
		code := 128
		if n, ok := sig.(syscall.Signal); ok {
			code += int(n)
		}
		s.exit(code)
	case <-s.done:
	}
}

// takeDown puts the main screen and the cursor back if the splash is
// still up and boot's, stops catching signals, and reports whether it
// did.
func (s *splash) takeDown() bool {
	<-s.shown
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.owned {
		return false
	}
	s.owned = false
	_, _ = io.WriteString(s.out, ansi.ShowCursor+ansi.ResetModeAltScreenSaveCursor)
	signal.Stop(s.sigs)
	close(s.done)
	return true
}

// handOver leaves the terminal to the program, and the channel on which
// the end signals are caught, still caught: nil if the splash is not up.
func (s *splash) handOver() chan os.Signal {
	<-s.shown
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.owned {
		return nil
	}
	s.owned = false
	close(s.done)
	return s.sigs
}

// HandOver is called by the program that draws over the splash, just
// before it takes the terminal: from then on the program gives the
// terminal back. It returns the channel on which SIGHUP, SIGINT, SIGQUIT
// and SIGTERM have been caught since the splash, for the program's own
// handling to read and, when it is done, signal.Stop: a signal that came
// before the program was ready is waiting on it, and none can slip
// between the two handlers. It waits for a splash still being drawn, and
// returns nil when none is up.
func HandOver() chan os.Signal {
	if current != nil {
		return current.handOver()
	}
	return nil
}

// Leave takes the splash down if the program never took the terminal
// (the tutorial ended before it started: an error to print on the main
// screen). It does nothing after HandOver, or when no splash was drawn.
func Leave() {
	if current != nil {
		current.takeDown()
	}
}

// prepareSplash makes this process's splash when it wants one, and
// returns what draws it (on a goroutine of its own); nil when it wants
// none.
func prepareSplash(terminal bool) func() {
	w, h := 0, 0
	if terminal {
		w, h, _ = term.GetSize(os.Stdout.Fd())
		w = min(w, chrome.MaxWidth) // the program's screens are no wider (chrome.Bound)
	}
	if !wantSplash(os.Args, terminal, w, h) {
		return nil
	}
	noColor := os.Getenv("NO_COLOR") != ""
	s := newSplash(os.Stdout, os.Exit)
	current = s
	return func() {
		// lipgloss detected the terminal's colours when it was initialised
		// (before this package, which needs it): the program uses the same.
		if s.show(splashFrame(w, noColor, lipgloss.Writer.Profile)) {
			go s.watch()
		}
	}
}
