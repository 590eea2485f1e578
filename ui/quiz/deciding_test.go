package quiz

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// TestTheRowTheVerdictNamesIsOnScreen: at 80×24 (less the root's margin,
// header and key bar), once a race or method question of the bank is
// answered and its race has played out, the verdict names the row that
// decides it ("Row 6 decides it") and that row is in the race pane,
// however long the race; g selects it.
func TestTheRowTheVerdictNamesIsOnScreen(t *testing.T) {
	bank, course, races := courseBank(t)
	m := New(Config{
		Load:   func() (Data, error) { return Data{Bank: bank, Races: races, Lessons: course.Lessons}, nil },
		Today:  today,
		Ticker: uitest.Ticker,
	}, styles.New(true, true))
	m.SetSize(79, 22)
	d := &uitest.Driver{T: t, Model: wrap{m, &[]tea.Msg{}, progress.New()}}
	d.Run(d.Model.Init())
	quiz := func() Model { return d.Model.(wrap).m }
	d.Press("down", "right", "right", "enter") // every question
	named := regexp.MustCompile(`Row (\d+) decides it`)
	checked, races_ := 0, 0
	for !quiz().Session().Done() {
		p, _ := quiz().Shown()
		q := p.Question
		for range 20 {
			if _, res := quiz().Shown(); res != nil {
				break
			}
			d.Press(fmt.Sprint(p.Correct() + 1))
		}
		// However the window cuts the question, the answer key gets it
		// read and then answers.
		if _, res := quiz().Shown(); res == nil {
			t.Fatalf("%s (%s:%d): 20 presses of its answer key at 80×24 did not answer it:\n%s", q.ID, q.File, q.Line, ansi.Strip(d.View()))
		}
		if q.Kind == qz.Race || q.Kind == qz.Method {
			races_++
			d.PlayAll()
			f := quiz().frame()
			words := ansi.Strip(strings.Join(strings.Fields(strings.Join(f.text.Lines(), " ")), " "))
			n := named.FindStringSubmatch(words)
			if _, ok := f.deciding(); ok != (n != nil) {
				t.Errorf("%s (%s:%d): the race has a deciding row: %v; the verdict names one: %v", q.ID, q.File, q.Line, ok, n != nil)
			}
			if n != nil {
				v := ansi.Strip(d.View())
				stage := v[strings.LastIndex(v, "─ race"):]
				row := regexp.MustCompile(`(?m)^\s*(▶\s*)?` + n[1] + `\s`)
				if !row.MatchString(stage) {
					t.Errorf("%s (%s:%d): the verdict names row %s; the race pane shows:\n%s", q.ID, q.File, q.Line, n[1], stage)
				}
				d.Press("g")
				if got := quiz().Race().Index(); fmt.Sprint(got+1) != n[1] {
					t.Errorf("%s: g selects row %d, the verdict names row %s", q.ID, got+1, n[1])
				}
				checked++
			}
		}
		d.Press("enter")
	}
	if checked == 0 || races_ == 0 {
		t.Fatalf("%d races, %d verdicts name a row: this test checks nothing", races_, checked)
	}
	t.Logf("%d of %d race and method questions name their deciding row", checked, races_)
}

// The key bar lists first what the question needs: read on while the
// question is not seen whole (the answer keys read on then), the answer
// keys once it is, the next question once answered; and tab, the zoom,
// on a question with a stage.
func TestKeysTheQuestionNeedsComeFirst(t *testing.T) {
	help := func(f *fixture) []string {
		var out []string
		for _, b := range f.quiz().ShortHelp() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return out
	}
	f := openBank(t, longQuestion(t, ""), 79, 22)
	if h := help(f); h[0] != "pgdn read on" || !strings.Contains(strings.Join(h, " · "), "tab zoom race") {
		t.Fatalf("a question cut off above its options: %v", h)
	}
	for range 10 {
		if f.quiz().ask.stemRead() {
			break
		}
		f.Press("pgdown")
	}
	if h := help(f); h[0] != "1-2 answer" {
		t.Fatalf("a question read whole: %v", h)
	}
	f.Press("1")
	f.PlayAll()
	h := help(f)
	if h[0] != "enter see the score" || !strings.Contains(strings.Join(h, " · "), "g deciding row") {
		t.Fatalf("the question answered: %v", h)
	}
}
