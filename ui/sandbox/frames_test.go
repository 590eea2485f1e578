package sandbox

import (
	"context"
	"io"
	"os"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/styles"
)

// frameModel counts the frames a real program draws and how long each
// View takes, and quits when the exploration is over.
type frameModel struct {
	m              Model
	start          tea.Cmd
	exploring      *atomic.Bool
	frames, viewNs *atomic.Int64
	maxViewNs      *atomic.Int64
}

func (f frameModel) Init() tea.Cmd { return f.start }

func (f frameModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	f.m, cmd = f.m.Update(msg)
	if f.m.ex.running == nil && f.m.ex.result != nil {
		f.exploring.Store(false)
		return f, tea.Quit
	}
	return f, cmd
}

func (f frameModel) View() tea.View {
	t := time.Now()
	v := f.m.View()
	if f.exploring.Load() {
		d := time.Since(t).Nanoseconds()
		f.frames.Add(1)
		f.viewNs.Add(d)
		for {
			old := f.maxViewNs.Load()
			if d <= old || f.maxViewNs.CompareAndSwap(old, d) {
				break
			}
		}
	}
	return tea.NewView(v)
}

// TestFramesKeepComingWhileExploring runs the sandbox in a real Bubble
// Tea program while the explorer goes through every interleaving of a
// race (the 34,650 of three controllers × four steps with
// CONFLICTLAB_SANDBOX_FRAMES=full), and counts the frames drawn meanwhile:
// the search runs on its own goroutine, so the UI loop keeps drawing (the
// elapsed-time tick alone asks for ten frames a second).
//
// It measures frames against the wall clock, which a loaded machine can
// starve, so it is a measurement to run on purpose, not part of the
// default suite: CONFLICTLAB_SANDBOX_FRAMES=1 (924 interleavings) or =full
// (34,650). That the search runs off the UI loop — Update returns at once
// with the search running, and esc ends it — is TestExploreCancelWithEsc's,
// which needs no clock.
func TestFramesKeepComingWhileExploring(t *testing.T) {
	if os.Getenv("CONFLICTLAB_SANDBOX_FRAMES") == "" {
		t.Skip("a wall-clock measurement: run it with CONFLICTLAB_SANDBOX_FRAMES=1 (or =full) go test ./ui/sandbox -run Frames -v")
	}
	// The golden tests stop the clock; this one measures with it (the
	// zero Env's).
	sc, want := benchScenario(), 34650
	if os.Getenv("CONFLICTLAB_SANDBOX_FRAMES") != "full" {
		// Two controllers reconciling three times: 12!/(6!6!) = 924
		// interleavings, a second or so. CONFLICTLAB_SANDBOX_FRAMES=full
		// runs the 3×4 race BENCHMARKS.md reports (a few seconds).
		sc.Controllers = sc.Controllers[:2]
		sc.Controllers[0].Reconciles, sc.Controllers[1].Reconciles = 3, 3
		want = 924
	}
	m := New(styles.New(true, true), nil)
	m.SetSize(119, 38)
	if err := m.Open(sc, ""); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	m, cmd := m.startExplore()
	f := frameModel{m: m, start: cmd, exploring: &atomic.Bool{}, frames: &atomic.Int64{}, viewNs: &atomic.Int64{}, maxViewNs: &atomic.Int64{}}
	f.exploring.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := tea.NewProgram(f, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40),
		tea.WithoutSignalHandler(), tea.WithContext(ctx))
	final, err := p.Run()
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	r := final.(frameModel).m.ex.result
	if r == nil || r.Schedules != want || r.Cancelled {
		t.Fatalf("result: %+v", r)
	}
	frames := f.frames.Load()
	mean := time.Duration(0)
	if frames > 0 {
		mean = time.Duration(f.viewNs.Load() / frames)
	}
	t.Logf("explored %d interleavings in %v; %d frames drawn meanwhile (%.1f/s), View mean %v, max %v",
		r.Schedules, took.Round(time.Millisecond), frames, float64(frames)/took.Seconds(), mean, time.Duration(f.maxViewNs.Load()))
	// At least one frame per 200ms of exploring: the tick asks for one per 100ms.
	if want := int64(took / (200 * time.Millisecond)); frames < want {
		t.Fatalf("only %d frames in %v: the UI stalled while exploring", frames, took)
	}
}
