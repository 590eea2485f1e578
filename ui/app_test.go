package ui

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/home"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/sandbox"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// The fixture course is the first two lessons as they were written when
// these tests were, so the goldens change only when the UI does.
func fixtureCourse() (*lessons.Pack, error) { return lessons.Load(os.DirFS("testdata/course")) }

var fixtureSnippets = map[string]string{
	"update-with-rv": `// UpdateOwner writes the copy it read, with its resourceVersion.
func UpdateOwner(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	cm = cm.DeepCopy()
	cm.Data["owner"] = "a"
	_, err := c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err // a 409 goes back to the workqueue
}`,
	"update-clear-rv": `// ForceOwner clears the resourceVersion: an unconditional write.
func ForceOwner(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	cm = cm.DeepCopy()
	cm.ResourceVersion = "" // DEFECT
	_, err := c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}`,
}

func fixtureSnippet(name string) (string, error) {
	if s, ok := fixtureSnippets[name]; ok {
		return s, nil
	}
	return "", fmt.Errorf("no snippet %q", name)
}

func testConfig(t testing.TB) Options {
	return Options{LoadCourse: fixtureCourse, ProgressPath: filepath.Join(t.TempDir(), "conflictlab", "progress.json"),
		NoColor: true, Ticker: uitest.Ticker, Snippets: fixtureSnippet, LoadQuiz: fixtureQuiz, Today: fixtureToday,
		SandboxEnv: sandbox.Env{Files: t.TempDir()}} // the sandbox's s and x write here: TestMonkey's random keys reach it
}

func start(t testing.TB, cfg Options, w, h int) *uitest.Driver {
	t.Helper()
	return uitest.New(t, New(cfg), w, h)
}

func app(d *uitest.Driver) Model { return d.Model.(Model) }

// find is the screen of that name the app holds, on its stack or kept.
func find(d *uitest.Driver, name string) nav.Screen {
	s, ok := app(d).stack.Find(name)
	if !ok {
		d.T.Fatalf("no %s screen: the stack is %v", name, app(d).stack.Names())
	}
	return s
}

func playerOf(d *uitest.Driver) player.Model {
	p, _ := nav.As[player.Model](find(d, "player"))
	return p
}

func homeOf(d *uitest.Driver) home.Model {
	h, _ := nav.As[home.Model](find(d, "home"))
	return h
}

func sandboxOf(d *uitest.Driver) sandbox.Model {
	s, _ := nav.As[sandbox.Model](find(d, "sandbox"))
	return s
}

func mustContain(t *testing.T, view string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Fatalf("screen lacks %q:\n%s", w, view)
		}
	}
}

func mustNotContain(t *testing.T, view string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(view, b) {
			t.Fatalf("screen shows %q:\n%s", b, view)
		}
	}
}

// TestGoldenScreens renders every screen at the two reference sizes.
// The goldens are plain text (styling stripped): review them by eye.
func TestGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			d := start(t, testConfig(t), w, h)
			shot := func(name string) {
				t.Helper()
				v := d.Model.View().Content
				uitest.CheckFrame(t, v, w, h)
				uitest.Golden(t, fmt.Sprintf("%s-%dx%d", name, w, h), d.View())
			}
			shot("home")
			d.Press("?")
			shot("help")
			d.Press("esc", "down", "down", "enter")
			shot("predict-setup")
			d.Press("1", "h")
			shot("predict-wrong-hint")
			d.Press("2")
			d.PlayAll()
			shot("predict-right-race")
			d.Press("left", "left", "left")
			shot("race-stepped-back")
			d.Press("n", "2") // n: at 80×24 enter reads the feedback on
			d.PlayAll()
			shot("choose-409")
			d.Press("c")
			shot("code")
			d.Press("c", "n")
			shot("summary")
		})
	}
	d := start(t, testConfig(t), 79, 23)
	uitest.Golden(t, "too-small-79x23", d.View())
}

func TestQuitFromAnywhere(t *testing.T) {
	for _, path := range [][]string{{"q"}, {"ctrl+c"}, {"enter", "q"}, {"enter", "?", "ctrl+c"}, {"enter", "enter", "1", "q"}} {
		d := start(t, testConfig(t), 100, 30)
		d.Press(path...)
		if !d.Quit {
			t.Errorf("%v did not quit", path)
		}
	}
}

