package quiz

import (
	"fmt"
	"unicode/utf8"
)

// Bias is how far a set of questions can be answered without understanding
// them: by picking the longest option, the option in a favourite place, or
// the only option that gives a reason. Test-takers learn these tells fast;
// a bank that has them measures test-taking, not Kubernetes.
type Bias struct {
	// Items is the number of questions measured.
	Items int
	// RightLongest counts the questions whose right option is strictly
	// the longest. By chance it is about one in three or four; far more
	// or far fewer is a tell.
	RightLongest int
	// Position counts where the right option is written in the bank
	// (index 0 to MaxOptions-1). Sessions shuffle options, but an author's
	// habit here shows up anywhere the bank order leaks.
	Position [MaxOptions]int
	// Giveaways are questions whose right option is much longer than the
	// longest wrong one (more than GiveawayRatio times).
	Giveaways []*Question
	// Stubs are questions with a wrong option less than StubRatio of the
	// right one's length: a bare claim beside a reasoned answer.
	Stubs []*Question
}

const (
	// GiveawayRatio is how much longer than every wrong option a right
	// option may be.
	GiveawayRatio = 1.25
	// StubRatio is how much shorter than the right option a wrong one may
	// be.
	StubRatio = 0.5
	// MaxLongestShare is the share (percent) of questions whose right
	// option may be the longest before the bank counts as biased: chance
	// is 25 to 33%.
	MaxLongestShare = 40
	// MinLongestShare is the share (percent) under which the right option
	// is so rarely the longest that ruling out the longest option pays:
	// over-correcting the first tell makes a second one.
	MinLongestShare = 15
	// MaxPositionShare is the share (percent) of right answers one place
	// may hold.
	MaxPositionShare = 45
)

// MeasureBias measures qs.
func MeasureBias(qs []*Question) Bias {
	var b Bias
	for _, q := range qs {
		right := q.Answer()
		if right < 0 {
			continue
		}
		b.Items++
		b.Position[right]++
		rl := utf8.RuneCountInString(q.Options[right].Text)
		longestWrong, shortestWrong := 0, -1
		for i, o := range q.Options {
			if i == right {
				continue
			}
			n := utf8.RuneCountInString(o.Text)
			longestWrong = max(longestWrong, n)
			if shortestWrong < 0 || n < shortestWrong {
				shortestWrong = n
			}
		}
		if rl > longestWrong {
			b.RightLongest++
		}
		if float64(rl) > GiveawayRatio*float64(longestWrong) {
			b.Giveaways = append(b.Giveaways, q)
		}
		if float64(shortestWrong) < StubRatio*float64(rl) {
			b.Stubs = append(b.Stubs, q)
		}
	}
	return b
}

// Problems lists what makes the measured questions guessable, one message
// each, placed at the question's file and line where it is one question's.
func (b Bias) Problems() []string {
	var out []string
	if b.Items == 0 {
		return nil
	}
	if b.RightLongest*100 > MaxLongestShare*b.Items {
		out = append(out, fmt.Sprintf("the right option is the longest in %d of %d questions (more than %d%%): pick-the-longest scores", b.RightLongest, b.Items, MaxLongestShare))
	}
	if b.RightLongest*100 < MinLongestShare*b.Items {
		out = append(out, fmt.Sprintf("the right option is the longest in only %d of %d questions (under %d%%): ruling out the longest scores", b.RightLongest, b.Items, MinLongestShare))
	}
	for i, n := range b.Position {
		if n*100 > MaxPositionShare*b.Items {
			out = append(out, fmt.Sprintf("the right option is written %s in %d of %d questions (more than %d%%)", Letter(i), n, b.Items, MaxPositionShare))
		}
	}
	for _, q := range b.Giveaways {
		out = append(out, fmt.Sprintf("%s:%d: %s: the right option is more than %.2f times as long as every wrong one", q.File, q.Line, q.ID, GiveawayRatio))
	}
	for _, q := range b.Stubs {
		out = append(out, fmt.Sprintf("%s:%d: %s: a wrong option is under half the right one's length: give it its reason", q.File, q.Line, q.ID))
	}
	return out
}
