package ui

import (
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// TestStartedOnceAfterTheFirstScreen: the process is told its first frame
// is out (Options.Started, which gives the garbage collector back) once,
// after the screen it opened on, on every way the program can open, and
// before the first race is warmed.
func TestStartedOnceAfterTheFirstScreen(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func(*Options)
	}{
		{"home screen", func(*Options) {}},
		{"sandbox", func(c *Options) { c.OpenSandbox = true }},
		{"course that does not load", func(c *Options) {
			c.LoadCourse = func() (*lessons.Pack, error) { return nil, errors.New("broken") }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			tc.cfg(&cfg)
			var events []string
			cfg.Ticker = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
				if d == warmDelay {
					events = append(events, "after two frames")
				}
				return uitest.Ticker(d, fn)
			}
			cfg.Started = func() { events = append(events, "started") }
			d := start(t, cfg, 100, 30)
			d.Press("down", "up")
			switch tc.name {
			case "course that does not load":
				// Nothing is drawn after it, so nothing to wait for.
				if len(events) != 1 || events[0] != "started" {
					t.Fatalf("events %q, want [started]", events)
				}
			default:
				if len(events) != 2 || events[0] != "after two frames" || events[1] != "started" {
					t.Fatalf("events %q, want [after two frames, started]", events)
				}
			}
		})
	}
}

// TestStartedBeforeTheWarmUp: the warm-up, the first heavy allocation,
// runs after Started, in the same command.
func TestStartedBeforeTheWarmUp(t *testing.T) {
	m := app(start(t, testConfig(t), 100, 30))
	m.races = racecache.New(m.races.Pack()) // nothing warmed yet
	spec, ok := m.firstRace()
	if !ok {
		t.Fatal("the fixture course has no race to warm")
	}
	warmAtStart, called := true, false
	m.o.Started = func() {
		called = true
		_, warmAtStart = m.races.Cached(spec)
	}
	_, cmd := m.Update(warmNow{race: true})
	if cmd == nil {
		t.Fatal("warmNow gave no command")
	}
	msg := cmd()
	_, warm := m.races.Cached(spec)
	if _, ok := msg.(warmed); !ok || !called || warmAtStart || !warm {
		t.Fatalf("the command returned %T; Started called %v, the race warm then %v and after %v; want warmed, true, false, true",
			msg, called, warmAtStart, warm)
	}
}