func TestEscGoesBack(t *testing.T) {
	d := start(t, testConfig(t), 100, 30)
	d.Press("enter")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("enter on home opened %s", got)
	}
	d.Press("?")
	mustContain(t, d.View(), "Keys", "restart race", "esc or ? closes")
	d.Press("esc")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("esc with help open left the player: %s", got)
	}
	mustNotContain(t, d.View(), "esc or ? closes")
	d.Press("esc")
	if got := app(d).Screen(); got != "home" {
		t.Fatalf("esc in the player went to %s", got)
	}
	d.Press("esc")
	if got := app(d).Screen(); got != "home" || d.Quit {
		t.Fatalf("esc on home: screen %s, quit %v", got, d.Quit)
	}
}

func TestHelpKeyTogglesFullList(t *testing.T) {
	d := start(t, testConfig(t), 100, 30)
	mustContain(t, d.View(), "enter open", "? all keys", "q quit")
	d.Press("?")
	mustContain(t, d.View(), "Keys", "continue", "quit")
	d.Press("down") // keys go nowhere while the list is open
	if homeOf(d).Cursor() != 0 {
		t.Fatal("a key reached the home screen under the help list")
	}
	d.Press("?")
	mustNotContain(t, d.View(), "esc or ? closes")
}

func TestTooSmallSaysHowLarge(t *testing.T) {
	d := start(t, testConfig(t), 79, 24)
	mustContain(t, d.View(), "at least 80×24", "this one is 79×24")
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 23})
	mustContain(t, d.View(), "this one is 80×23")
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	mustContain(t, d.View(), "Lessons", "The lost update")
}

func TestLayoutFollowsWidth(t *testing.T) {
	d := start(t, testConfig(t), 120, 40)
	d.Press("enter")
	wide := d.View()
	if !strings.Contains(wide, " │ ") {
		t.Fatalf("no side-by-side separator at 120 columns:\n%s", wide)
	}
	d.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	narrow := d.View()
	if strings.Contains(narrow, " │ ") || !strings.Contains(narrow, strings.Repeat("─", 99)) {
		t.Fatalf("not stacked at 100 columns:\n%s", narrow)
	}
	uitest.CheckFrame(t, d.Model.View().Content, 100, 30)
}

func TestStartsWithLoadingFrame(t *testing.T) {
	m := New(testConfig(t))
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	view := next.View().Content
	if !strings.Contains(view, "loading the course") {
		t.Fatalf("first frame before the course is loaded:\n%s", view)
	}
	if !next.View().AltScreen {
		t.Error("the tutorial should draw on the alternate screen")
	}
}

func TestCourseLoadFailureIsShown(t *testing.T) {
	cfg := testConfig(t)
	cfg.LoadCourse = func() (*lessons.Pack, error) { return nil, fmt.Errorf("lesson 03.yaml: boom") }
	d := start(t, cfg, 80, 24)
	mustContain(t, d.View(), "could not be loaded", "boom")
}

func TestProgressSurvivesRestart(t *testing.T) {
	cfg := testConfig(t)
	d := start(t, cfg, 100, 30)
	d.Press("down", "down", "enter", "1", "2")
	d.PlayAll()
	d.Press("enter", "q")
	got, notice := progress.Open(cfg.ProgressPath).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	l := got.Lessons["lost-update"]
	if got.Last != "lost-update" || l == nil || l.Step != 1 || l.Answers[0].Attempts != 2 || l.Answers[0].FirstTry {
		t.Fatalf("saved progress: %+v %+v", got, l)
	}
	again := start(t, Options{LoadCourse: cfg.LoadCourse, ProgressPath: cfg.ProgressPath, NoColor: true, Ticker: uitest.Ticker}, 100, 30)
	mustContain(t, again.View(), "Continue where you left off: The lost update, step 2 of 2", "in progress · step 2/2")
	again.Press("c")
	if p := playerOf(again); p.Lesson().ID != "lost-update" || p.Step() != 1 {
		t.Fatalf("continue opened %s step %d", p.Lesson().ID, p.Step())
	}
}

func TestCorruptProgressIsReportedOnHome(t *testing.T) {
	cfg := testConfig(t)
	os.MkdirAll(filepath.Dir(cfg.ProgressPath), 0o700)
	os.WriteFile(cfg.ProgressPath, []byte("{not json"), 0o600)
	d := start(t, cfg, 100, 30)
	mustContain(t, d.View(), "could not read your progress", "progress.json.corrupt-1")
	if _, err := os.Stat(cfg.ProgressPath + ".corrupt-1"); err != nil {
		t.Fatal("the corrupt file was not kept")
	}
}

