package ui

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// hostile is text a terminal would obey: a window title (OSC … BEL), clear
// screen, an 8-bit CSI, DEL, a C1 control, and a colour change (an SGR
// sequence, which only escaping where the text enters the view can tell
// from the styles' own).
const (
	hostile     = "\x1b]0;pwned\x07\x1b[2J\u009b31m\x7f\u0090\x1b[31mRED"
	hostileYAML = `\e]0;pwned\a\e[2J\u009b31m\x7f\x90\e[31mRED`
	// shownRed is how the colour change must be shown: as text.
	shownRed = `\u001b[31mRED`
)

// sgr is a style's SGR sequence: colour, bold, underline.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkFrame fails if the frame, without its SGR sequences, holds any
// character a terminal acts on: a C0 control but newline and tab, DEL, a
// C1 control or a byte that is not UTF-8.
func checkFrame(t *testing.T, name, frame string) {
	t.Helper()
	text := sgr.ReplaceAllString(frame, "")
	for i, r := range text {
		bad := r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f ||
			r == utf8.RuneError && !strings.HasPrefix(text[i:], string(utf8.RuneError))
		if bad {
			t.Fatalf("%s: the frame holds %q at byte %d:\n%q", name, r, i, text[max(0, i-40):min(len(text), i+40)])
		}
	}
}

