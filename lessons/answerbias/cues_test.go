package answerbias

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func stat(r CueReport, c CueName) CueStat {
	for _, s := range r.Stats {
		if s.Cue == c {
			return s
		}
	}
	return CueStat{}
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.05 }

// Six questions whose right option is always the shortest, written last:
// the shortest and the last option are right every time, the longest
// never; chance is one in three.
func TestMeasureCues(t *testing.T) {
	var qs []Question
	for i := range 6 {
		q := question("stem", 2, "a long wrong option, with a reason: it argues", "another long wrong one, as argued", "short, right")
		q.Group, q.Line = "l1.yaml", 10*i
		qs = append(qs, q)
	}
	all, groups := MeasureCues("the course", ".", qs)
	if all.Questions != 6 || len(groups) != 1 || groups[0].Scope != "lesson l1.yaml" {
		t.Fatalf("measured %+v, groups %+v", all, groups)
	}
	for _, c := range []struct {
		cue       CueName
		hit, lead float64
	}{
		{CueShortest, 100, 66.7}, {CueLongest, 0, -33.3}, {CueLast, 100, 66.7}, {CueThird, 100, 66.7}, {CueFirst, 0, -33.3},
		{CueSpecific, 100.0 / 3, 0}, // no option has a number or code: the cue cannot tell them apart
	} {
		s := stat(all, c.cue)
		if s.Questions != 6 || !near(s.HitPct(), c.hit) || !near(s.Lead(), c.lead) || !near(s.ChancePct(), 100.0/3) {
			t.Errorf("%s: %d questions, hit %.1f%%, lead %+.1f; want hit %.1f, lead %+.1f", c.cue, s.Questions, s.HitPct(), s.Lead(), c.hit, c.lead)
		}
	}
	if s := stat(all, CueFourth); s.Questions != 0 {
		t.Errorf("the fourth option measured over three-option questions: %+v", s)
	}
	fs := all.Findings()
	joined := fmt.Sprint(fs)
	for _, want := range []string{"picking the shortest option is right 100.0% of the time against 33.3% by chance (+66.7 points over 6 questions", "picking the last option"} {
		if !strings.Contains(joined, want) {
			t.Errorf("findings lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "longest") {
		t.Errorf("a cue below chance is reported: %s", joined)
	}
	// Shuffled options: where they are written is no cue.
	for i := range qs {
		qs[i].Shuffled = true
	}
	all, _ = MeasureCues("the quiz", ".", qs)
	if s := stat(all, CueLast); s.Questions != 0 {
		t.Errorf("a position cue measured over shuffled options: %+v", s)
	}
	// Too few questions to judge.
	small, _ := MeasureCues("the pack", ".", qs[:MinCueGroup-1])
	if fs := small.Findings(); len(fs) != 0 {
		t.Errorf("%d questions judged: %v", len(qs[:MinCueGroup-1]), fs)
	}
}

// Two right options of four: chance is one half, and a cue that picks
// one of them is right once in every pick.
func TestMeasureCuesTwoRight(t *testing.T) {
	q := question("stem", 0, "right", "also right, longer", "wrong and much longer than both", "wrong, long again and again")
	q.Options[1].Right = true
	all, _ := MeasureCues("x", ".", []Question{q})
	if s := stat(all, CueShortest); !near(s.HitPct(), 100) || !near(s.ChancePct(), 50) {
		t.Errorf("shortest: %+v", s)
	}
	if s := stat(all, CueLongest); !near(s.HitPct(), 0) {
		t.Errorf("longest: %+v", s)
	}
}

// Five three-option questions with their right answers spread as evenly
// as five allows (a, b, c, a, b): two sit at one position, 40% against
// 33%, and no order does better, so that is no tell; three would be.
func TestCueRoundingSlack(t *testing.T) {
	var qs []Question
	for i, right := range []int{0, 1, 2, 0, 1} {
		q := question("stem", right, "option one, argued", "option two, argued", "option six, argued")
		q.Group, q.Line = "l.yaml", i
		qs = append(qs, q)
	}
	_, groups := MeasureCues("x", ".", qs)
	if len(groups) != 1 {
		t.Fatalf("groups %+v", groups)
	}
	if s := stat(groups[0], CueFirst); !near(s.Lead(), 6.7) || s.Over() {
		t.Errorf("first: lead %+.1f, over %v", s.Lead(), s.Over())
	}
	qs[2].Options[2].Right, qs[2].Options[0].Right = false, true
	_, groups = MeasureCues("x", ".", qs)
	if s := stat(groups[0], CueFirst); !s.Over() || len(groups[0].Findings()) == 0 {
		t.Errorf("three of five first: lead %+.1f, over %v", s.Lead(), s.Over())
	}
}
