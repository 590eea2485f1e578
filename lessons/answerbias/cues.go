package answerbias

import (
	"fmt"
	"math"
	"regexp"
	"unicode/utf8"
)

// A surface cue is a rule a test-taker can apply without reading the
// race: pick the longest option, the shortest, the one in a favourite
// place, the only one that argues, the most specific. Each cue picks a
// set of options in every question (all of them when it cannot tell them
// apart); picking at random within that set, it is right with
// probability |picked ∩ right| / |picked|. Averaged over a set of
// questions, that is the cue's hit rate; chance is the same average of
// |right| / |options|. A cue that beats chance by more than MaxCueLead
// points (and by more than a whole number of right answers forces) over
// the course, over the quiz, or within one lesson, over at least
// MinCueGroup questions each, is a tell.

// The rules.
const (
	// MaxCueLead is how many points above chance a cue may pick the
	// right option.
	MaxCueLead = 5.0
	// MinCueGroup is the fewest questions a lesson needs for its own cue
	// figures to be judged.
	MinCueGroup = 5
)

// CueName names a surface cue.
type CueName string

// The cues. Position cues are not measured where options are shuffled.
const (
	CueLongest  CueName = "longest"
	CueShortest CueName = "shortest"
	CueFirst    CueName = "first"
	CueSecond   CueName = "second"
	CueThird    CueName = "third"
	CueFourth   CueName = "fourth"
	CueLast     CueName = "last"
	CueReason   CueName = "has-a-reason"
	CueBare     CueName = "no-reason"
	CueSpecific CueName = "most-specific"
)

// Cues lists them in the order reports show them.
var Cues = []CueName{CueLongest, CueShortest, CueFirst, CueSecond, CueThird, CueFourth, CueLast, CueReason, CueBare, CueSpecific}

// CueStat is one cue over a set of questions.
type CueStat struct {
	Cue CueName
	// Questions is the number of questions the cue applies to (a
	// position cue only to those with that many options, none when they
	// are shuffled).
	Questions int
	// Hit and Chance are the sums, over those questions, of the cue's
	// and of chance's probability of picking a right option.
	Hit, Chance float64
}

// Over reports whether the cue beats chance by more than MaxCueLead
// points — and by more than rounding forces: in n questions a cue is
// right a whole number of times, so it may be right as often as chance
// rounded up (five three-option questions put two right answers at one
// position whatever their order: 40% against 33%).
func (c CueStat) Over() bool {
	slack := max(MaxCueLead/100*float64(c.Questions), math.Ceil(c.Chance-1e-9)-c.Chance)
	return c.Hit-c.Chance > slack+1e-9
}

// HitPct and ChancePct are the averages, in percent; Lead is by how many
// points the cue beats chance.
func (c CueStat) HitPct() float64    { return pct(c.Hit, c.Questions) }
func (c CueStat) ChancePct() float64 { return pct(c.Chance, c.Questions) }
func (c CueStat) Lead() float64      { return c.HitPct() - c.ChancePct() }

func pct(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * sum / float64(n)
}

// CueReport is every cue over one set of questions: the course, the
// quiz, or one lesson.
type CueReport struct {
	// Scope names the set ("the course", "lesson 03-stale-cache.yaml").
	Scope string
	// File and Line place findings about it.
	File      string
	Line      int
	Questions int
	Stats     []CueStat
}

// MeasureCues measures every cue over qs (scope names the set, file and
// line place it) and, for each group of at least MinCueGroup questions,
// over that group alone.
func MeasureCues(scope, file string, qs []Question) (all CueReport, groups []CueReport) {
	all = measureCues(scope, file, 0, qs)
	var order []string
	by := map[string][]Question{}
	for _, q := range qs {
		if _, ok := by[q.Group]; !ok {
			order = append(order, q.Group)
		}
		by[q.Group] = append(by[q.Group], q)
	}
	for _, g := range order {
		if len(by[g]) >= MinCueGroup && g != "" {
			first := by[g][0]
			groups = append(groups, measureCues("lesson "+g, first.File, first.Line, by[g]))
		}
	}
	return all, groups
}

