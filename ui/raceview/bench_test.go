package raceview

import (
	"testing"

	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// Each benchmark runs twice: frames=cached is the view as it is, and
// frames=fresh draws every frame from nothing (noFrameCache), as the view
// did before the frame cache, so one run gives the ratio
// (benchstat -col /frames). Colour is on.
func bothWays(b *testing.B, fn func(b *testing.B)) {
	for _, c := range []struct {
		name  string
		fresh bool
	}{{"cached", false}, {"fresh", true}} {
		b.Run("frames="+c.name, func(b *testing.B) {
			noFrameCache = c.fresh
			defer func() { noFrameCache = false }()
			fn(b)
		})
	}
}

// benchView is a race at size w×h with colour on, at step idx.
func benchView(b *testing.B, path string, w, h, idx int) Model {
	m := New(styles.New(true, false))
	m.Tick = uitest.Ticker
	m.SetRun(scenarioRace(b, path), false)
	m.SetSize(w, h)
	m.SetIndex(idx)
	return m
}

// BenchmarkViewBusiest draws the race of the busiest screen: the course's
// longest race (lesson 5's "contended", 106 steps) finished, in the
// 75×37 stage the player gives it at 120×40.
func BenchmarkViewBusiest(b *testing.B) {
	bothWays(b, func(b *testing.B) {
		m := benchView(b, "../../lessons/course/scenarios/contended.yaml", 75, 37, 105)
		_ = m.View()
		for b.Loop() {
			_ = m.View()
		}
	})
}

// BenchmarkStepKeyToFrame is key-press-to-frame in the race view: the
// Update of a step key and the View that follows, at 120×40, on the
// four-controller race (the one-column timeline).
func BenchmarkStepKeyToFrame(b *testing.B) {
	bothWays(b, func(b *testing.B) {
		m := benchView(b, "testdata/four-writers.yaml", 120, 40, 3)
		for b.Loop() {
			m.SetIndex(3)
			next, _ := press(m, "right")
			_ = next.View()
		}
	})
}

// BenchmarkInspectKeyToFrame opens the inspect panel on a 409 and draws it.
func BenchmarkInspectKeyToFrame(b *testing.B) {
	bothWays(b, func(b *testing.B) {
		m := benchView(b, "../../examples/apply-conflict.yaml", 120, 40, 3)
		for b.Loop() {
			next, _ := press(m, "i")
			_ = next.View()
		}
	})
}
