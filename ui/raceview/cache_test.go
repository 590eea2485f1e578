package raceview

import (
	"path/filepath"
	"testing"

	"github.com/conflictlab/conflictlab/ui/styles"
)

// cacheRaces are the races the cache tests draw: every example, every
// course scenario and the four-writer race (lanes, one column, waits,
// losses, apply's owners).
func cacheRaces(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("../../lessons/course/scenarios/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files = append(append(files, more...), "testdata/four-writers.yaml")
	if len(files) < 40 {
		t.Fatalf("only %d races found", len(files))
	}
	return files
}

// TestFrameCacheDrawsWhatAFreshViewDraws: whatever order the frames come
// in (stepping on, stepping back, resizing, the panels), a view reusing
// its cache draws byte for byte what a view drawing everything afresh
// draws, colours included.
func TestFrameCacheDrawsWhatAFreshViewDraws(t *testing.T) {
	fresh := func(m Model) string {
		noFrameCache = true
		defer func() { noFrameCache = false }()
		return m.View()
	}
	for _, f := range cacheRaces(t) {
		r := scenarioRace(t, f)
		m := New(styles.New(true, false))
		m.SetRun(r, false)
		n := len(r.Outcome.Steps)
		check := func(what string) {
			t.Helper()
			if got, want := m.View(), fresh(m); got != want {
				t.Fatalf("%s: %s at %d×%d, step %d: cached frame differs\n got %q\nwant %q", f, what, m.w, m.h, m.idx, got, want)
			}
		}
		for _, sz := range [][2]int{{120, 38}, {80, 22}, {58, 30}} {
			m.SetSize(sz[0], sz[1])
			// On, back, on again: rows drawn current and not, in both orders.
			order := []int{}
			for i := -1; i < n; i++ {
				order = append(order, i)
			}
			for i := n - 1; i >= -1; i -= 3 {
				order = append(order, i)
			}
			for _, i := range order {
				m.SetIndex(i)
				check("timeline")
				m.objOnly = true
				check("object")
				m.objOnly, m.inspect = false, true
				check("inspect")
				m.inspect = false
			}
			m.hidden = true
			check("setup")
			m.hidden = false
		}
		// New styles (the background was learnt) and a new run of the
		// same race replace what was cached.
		m.SetStyles(styles.New(false, false))
		check("new styles")
		m.SetRun(scenarioRace(t, f), false)
		m.SetIndex(n - 1)
		check("new run")
	}
}

// TestFrameCostDoesNotGrowWithTheRace: once a race has been drawn, a
// frame restyles the current row and reuses the rest, so drawing step 100
// of the 106-step "contended" race costs what drawing step 10 does.
func TestFrameCostDoesNotGrowWithTheRace(t *testing.T) {
	r := scenarioRace(t, "../../lessons/course/scenarios/contended.yaml")
	if len(r.Outcome.Steps) < 100 {
		t.Fatalf("contended has %d steps", len(r.Outcome.Steps))
	}
	allocs := func(idx int) float64 {
		m := New(styles.New(true, false))
		m.SetRun(r, false)
		m.SetSize(76, 37)
		m.SetIndex(idx)
		_ = m.View()
		return testing.AllocsPerRun(20, func() {
			m.SetIndex(idx - 1)
			_ = m.View()
			m.SetIndex(idx)
			_ = m.View()
		})
	}
	early, late := allocs(10), allocs(100)
	if late > early*1.25 {
		t.Errorf("two frames at step 100 allocate %.0f times, at step 10 %.0f: the frame redraws rows it drew before", late, early)
	}
}
