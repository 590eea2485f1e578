package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/nav"
)

// TestAnnounceOpensTheLesson: an instructor's message opens the lesson
// where the learner left it and says why; one that arrives while the
// course loads waits for it.
func TestAnnounceOpensTheLesson(t *testing.T) {
	d := start(t, testConfig(t), 100, 30)
	d.Send(Announce{Lesson: "lost-update", Text: "the instructor moved the room"})
	if got := app(d).Screen(); got != "player" || playerOf(d).Lesson().ID != "lost-update" {
		t.Fatalf("after the announcement: screen %s", got)
	}
	mustContain(t, d.View(), "the instructor moved the room")
	d.Send(Announce{Lesson: "no-such-lesson", Text: "nowhere"})
	if playerOf(d).Lesson().ID != "lost-update" {
		t.Fatal("an unknown lesson moved the learner")
	}
	d.Send(Announce{Quiz: true})
	if got := app(d).Screen(); got != "quiz" {
		t.Fatalf("a quiz announcement shows %s", got)
	}
}

// TestObserveTellsPlaceAndProgress: Observe hears each move between
// screens and steps once, and the progress after an answer.
func TestObserveTellsPlaceAndProgress(t *testing.T) {
	cfg := testConfig(t)
	var seen []Activity
	cfg.Observe = func(a Activity) { seen = append(seen, a) }
	d := start(t, cfg, 100, 30)
	d.Send(nav.Open{LessonID: "versions", Step: 1})
	d.Press("1")
	var places []string
	var answered *progress.Progress
	for _, a := range seen {
		if a.Progress == nil {
			places = append(places, a.Screen+":"+a.Lesson)
			continue
		}
		answered = a.Progress
	}
	if strings.Join(places, " ") != "loading: home: player:versions" {
		t.Fatalf("places told: %v", places)
	}
	if answered == nil || len(answered.Lessons["versions"].Answers) != 1 {
		t.Fatalf("the answer's progress was not told: %+v", answered)
	}
}

// TestSessionsShareNothing: two sessions in one process, each with its
// own progress file, seed and sandbox budget, run side by side; what one
// learner does reaches only their own file. (Before the composition
// root, the sandbox's clock, explorer limit and file folder were package
// variables every program shared.)
func TestSessionsShareNothing(t *testing.T) {
	dir := t.TempDir()
	pack, err := fixtureCourse()
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		path string
		in   *keyPipe
		out  *syncBuf
		s    *Session
	}
	var runs []*run
	for i, seed := range []string{"1", "2"} {
		r := &run{path: filepath.Join(dir, seed, "progress.json"), in: newKeyPipe(), out: &syncBuf{}}
		env := SandboxEnv{NoFiles: true}
		env.Explore.MaxSchedules = 10 * (i + 1)
		r.s = NewSession(Options{In: r.in, Out: r.out, Environ: []string{"TERM=xterm", "NO_COLOR=1"},
			Width: 100, Height: 30, Pack: pack, ProgressPath: r.path, QuizSeed: seed, SandboxEnv: env,
			NoSignals: true, Context: context.Background()})
		if r.s.o.SandboxEnv.Explore.MaxSchedules != 10*(i+1) || r.s.o.QuizSeed != seed || r.s.o.Replays != nil {
			t.Fatalf("session %d's options: %+v", i, r.s.o)
		}
		runs = append(runs, r)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(runs))
	for i, r := range runs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = r.s.Run() }()
	}
	// Only the first learner answers; both quit.
	waitFor := func(r *run, want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(xansi.Strip(r.out.String()), want) {
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q", want)
			}
			time.Sleep(10 * time.Millisecond) // polling the screen, not waiting for an event
		}
	}
	runs[0].s.Send(Announce{Lesson: "versions"})
	waitFor(runs[0], "step 1/2")
	runs[0].in.send("n")
	waitFor(runs[0], "The counter is cluster-wide")
	runs[0].in.send("1")
	waitFor(runs[0], "decides it")
	for _, r := range runs {
		r.s.Quit()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	first, notice := progress.Open(runs[0].path).Load()
	if len(first.Lessons["versions"].Answers) != 1 {
		t.Fatalf("the first learner's answer is not in their file: %+v (%s)", first.Lessons, notice)
	}
	if data, err := os.ReadFile(runs[1].path); err == nil && bytes.Contains(data, []byte("answers")) {
		t.Fatalf("the second learner's file holds an answer: %s", data)
	}
}

// keyPipe is a terminal's input that the test types into.
type keyPipe struct{ ch chan []byte }

func newKeyPipe() *keyPipe { return &keyPipe{ch: make(chan []byte, 16)} }

func (k *keyPipe) send(s string) { k.ch <- []byte(s) }

func (k *keyPipe) Read(p []byte) (int, error) { return copy(p, <-k.ch), nil }

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestOpenBeforeTheCourseLoads: a lesson asked for while the course is
// still loading (a message from outside can come that early) is not a
// crash.
func TestOpenBeforeTheCourseLoads(t *testing.T) {
	m := New(testConfig(t))
	next, _ := m.Update(nav.Open{LessonID: "versions", Step: 1})
	if got := next.(Model).Screen(); got != "loading" {
		t.Fatalf("screen %s", got)
	}
}