func measureCues(scope, file string, line int, qs []Question) CueReport {
	r := CueReport{Scope: scope, File: file, Line: line}
	stats := map[CueName]*CueStat{}
	for _, c := range Cues {
		stats[c] = &CueStat{Cue: c}
	}
	for _, q := range qs {
		n := len(q.Options)
		right := 0
		for _, o := range q.Options {
			if o.Right {
				right++
			}
		}
		if n < 2 || right == 0 {
			continue
		}
		r.Questions++
		chance := float64(right) / float64(n)
		for _, c := range Cues {
			picked, ok := pick(q, c)
			if !ok {
				continue
			}
			hit := 0
			for _, i := range picked {
				if q.Options[i].Right {
					hit++
				}
			}
			st := stats[c]
			st.Questions++
			st.Hit += float64(hit) / float64(len(picked))
			st.Chance += chance
		}
	}
	for _, c := range Cues {
		r.Stats = append(r.Stats, *stats[c])
	}
	return r
}

// pick is the options cue c picks in q (all of them when it cannot tell
// them apart); false when the cue does not apply.
func pick(q Question, c CueName) ([]int, bool) {
	n := len(q.Options)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	by := func(score func(Option) int, most bool) []int {
		var out []int
		best := 0
		for i, o := range q.Options {
			s := score(o)
			if !most {
				s = -s
			}
			switch {
			case len(out) == 0 || s > best:
				out, best = []int{i}, s
			case s == best:
				out = append(out, i)
			}
		}
		return out
	}
	position := func(i int) ([]int, bool) {
		if q.Shuffled || i >= n {
			return nil, false
		}
		return []int{i}, true
	}
	length := func(o Option) int { return utf8.RuneCountInString(o.Text) }
	reason := func(o Option) int {
		if HasReason(o.Text) {
			return 1
		}
		return 0
	}
	switch c {
	case CueLongest:
		return by(length, true), true
	case CueShortest:
		return by(length, false), true
	case CueFirst:
		return position(0)
	case CueSecond:
		return position(1)
	case CueThird:
		return position(2)
	case CueFourth:
		return position(3)
	case CueLast:
		return position(n - 1)
	case CueReason:
		return by(reason, true), true
	case CueBare:
		return by(reason, false), true
	case CueSpecific:
		return by(Specificity, true), true
	}
	return all, true
}

// specific marks what makes an option look precise: numbers, code, field
// paths and API names.
var specific = regexp.MustCompile("`[^`]+`|\\b\\d+(\\.\\d+)?(ms|s|x|×|%)?\\b|\\b[a-z]+\\.[a-zA-Z][\\w.\\[\\]=]*|\\b[A-Za-z]*[a-z][A-Z]\\w*\\b|\\b[A-Z]{2,}\\b")

// Specificity counts the numbers, code spans, field paths and API names
// in an option's text.
func Specificity(o Option) int { return len(specific.FindAllString(o.Text, -1)) }

// Findings are the cues of r that beat chance by more than MaxCueLead
// points (CueStat.Over), over at least MinCueGroup questions.
func (r CueReport) Findings() []Finding {
	var out []Finding
	if r.Questions < MinCueGroup {
		return nil // a pattern in so few is as likely chance as habit
	}
	for _, s := range r.Stats {
		if s.Questions < MinCueGroup || !s.Over() {
			continue
		}
		out = append(out, Finding{File: r.File, Line: r.Line, Check: Cue, Msg: fmt.Sprintf("over %s, picking the %s option is right %.1f%% of the time against %.1f%% by chance (+%.1f points over %d questions; at most +%.0f)",
			r.Scope, s.Cue, s.HitPct(), s.ChancePct(), s.Lead(), s.Questions, MaxCueLead)})
	}
	return out
}
