// Package answerbias measures how far a set of multiple-choice questions can
// be answered without understanding them: by picking the longest option, the
// option in a favourite place, or the only option that gives a reason.
// Test-takers learn these tells fast; questions that have them measure
// test-taking, not Kubernetes.
//
// One set of rules judges both the course's predict and choose steps and
// the quiz bank, so an author meets the same standard wherever they write a
// question.
package answerbias

import (
	"fmt"
	"unicode/utf8"
)

// Item is one question with exactly one right option. Questions with several
// right options give nothing away by position or length; leave them out.
type Item struct {
	// Group is the lesson the question belongs to ("" for none): within one
	// lesson, right answers that always sit in the same place are a tell a
	// learner meets in a single sitting.
	Group string
	// Right is the index of the right option as written.
	Right int
	// Options are the options' texts as written.
	Options []string
}

// The rules. Shares are percents of the measured questions.
const (
	// MinItems is how many questions the set-wide rules need before they
	// judge: with fewer, a pattern is as likely chance as habit.
	MinItems = 6
	// MaxLongestShare is the share of questions whose right option may be
	// strictly the longest: chance is 25 to 33%.
	MaxLongestShare = 40
	// MinLongestShare is the share under which the right option is so
	// rarely the longest that ruling out the longest option pays:
	// over-correcting the first tell makes a second one.
	MinLongestShare = 15
	// MaxPositionShare is the share of right answers one place may hold.
	MaxPositionShare = 45
	// GroupSame is the number of questions in one lesson from which right
	// answers that all sit in one place are flagged.
	GroupSame = 3
	// GiveawayRatio is how much longer than every wrong option a right
	// option may be.
	GiveawayRatio = 1.25
	// StubRatio is how much shorter than the right option a wrong one may
	// be: a bare claim beside a reasoned answer.
	StubRatio = 0.5
)

// Report is what Measure found.
type Report struct {
	// Items is the number of questions measured.
	Items int
	// RightLongest counts the questions whose right option is strictly the
	// longest.
	RightLongest int
	// Position counts where the right option is written (index 0, 1, …).
	Position []int
	// Giveaways are the questions (indexes into Measure's items) whose right
	// option is more than GiveawayRatio times as long as the longest wrong
	// one.
	Giveaways []int
	// Stubs are the questions (indexes) with a wrong option under StubRatio
	// of the right one's length.
	Stubs []int
	// SamePlace are the lessons (with GroupSame questions or more) whose
	// right answers all sit at one position.
	SamePlace []Group
}

// Group is one lesson whose right answers all sit at one place.
type Group struct {
	Name     string
	Items    int
	Position int
}

// Measure measures items.
func Measure(items []Item) Report {
	var r Report
	type group struct {
		n, pos int
		same   bool
	}
	groups := map[string]*group{}
	var order []string
	for idx, it := range items {
		if it.Right < 0 || it.Right >= len(it.Options) || len(it.Options) < 2 {
			continue
		}
		r.Items++
		for len(r.Position) <= it.Right {
			r.Position = append(r.Position, 0)
		}
		r.Position[it.Right]++
		rl := utf8.RuneCountInString(it.Options[it.Right])
		longestWrong, shortestWrong := 0, -1
		for i, o := range it.Options {
			if i == it.Right {
				continue
			}
			n := utf8.RuneCountInString(o)
			longestWrong = max(longestWrong, n)
			if shortestWrong < 0 || n < shortestWrong {
				shortestWrong = n
			}
		}
		if rl > longestWrong {
			r.RightLongest++
		}
		if float64(rl) > GiveawayRatio*float64(longestWrong) {
			r.Giveaways = append(r.Giveaways, idx)
		}
		if float64(shortestWrong) < StubRatio*float64(rl) {
			r.Stubs = append(r.Stubs, idx)
		}
		if it.Group == "" {
			continue
		}
		g := groups[it.Group]
		if g == nil {
			g = &group{pos: it.Right, same: true}
			groups[it.Group] = g
			order = append(order, it.Group)
		}
		g.n++
		g.same = g.same && g.pos == it.Right
	}
	for _, name := range order {
		if g := groups[name]; g.same && g.n >= GroupSame {
			r.SamePlace = append(r.SamePlace, Group{Name: name, Items: g.n, Position: g.pos})
		}
	}
	return r
}

// Problem is one tell: at one question (Item, an index into Measure's
// items), in one lesson (Group), or over the whole set (Item is -1 and Group
// empty).
type Problem struct {
	Item  int
	Group string
	Msg   string
}

// Problems lists what makes the measured questions guessable.
func (r Report) Problems() []Problem {
	var out []Problem
	if r.Items >= MinItems {
		if r.RightLongest*100 > MaxLongestShare*r.Items {
			out = append(out, Problem{Item: -1, Msg: fmt.Sprintf("the right option is the longest in %d of %d questions (more than %d%%): pick-the-longest scores", r.RightLongest, r.Items, MaxLongestShare)})
		}
		if r.RightLongest*100 < MinLongestShare*r.Items {
			out = append(out, Problem{Item: -1, Msg: fmt.Sprintf("the right option is the longest in only %d of %d questions (under %d%%): ruling out the longest scores", r.RightLongest, r.Items, MinLongestShare)})
		}
		for i, n := range r.Position {
			if n*100 > MaxPositionShare*r.Items {
				out = append(out, Problem{Item: -1, Msg: fmt.Sprintf("the right option is written %s in %d of %d questions (more than %d%%): vary its position", Letter(i), n, r.Items, MaxPositionShare)})
			}
		}
	}
	for _, g := range r.SamePlace {
		out = append(out, Problem{Item: -1, Group: g.Name, Msg: fmt.Sprintf("the right option is written %s in all %d questions of this lesson: vary its position", Letter(g.Position), g.Items)})
	}
	for _, i := range r.Giveaways {
		out = append(out, Problem{Item: i, Msg: fmt.Sprintf("the right option is more than %.2f times as long as every wrong one", GiveawayRatio)})
	}
	for _, i := range r.Stubs {
		out = append(out, Problem{Item: i, Msg: "a wrong option is under half the right one's length: give it its reason"})
	}
	return out
}

// Letter names option i as a learner sees it: a, b, c, …
func Letter(i int) string { return string(rune('a' + i)) }
