// Package cli is the conflictlab command line: the tutorial (no
// arguments), and the headless commands over the same engine for scripts,
// slides and tests.
package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/boot"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitInvalid  = 1 // the scenario (or lesson) itself is invalid
	ExitUsage    = 2 // the command line is wrong
	ExitNoTTY    = 3 // the tutorial needs a terminal
	ExitInternal = 4
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(err error) error   { return &exitError{ExitUsage, err} }
func invalidErr(err error) error { return &exitError{ExitInvalid, err} }

// Env is what the commands touch of the outside world, so tests can run
// them in-process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// IsTerminal reports whether stdin and stdout are a terminal.
	IsTerminal func() bool
	Getenv     func(string) string
	// Screen runs the tutorial's screen with the options the command
	// built (nil: ui.Run); tests give one that records them instead.
	Screen func(ui.Options) error
	// Source is conflictlab's own source that `exercises init` writes
	// into a workspace (main embeds it; nil: the checkout the tests run
	// in, found above the working directory).
	Source fs.FS
}

// screen is env.Screen, or the real one.
func (e Env) screen() func(ui.Options) error {
	if e.Screen != nil {
		return e.Screen
	}
	return ui.Run
}

// Run executes the command line and returns the process exit code.
//
// Every line the commands print passes through termsafe: names, labels,
// lesson titles, server messages and imported progress come from files and
// servers the user may not have written, and a control character in them
// (ESC, CSI, BEL, DEL …) must not reach the terminal as one. Nothing the
// commands print is meant to be a control sequence (their output carries no
// colour); the tutorial's screen is, and it draws on env.terminal().
func Run(args []string, env Env) int {
	env = escapeOutput(env)
	defer flushOutput(env)
	// The tutorial's first frame may be up (package boot) when the command
	// ends without the program having taken the terminal, or a panic
	// unwinds: the main screen comes back before anything is printed.
	defer boot.Leave()
	root := NewRoot(env)
	root.SetArgs(args)
	err := root.Execute()
	boot.Leave()
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(env.Stderr, "conflictlab:", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Whatever cobra itself rejects (unknown command or flag, bad args)
	// is a usage error.
	return ExitUsage
}

// escapeOutput wraps env's stdout and stderr in termsafe writers (once).
func escapeOutput(env Env) Env {
	for _, w := range []*io.Writer{&env.Stdout, &env.Stderr} {
		if *w == nil {
			continue
		}
		if _, done := (*w).(*termsafe.Writer); !done {
			*w = termsafe.NewWriter(*w)
		}
	}
	return env
}

// flushOutput writes what the escaping writers hold back (a rune the output
// stopped in the middle of).
func flushOutput(env Env) {
	for _, w := range []io.Writer{env.Stdout, env.Stderr} {
		if t, ok := w.(*termsafe.Writer); ok {
			t.Flush()
		}
	}
}

// terminal is where the tutorial draws its screen: stdout itself, not the
// escaping writer around it, since the screen is made of the program's own
// control sequences (and Bubble Tea needs the real file to size and set up
// the terminal). Untrusted text on that screen is escaped where it enters
// the view, in ui.
func (env Env) terminal() io.Writer {
	if t, ok := env.Stdout.(*termsafe.Writer); ok {
		return t.Unwrap()
	}
	return env.Stdout
}

// Version is the build's version: the module version for `go install`
// builds, the VCS revision when stamped, "devel" otherwise.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := info.Main.Version
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " (" + rev
		if dirty {
			v += "+dirty"
		}
		v += ")"
	}
	return v + " " + info.GoVersion
}

// NewRoot builds the command tree.
func NewRoot(env Env) *cobra.Command {
	var budgetFlags *exploreFlags
	root := &cobra.Command{
		Use:   "conflictlab",
		Short: "Learn how Kubernetes controllers write safely under concurrency",
		Long: `Conflict Lab is an interactive tutorial about resourceVersion, 409 Conflict,
retries, patches and server-side apply. Run it with no arguments in a terminal
for the tutorial; the subcommands run the same simulator headless.`,
		Version:       Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTutorial(cmd, env, budgetFlags)
		},
		Annotations: drawsScreen,
		// The garbage collector is held off until the first frame (package
		// boot); a command that draws no screen gives it back first.
		PersistentPreRun: func(cmd *cobra.Command, args []string) {
			if cmd.Annotations[screenAnnotation] == "" {
				boot.Resume()
			}
		},
	}
	budgetFlags = addExploreFlags(root)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.AddCommand(newSimCmd(env), newExploreCmd(env), newProgressCmd(env))
	root.AddCommand(lessonCommands(root, env)...)
	root.AddCommand(newSandboxCmd(env), newLevelCmd(env), newCleanupCmd(env), newExamplesCmd(env), newServeCmd(env), newExercisesCmd(env))
	return root
}

// screenAnnotation marks the commands that draw the tutorial's screen:
// they give the garbage collector back after their first frame
// (ui.Options.Started), not before they start.
const screenAnnotation = "conflictlab/screen"

var drawsScreen = map[string]string{screenAnnotation: "yes"}

// DefaultEnv is the real process environment.
func DefaultEnv() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, IsTerminal: stdioIsTerminal, Getenv: os.Getenv}
}
