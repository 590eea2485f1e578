// Package boot holds what the process does before main so that the
// tutorial's first frames arrive sooner. cli imports it; Go initialises it
// as soon as the few packages it needs are (lipgloss and the styles, a
// little over halfway through), while the simulator's Kubernetes
// libraries are still initialising.
//
// It does three things, all undone or finished by the time they matter:
//
//   - The garbage collector is held off until the home screen is out
//     (Resume). Starting up allocates about 5 MB, just over the 4 MB at
//     which Go first collects; that one collection, in the middle of the
//     home screen's frame, took a tenth of the frame's CPU. A memory limit stays
//     in force meanwhile, so the heap cannot run away if Resume were
//     never called.
//   - The terminal-width table is built on another goroutine. Bubble
//     Tea's renderer measures every rune as the terminal does (wcwidth),
//     and go-runewidth builds its 2.2 MB table on the first rune above
//     U+02FF, which every screen of the tutorial has (borders, arrows).
//     Built during initialisation, on the other core, it is ready when
//     the first frame is drawn instead of being built inside it.
//   - The tutorial's first frame is drawn here (splash.go), before the
//     simulator's libraries are initialised; the program draws the home
//     screen over it.
//
// All three happen only when stdout is a terminal (the splash only for
// the tutorial itself, stdin a terminal too). GOGC or GOMEMLIMIT in the
// environment means the user has chosen the collector's settings: boot
// leaves it alone.
package boot

import (
	"os"
	"runtime/debug"
	"sync"

	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-runewidth"
)

// startupLimit is the memory the process may reach while the collector is
// held off: over ten times what the first frame allocates.
const startupLimit = 64 << 20

// held puts the collector's settings back; it does nothing unless init
// held the collector off.
var held = func() {}

func init() {
	// Only a process drawing on a terminal has a first frame to hurry:
	// piped commands, and test binaries, start as Go programs always do.
	if !term.IsTerminal(os.Stdout.Fd()) {
		return
	}
	held = hold(os.Getenv)
	draw := prepareSplash(term.IsTerminal(os.Stdin.Fd()))
	go func() {
		// The splash first: catching signals needs a core for the
		// runtime's signal thread, and this goroutine holds the one the
		// main goroutine leaves free.
		if draw != nil {
			draw()
		}
		// The table is shared by every runewidth.Condition, the one
		// charmbracelet/x/ansi measures with included.
		runewidth.RuneWidth('─')
	}()
}

// Resume gives the garbage collector back its settings. The tutorial
// calls it once its first frame is out; every other command calls it
// before it starts. Calling it again does nothing.
func Resume() { held() }

// hold holds the collector off unless getenv names GOGC or GOMEMLIMIT,
// and returns what puts the previous settings back (once).
func hold(getenv func(string) string) func() {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startupLimit)
	return sync.OnceFunc(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
