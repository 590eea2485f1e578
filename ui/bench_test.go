package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/uitest"
)

// BenchmarkFirstFrame is the work between the program starting and its
// first frame: building the app, the window size, and View. The course
// and the races are not loaded yet (they load in commands after it).
func BenchmarkFirstFrame(b *testing.B) {
	cfg := testConfig(b)
	for b.Loop() {
		m := New(cfg)
		_ = m.Init()
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = next.View()
	}
}

// BenchmarkViewBusiest draws the busiest screen at 120×40: the player
// side by side with a finished race, its lost field and the object's
// YAML, after the learner's answer, feedback and hint.
func BenchmarkViewBusiest(b *testing.B) {
	d := start(b, testConfig(b), 120, 40)
	d.Press("down", "down", "enter", "1", "h", "2")
	d.PlayAll()
	m := d.Model
	if v := m.View().Content; len(v) == 0 {
		b.Fatal("empty frame")
	}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewHome draws the home screen at 120×40.
func BenchmarkViewHome(b *testing.B) {
	m := start(b, testConfig(b), 120, 40).Model
	for b.Loop() {
		_ = m.View()
	}
}

var _ = uitest.Key
