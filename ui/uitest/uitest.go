// Package uitest drives the UI's models in tests: key presses by name, a
// driver that runs commands synchronously and holds playback ticks until
// the test releases them, frame checks, and golden files.
package uitest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// playbackTick is what the race view's tick messages implement, so the
// driver can hold them without importing the race view.
type playbackTick interface{ PlaybackTick() }

// Rewrite rewrites golden files instead of comparing with them: -rewrite,
// the name datadriven's flag has for the transcripts of sim/race and
// sim/apiserver, so one flag rewrites every golden file of the repository.
var Rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata")

var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
}

// Key returns the key press with that name: "enter", "ctrl+c", "q", "K".
func Key(name string) tea.KeyPressMsg {
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	if r, ok := named[name]; ok {
		k := tea.KeyPressMsg{Code: r}
		if r == tea.KeySpace {
			k.Text = " "
		}
		return k
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// Ticker is a playback clock the test controls: a tick fires as soon as
// its command runs, and the Driver holds it until Tick releases it.
func Ticker(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg { return fn(time.Time{}) }
}

// Driver runs a model the way a program would, but synchronously.
type Driver struct {
	T     testing.TB
	Model tea.Model
	// Ticks are playback ticks waiting to be delivered.
	Ticks []tea.Msg
	Quit  bool
}

// New starts a driver: Init's commands run, then the window size is sent.
func New(t testing.TB, m tea.Model, w, h int) *Driver {
	d := &Driver{T: t, Model: m}
	d.Run(m.Init())
	d.Send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// Send delivers a message and runs the commands it produces.
func (d *Driver) Send(msg tea.Msg) {
	var cmd tea.Cmd
	d.Model, cmd = d.Model.Update(msg)
	d.Run(cmd)
}

// Press sends key presses by name.
func (d *Driver) Press(keys ...string) {
	for _, k := range keys {
		d.Send(Key(k))
	}
}

// Run executes a command and everything it leads to, except playback
// ticks, which wait in Ticks.
func (d *Driver) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.Run(c)
		}
	case playbackTick:
		d.Ticks = append(d.Ticks, msg)
	case tea.QuitMsg:
		d.Quit = true
	default:
		d.Send(msg)
	}
}

// Tick delivers up to n waiting ticks (and the ticks they schedule).
func (d *Driver) Tick(n int) {
	for ; n > 0 && len(d.Ticks) > 0; n-- {
		t := d.Ticks[0]
		d.Ticks = d.Ticks[1:]
		d.Send(t)
	}
}

// PlayAll delivers ticks until playback stops.
func (d *Driver) PlayAll() {
	for i := 0; len(d.Ticks) > 0 && i < 10000; i++ {
		d.Tick(1)
	}
}

// View is the model's content with styling removed.
func (d *Driver) View() string {
	return ansi.Strip(d.Model.View().Content)
}

// CheckFrame fails when the frame has a line wider than w or more than h
// lines: what would wrap or scroll a real terminal into garbage.
func CheckFrame(t testing.TB, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if frame != "" && len(lines) > h {
		t.Fatalf("frame has %d lines, window has %d", len(lines), h)
	}
	for i, l := range lines {
		if n := lipgloss.Width(l); n > w {
			t.Fatalf("line %d is %d wide, window is %d: %q", i, n, w, ansi.Strip(l))
		}
	}
}

// Golden compares got with testdata/NAME.golden, or rewrites it with
// -rewrite.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *Rewrite {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -rewrite to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -rewrite rewrites it)\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}