// hostileCourse is the fixture course with hostile text in the second
// lesson's title, prose, question, options, feedback, hint, solution and
// summary, and in its race's scenario name and values.
func hostileCourse(t *testing.T) func() (*lessons.Pack, error) {
	t.Helper()
	dir := t.TempDir()
	edits := map[string][][2]string{
		"02-lost-update.yaml": {
			{"title: The lost update", `title: "The lost update` + hostileYAML + `"`},
			{"title: Two writers, one version", `title: "Two writers` + hostileYAML + `"`},
			// YAML takes control characters only in double-quoted strings.
			{`(?s)text: \|\n      Controllers .*?\n    question:`, `text: "Controllers` + hostileYAML + ` **a** and **b** both read cm1."` + "\n    question:"},
			{`(?s)solution: \|\n      b's copy.*?\n    options:`, `solution: "b's` + hostileYAML + ` copy was read first."` + "\n    options:"},
			{"question: Once both writes are done, which of the two new keys does cm1 still hold?", `question: "Once` + hostileYAML + `"`},
			{"hint: Each controller sends the whole object it read, plus its own change.", `hint: "Each` + hostileYAML + `"`},
			{"label: Both data.owner and data.replicas", `label: "Both` + hostileYAML + `"`},
			{"feedback: Each write replaces the whole object; b's copy never had data.owner.", `feedback: "Each` + hostileYAML + `"`},
			{"  - Two full writes without a resourceVersion precondition silently erase each other's fields.", `  - "Two` + hostileYAML + `"`},
		},
		"scenarios/lost-update.yaml": {
			{"name: lost-update", `name: "lost-update` + hostileYAML + `"`},
			{"data: {mode: blue}", `data: {mode: "blue` + hostileYAML + `"}`},
		},
	}
	err := filepath.WalkDir("testdata/course", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/course", path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s := string(data)
		for _, e := range edits[filepath.ToSlash(rel)] {
			// An edit starting with (?s) is a regexp, the others are text.
			pattern := regexp.QuoteMeta(e[0])
			if strings.HasPrefix(e[0], "(?s)") {
				pattern = e[0]
			}
			re := regexp.MustCompile(pattern)
			loc := re.FindStringIndex(s)
			if loc == nil {
				t.Fatalf("%s no longer contains %q", rel, e[0])
			}
			s = s[:loc[0]] + e[1] + s[loc[1]:]
		}
		return os.WriteFile(filepath.Join(dir, rel), []byte(s), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() (*lessons.Pack, error) { return lessons.Load(os.DirFS(dir)) }
}

// TestScreensEscapeControlCharacters walks a hostile lesson pack through
// every screen of a lesson, in colour: no control character from the pack
// reaches the frame, and the text is shown (escaped), not dropped.
func TestScreensEscapeControlCharacters(t *testing.T) {
	load := hostileCourse(t)
	if _, err := load(); err != nil {
		t.Fatalf("the hostile course does not load: %v", err)
	}
	cfg := testConfig(t)
	cfg.LoadCourse, cfg.NoColor = load, false
	cfg.Notice = "state folder /tmp/" + hostile + " is not writable"
	d := start(t, cfg, 240, 60) // wide: escaped text is long, and checked unwrapped
	// shot checks the frame, and that the text after each tag is shown
	// escaped (quoted values may escape the backslash once more).
	shot := func(name string, tags ...string) {
		t.Helper()
		frame := d.Model.View().Content
		checkFrame(t, name, frame)
		for _, tag := range tags {
			if !regexp.MustCompile(regexp.QuoteMeta(tag) + `\\+u001b\]0;pwn`).MatchString(d.View()) {
				t.Fatalf("%s: no escaped text after %q:\n%s", name, tag, d.View())
			}
		}
		// The colour change is shown as text: it was escaped before the
		// screen was styled, not left for the frame guard (which keeps
		// SGR sequences).
		if len(tags) > 0 && !strings.Contains(d.View(), shownRed) {
			t.Fatalf("%s: the SGR sequence is not shown as %s:\n%s", name, shownRed, d.View())
		}
	}
	shot("home", "The lost update", "/tmp/")
	d.Press("down", "down", "enter")
	shot("predict", "Two writers", "Controllers", "Once", "Both", "race lost-update", "blue")
	d.Press("1", "h")
	shot("wrong answer, hint", "Each")
	d.Press("s")
	shot("solution", "b's")
	d.Press("2")
	d.PlayAll()
	shot("race", "blue")
	// The race's values come through the race run, not the pack's prose.
	if !regexp.MustCompile(`blue[^\n]*u001b\[31mRED`).MatchString(d.View()) {
		t.Fatalf("race: the value's SGR sequence is not shown as text:\n%s", d.View())
	}
	d.Press("left", "left", "left")
	shot("race stepped back", "blue")
	d.Press("enter", "2")
	d.PlayAll()
	shot("choose race", "blue")
	d.Press("c")
	shot("code")
	d.Press("c", "enter")
	shot("summary", "Two")
}

// The frame guard: text that reaches the screen without passing an
// escaping chokepoint (here the error a course failed to load with) is
// still escaped; only the styles' SGR sequences are kept.
func TestFrameGuardEscapesWhatTheScreensMissed(t *testing.T) {
	cfg := testConfig(t)
	cfg.NoColor = false
	cfg.LoadCourse = func() (*lessons.Pack, error) { return nil, errors.New("lesson " + hostile + ".yaml: boom") }
	d := start(t, cfg, 100, 30)
	frame := d.Model.View().Content
	checkFrame(t, "failed", frame)
	if !sgr.MatchString(frame) {
		t.Error("the frame lost its styles")
	}
	mustContain(t, d.View(), "lesson "+`\u001b]0;pwned\u0007\u001b[2J\u009b31m\u007f\u0090`)
}

// The sandbox on a hostile scenario file: its name and values, and the
// file's name, are shown escaped in the editor, the scheduler (the race
// as it is played) and the explorer.
func TestSandboxEscapesControlCharacters(t *testing.T) {
	src, err := os.ReadFile("testdata/course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for from, to := range map[string]string{
		"name: lost-update":  `name: "lost-update` + hostileYAML + `"`,
		"data: {mode: blue}": `data: {mode: "blue` + hostileYAML + `"}`,
	} {
		if !strings.Contains(s, from) {
			t.Fatalf("the scenario no longer contains %q", from)
		}
		s = strings.Replace(s, from, to, 1)
	}
	file := "/tmp/race" + hostile + ".yaml"
	sc, err := scenario.Parse(file, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.NoColor, cfg.OpenSandbox, cfg.Sandbox, cfg.SandboxFile = false, true, sc, file
	d := start(t, cfg, 240, 60)
	if app(d).Screen() != "sandbox" {
		t.Fatalf("on %s, not the sandbox", app(d).Screen())
	}
	if tab := sandboxOf(d).Tab(); tab != "race" {
		t.Fatalf("the sandbox opened a file on its %s tab", tab)
	}
	d.Press("a", "b", "a", "b")
	checkFrame(t, "race", d.Model.View().Content)
	if !regexp.MustCompile(`blue[^\n]*u001b\[31mRED`).MatchString(d.View()) {
		t.Fatalf("race: the value's SGR sequence is not shown as text:\n%s", d.View())
	}
	d.Press("tab", "e")
	checkFrame(t, "explore", d.Model.View().Content)
	mustContain(t, d.View(), "Every interleaving of lost-update"+`\u001b]0;pwned`, shownRed)
	d.Press("tab", "tab") // challenges, then build
	if tab := sandboxOf(d).Tab(); tab != "build" {
		t.Fatalf("on the %s tab, not build", tab)
	}
	checkFrame(t, "build", d.Model.View().Content)
	mustContain(t, d.View(), "lost-update"+`\u001b]0;pwned`)
}