func TestBackgroundColorPicksStyles(t *testing.T) {
	cfg := testConfig(t)
	cfg.NoColor = false
	d := start(t, cfg, 100, 30)
	d.Send(tea.BackgroundColorMsg{Color: color.Black})
	dark := d.Model.View().Content
	d.Send(tea.BackgroundColorMsg{Color: color.White})
	light := d.Model.View().Content
	if dark == light {
		t.Fatal("dark and light backgrounds render the same")
	}
	if !strings.Contains(dark, "\x1b[") {
		t.Fatal("no colour at all without NO_COLOR")
	}
	if uitestStrip(dark) != uitestStrip(light) {
		t.Fatal("the background changed the text, not just its colours")
	}
}

func TestNoColorDrawsNoColour(t *testing.T) {
	d := start(t, testConfig(t), 120, 40)
	d.Press("down", "down", "enter", "2")
	d.PlayAll()
	for _, v := range []string{d.Model.View().Content} {
		if strings.Contains(v, "\x1b[38;") || strings.Contains(v, "\x1b[48;") || hasSGRColour(v) {
			t.Fatalf("colour in a NO_COLOR frame: %q", v)
		}
	}
	// Meaning survives without colour: symbols and words.
	mustContain(t, d.View(), "✓ 200", "✗ LOST data.owner", "✓ 2.")
}

// hasSGRColour finds an SGR foreground/background colour parameter.
func hasSGRColour(s string) bool {
	for _, part := range strings.Split(s, "\x1b[") {
		end := strings.IndexByte(part, 'm')
		if end < 0 {
			continue
		}
		for _, p := range strings.Split(part[:end], ";") {
			if len(p) == 2 && (p[0] == '3' || p[0] == '4') && p[1] >= '0' && p[1] <= '9' {
				return true
			}
		}
	}
	return false
}

func uitestStrip(s string) string { return stripANSI(s) }

// TestMonkey presses thousands of random keys and resizes the window to
// sizes from 1×1 to 300×100 on every screen; nothing may panic and no
// frame may be wider or taller than the window.
func TestMonkey(t *testing.T) {
	keys := []string{"up", "down", "left", "right", "enter", "esc", "tab", "space", "pgup", "pgdown",
		"1", "2", "3", "9", "h", "s", "c", "n", "p", "o", "r", "+", "-", "J", "K", ".", ",", "?", "x", "j", "k",
		"4", "0", "l", "backspace", "shift+tab"}
	sizes := [][2]int{{1, 1}, {300, 100}, {80, 24}, {120, 40}, {79, 24}, {10, 50}, {200, 10}, {81, 25}, {119, 30}, {120, 24}}
	rng := rand.New(rand.NewPCG(1, 2))
	for start0 := 0; start0 < 8; start0++ {
		cfg := testConfig(t)
		w, h := 100, 30
		d := start(t, cfg, w, h)
		// Each round starts somewhere else: home, or a lesson step.
		switch {
		case start0 >= 5:
			// The quiz: its form, a quiz under way, a finished one.
			d.Send(app(d).quizPush())
			if start0 >= 6 {
				d.Press("enter")
			}
			for i := 0; start0 == 7 && i < 12; i++ {
				d.Press("1", "enter")
			}
		case start0 > 0:
			lessonIDs := []string{"versions", "lost-update"}
			d.Send(nav.Open{LessonID: lessonIDs[start0%2], Step: start0 / 2})
		}
		for i := 0; i < 1500; i++ {
			switch r := rng.IntN(20); {
			case r == 0:
				s := sizes[rng.IntN(len(sizes))]
				w, h = s[0], s[1]
				d.Send(tea.WindowSizeMsg{Width: w, Height: h})
			case r < 3:
				d.Tick(rng.IntN(4))
			default:
				k := keys[rng.IntN(len(keys))]
				if k == "esc" && rng.IntN(3) > 0 {
					k = "enter" // keep the monkey in lessons more often than not
				}
				d.Press(k)
			}
			if d.Quit {
				t.Fatal("the monkey quit without q")
			}
			uitest.CheckFrame(t, d.Model.View().Content, w, h)
		}
	}
}

func stripANSI(s string) string { return xansi.Strip(s) }
