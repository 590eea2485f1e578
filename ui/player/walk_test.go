package player

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// walkSizes are the terminal sizes the README promises and two larger
// ones; the player gets what the app gives it (a column of margin, the
// header and the key bar).
var walkSizes = [][2]int{{80, 24}, {100, 30}, {120, 40}}

// walker is one step of one lesson at one size.
type walker struct {
	t      *testing.T
	d      *uitest.Driver
	w, h   int
	where  string
	failed bool
}

func (k *walker) player() Model { return k.d.Model.(wrap).m }

// frame is the player's frame, checked to fit its rectangle.
func (k *walker) frame() string {
	v := k.player().View()
	lines := strings.Split(v, "\n")
	if len(lines) > k.h {
		k.fail("frame has %d lines, the player has %d", len(lines), k.h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > k.w {
			k.fail("line %d is %d wide, the player is %d: %q", i, n, k.w, ansi.Strip(l))
			break
		}
	}
	return ansi.Strip(v)
}

func (k *walker) fail(format string, args ...any) {
	k.t.Helper()
	k.failed = true
	k.t.Errorf("%s: %s", k.where, fmt.Sprintf(format, args...))
}

// scrollFrames are the frames from the top to the end with PgDn and back
// with PgUp: what a learner can read of the text.
func (k *walker) scrollFrames() []string {
	var frames []string
	walk := func(start, step string) {
		k.d.Press(start)
		prev := ""
		for i := 0; i < 200; i++ {
			f := k.frame()
			if f == prev {
				return
			}
			frames = append(frames, f)
			prev = f
			k.d.Press(step)
		}
		k.fail("%s never reached the end of the text", step)
	}
	walk("home", "pgdown")
	walk("end", "pgup")
	return frames
}

// textLines are the lines the text pane holds, styling removed, blank
// lines dropped.
func textLines(m Model) []string {
	var out []string
	for _, l := range m.TextLines() {
		if s := strings.TrimSpace(ansi.Strip(l)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// seenAll checks that every line of the text appears in some frame.
func (k *walker) seenAll(what string, frames []string) {
	k.t.Helper()
	for _, l := range textLines(k.player()) {
		found := false
		for _, f := range frames {
			if strings.Contains(f, l) {
				found = true
				break
			}
		}
		if !found {
			k.fail("%s: the line %q is never on screen", what, l)
			return
		}
	}
}

// wordRE finds the words of the source text a learner must be able to
// read, markup aside.
var wordRE = regexp.MustCompile(`[A-Za-z0-9]{3,}`)

// fenceLine opens or closes a fenced block: its info string ("go",
// "text fakes scenarios/…") is markup, not text to read.
var fenceLine = regexp.MustCompile("(?m)^\\s*```.*$")

// seenWords checks that every word of the source (the step's Markdown,
// its question and labels, the feedback) is in some frame: a line cut at
// the window's edge ("…") loses words even when the line is reachable.
func (k *walker) seenWords(what, src string, frames []string) {
	k.t.Helper()
	all := strings.Join(frames, "\n")
	for _, w := range wordRE.FindAllString(fenceLine.ReplaceAllString(src, ""), -1) {
		if !strings.Contains(all, w) {
			k.fail("%s: the word %q of the source is never on screen", what, w)
			return
		}
	}
}

func walkPack(t *testing.T, name string, p *lessons.Pack) (checked, failed int) {
	races := racecache.New(p)
	st := styles.New(true, true)
	for li, l := range p.Lessons {
		for si, s := range l.Steps {
			for _, size := range walkSizes {
				w, h := size[0]-1, size[1]-2
				where := fmt.Sprintf("%s L%d s%d (%s) at %dx%d", name, li+1, si+1, s.Title, size[0], size[1])
				open := func() *walker {
					m, cmd := New(l, nil, progress.New(), races, st, si)
					m.SetTicker(uitest.Ticker)
					m.SetSnippets(func(n string) (string, error) { return "// snippet " + n, nil })
					m.SetSize(w, h)
					k := &walker{t: t, d: &uitest.Driver{T: t, Model: wrap{m}}, w: w, h: h, where: where}
					k.d.Run(cmd)
					return k
				}
				checked++
				k := open()
				arrival := k.frame()
				// A step opens at its top...
				if title := strings.TrimSpace(ansi.Strip(k.player().TextLines()[0])); !strings.Contains(arrival, title) {
					k.fail("the step does not open at its top: no title %q", title)
				}
				// ...with every option in view.
				for i, o := range s.Options {
					if !strings.Contains(arrival, fmt.Sprintf("%d. %s", i+1, strings.Fields(o.Label)[0])) {
						k.fail("option %d is not on screen on arrival", i+1)
					}
				}
				frames := k.scrollFrames()
				k.seenAll("before answering", frames)
				src := s.Title + "\n" + s.Text + "\n" + s.Question
				for _, o := range s.Options {
					src += "\n" + o.Label
				}
				k.seenWords("before answering", src, frames)
				bad := k.failed
				// Each answer, and after a wrong one the hint and the solution.
				for i, o := range s.Options {
					a := open()
					a.where = fmt.Sprintf("%s, answer %d", where, i+1)
					readQuestion(a.d)
					a.d.Press(fmt.Sprint(i + 1))
					extra := ""
					if !o.Correct {
						a.d.Press("h", "s")
						extra = "\n" + s.Hint + "\n" + s.Solution
					}
					f := a.scrollFrames()
					a.seenAll("after the answer", f)
					a.seenWords("after the answer", o.Feedback+extra, f)
					bad = bad || a.failed
				}
				if s.Kind == lessons.Play {
					// A play step: the hint, then the solution it unlocks.
					a := open()
					a.where = where + ", hint and solution"
					a.d.Press("h", "s")
					f := a.scrollFrames()
					a.seenAll("with the hint and the solution", f)
					a.seenWords("with the hint and the solution", s.Hint+"\n"+s.Solution, f)
					bad = bad || a.failed
				}
				if bad {
					failed++
				}
			}
		}
	}
	return checked, failed
}

// TestEveryStepIsReadable walks every step of the built-in course and of
// the example pack at 80×24, 100×30 and 120×40: the step opens at its top
// with every option in view, every line of its text (prose, code, the
// question, the options, each answer's feedback, the hint and the
// solution) can be scrolled to, no word is cut off, and no line is wider
// than the window.
func TestEveryStepIsReadable(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	example, err := lessons.Load(os.DirFS("../../examples/pack"))
	if err != nil {
		t.Fatal(err)
	}
	play, err := lessons.Load(os.DirFS("../play/testdata/pack"))
	if err != nil {
		t.Fatal(err)
	}
	total, bad := 0, 0
	for _, p := range []struct {
		name string
		pack *lessons.Pack
	}{{"course", course}, {"examples/pack", example}, {"play pack", play}} {
		c, f := walkPack(t, p.name, p.pack)
		total += c
		bad += f
	}
	t.Logf("%d steps × sizes walked, %d with a problem", total, bad)
}
