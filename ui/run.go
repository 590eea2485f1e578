package ui

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
)

// TraceEnv names a file to which the app appends its startup timings
// ("first-frame 12.3ms"); BENCHMARKS.md reads it.
const TraceEnv = "CONFLICTLAB_TRACE_STARTUP"

// Options start the program.
type Options struct {
	In     io.Reader
	Out    io.Writer
	Getenv func(string) string
	// Start is when the process started (for the startup trace).
	Start time.Time
	// Pack is the lesson pack to teach (--lessons), already loaded so that
	// a broken one is reported before the screen is taken; nil is the
	// built-in course.
	Pack *lessons.Pack
	// OpenSandbox starts on the sandbox (conflictlab sandbox), on Sandbox
	// when set (-f FILE), already loaded so that a broken file is reported
	// before the screen is taken; SandboxFile is its path.
	OpenSandbox bool
	Sandbox     *scenario.Scenario
	SandboxFile string
}

// Run runs the tutorial until the learner quits.
func Run(o Options) error {
	cfg := newConfig(o)
	opts := []tea.ProgramOption{}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		opts = append(opts, tea.WithOutput(o.Out))
	}
	if cfg.NoColor {
		// colorprofile honours NO_COLOR only when it parses as a boolean;
		// no-color.org says any non-empty value counts.
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	// Every signal that ends a terminal session ends the program as q
	// does, the terminal given back and the progress saved (signals.go).
	opts = append(opts, tea.WithoutSignalHandler())
	prog := tea.NewProgram(New(cfg), opts...)
	ended := endOnSignals(prog)
	defer ended.release()
	final, err := prog.Run()
	if serr := saveOnExit(final); serr != nil && o.Out != nil {
		fmt.Fprintf(o.Out, "conflictlab: progress not saved: %s\r\n", termsafe.Escape(serr.Error()))
	}
	if derr := keepDraftOnExit(final); derr != nil && o.Out != nil {
		fmt.Fprintf(o.Out, "conflictlab: the sandbox's race was not kept: %s\r\n", termsafe.Escape(derr.Error()))
	}
	// Replays on a cluster end with the program, their cleanup done before
	// it returns, whatever ended it; what they did is said on the terminal
	// the program has just given back.
	if said := cfg.replays.stop(); said != "" && o.Out != nil {
		fmt.Fprint(o.Out, termsafe.Escape(said))
	}
	if sig := ended.signal(); sig != nil {
		return &SignalError{Signal: sig}
	}
	return err
}

// newConfig is the app's configuration for the options: the pack, the
// progress store, colour, the startup trace.
func newConfig(o Options) Config {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg := Config{Start: o.Start, NoColor: noColor(getenv), OpenSandbox: o.OpenSandbox, Sandbox: o.Sandbox, SandboxFile: o.SandboxFile}
	if o.Pack != nil {
		pack := o.Pack
		cfg.LoadCourse = func() (*lessons.Pack, error) { return pack, nil }
	}
	var journal live.Journal
	if path, err := progress.DefaultPath(getenv); err != nil {
		cfg.StoreNotice = err.Error() + "; progress will not be saved."
	} else {
		cfg.Store = progress.Open(path)
		journal = live.JournalIn(filepath.Dir(path))
	}
	cfg.replays = newLiveReplays(journal)
	if kubeconfigFound(getenv) {
		cfg.Live = cfg.replays.replayer
	}
	if f := getenv(TraceEnv); f != "" {
		var mu sync.Mutex
		cfg.Trace = func(event string, d time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			out, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return
			}
			fmt.Fprintf(out, "%s %.1fms\n", event, float64(d.Microseconds())/1000)
			out.Close()
		}
	}
	return cfg
}

func noColor(getenv func(string) string) bool { return getenv("NO_COLOR") != "" }
