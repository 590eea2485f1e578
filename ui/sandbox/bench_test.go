package sandbox

import (
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// BenchmarkViewExploring draws the explore tab mid-search at 120×40 (the
// root gives the sandbox 119×38): the frame the UI redraws ten times a
// second while the explorer runs.
func BenchmarkViewExploring(b *testing.B) {
	m := New(styles.New(true, false), nil)
	m.SetSize(119, 38)
	if err := m.Open(benchScenario(), ""); err != nil {
		b.Fatal(err)
	}
	m.tab = exploreTab
	m.ex = exploreState{running: &exploreRun{cancel: func() {}}, done: 12345, estimate: 34650, elapsed: 8 * time.Second}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkStepAndView is one scheduler key press on the race tab at
// 120×40: the step, the outcome so far, the preview of every next step,
// and the frame.
func BenchmarkStepAndView(b *testing.B) {
	m := New(styles.New(true, false), nil)
	m.SetSize(119, 38)
	if err := m.Open(benchScenario(), ""); err != nil {
		b.Fatal(err)
	}
	m.tab = raceTab
	keys := []string{"1", "2", "3"}
	for i := 0; b.Loop(); i++ {
		if m.play.over() {
			m.restart()
		}
		m, _ = m.Update(uitest.Key(keys[i%3]))
		_ = m.View()
	}
}
