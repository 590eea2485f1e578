package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/ui"
)

// TestTerminalOptions: the terminal tutorial's composition root resolves
// the progress file from the environment it is given (not the process's)
// and keeps today's behaviour: live replays offered when a kubeconfig is
// found, signals handled, the files of the working directory.
func TestTerminalOptions(t *testing.T) {
	env := Env{Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return "/state"
		}
		return ""
	}}
	o := terminalOptions(env)
	if o.ProgressPath != "/state/conflictlab/progress.json" || o.Notice != "" || o.NoSignals || o.SandboxEnv.NoFiles || o.NoColor || o.Trace != nil {
		t.Fatalf("options: %+v", o)
	}
	// No kubeconfig where client-go looks (HOME and KUBECONFIG unset): no
	// replays offered.
	if o.Replays != nil {
		t.Fatalf("replays offered without a kubeconfig: %+v", o)
	}
	// The environment decides, not the process's: a kubeconfig named by
	// KUBECONFIG, NO_COLOR with any value, a trace file, the state folder.
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o = terminalOptions(Env{Getenv: func(k string) string {
		return map[string]string{"KUBECONFIG": kc, "NO_COLOR": "yes please", TraceEnv: filepath.Join(t.TempDir(), "trace"), "XDG_STATE_HOME": "/elsewhere"}[k]
	}})
	if o.Replays == nil || !o.NoColor || o.Trace == nil || o.ProgressPath != "/elsewhere/conflictlab/progress.json" {
		t.Fatalf("options: %+v", o)
	}
	var _ ui.Replays = o.Replays
}

// TestFirstFrameHurry: the screens give the garbage collector back after
// their first frame (ui.Options.Started); every other command gives it
// back before it starts, which only the commands that draw a screen are
// spared (package boot).
func TestFirstFrameHurry(t *testing.T) {
	o := terminalOptions(Env{})
	if o.Started == nil {
		t.Fatal("the tutorial's options do not give the collector back after the first frame")
	}
	// Bubble Tea's first frame waits for its frame clock's first tick.
	if o.FPS != 120 {
		t.Fatalf("the tutorial draws at %d frames a second, want Bubble Tea's most (120): its first frame waits one interval", o.FPS)
	}
	var screens []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Annotations[screenAnnotation] != "" {
			screens = append(screens, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRoot(Env{}))
	if !slices.Equal(screens, []string{"conflictlab", "conflictlab sandbox"}) {
		t.Fatalf("commands that hold the collector until their first frame: %q; want the tutorial and the sandbox", screens)
	}
}

// TestProfileFromLipgloss: on this process's stdout the colour profile
// lipgloss detected is reused (Bubble Tea would detect it again, running
// `tmux info` a second time inside tmux); on any other writer, or with
// NO_COLOR, it is left for the program to decide.
func TestProfileFromLipgloss(t *testing.T) {
	o := terminalOptions(Env{Stdout: os.Stdout})
	if o.Profile != lipgloss.Writer.Profile {
		t.Fatalf("profile %v on stdout, want lipgloss's %v", o.Profile, lipgloss.Writer.Profile)
	}
	if o := terminalOptions(Env{Stdout: &bytes.Buffer{}}); o.Profile != colorprofile.Unknown {
		t.Fatalf("profile %v on another writer, want it left unknown", o.Profile)
	}
	noColor := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	if o := terminalOptions(Env{Stdout: os.Stdout, Getenv: noColor}); o.Profile != colorprofile.Unknown || !o.NoColor {
		t.Fatalf("NO_COLOR: profile %v, no colour %v", o.Profile, o.NoColor)
	}
}
