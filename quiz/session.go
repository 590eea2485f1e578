package quiz

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
)

// Filter chooses the questions a session draws from.
type Filter struct {
	// Topic is a lesson ID or a concept key; empty means every question.
	Topic string
	// Kinds, when set, keeps only questions of these kinds.
	Kinds []Kind
	// Difficulty, when set, keeps only questions of that difficulty.
	Difficulty string
}

// Match reports whether q passes the filter.
func (f Filter) Match(q *Question) bool {
	if !q.HasTopic(f.Topic) {
		return false
	}
	if f.Difficulty != "" && q.Difficulty != f.Difficulty {
		return false
	}
	if len(f.Kinds) == 0 {
		return true
	}
	for _, k := range f.Kinds {
		if q.Kind == k {
			return true
		}
	}
	return false
}

// Select returns the questions that pass the filter, in bank order.
func (b *Bank) Select(f Filter) []*Question {
	var out []*Question
	for _, q := range b.Questions {
		if f.Match(q) {
			out = append(out, q)
		}
	}
	return out
}

// ErrNoQuestions is returned when the filter leaves nothing to ask.
var ErrNoQuestions = errors.New("no question matches")

// pcgStream is the second PCG word: fixed, so that a seed alone decides.
const pcgStream = 0x7175697a636c6162 // "quizclab"

// Session is one quiz in progress. It is not safe for concurrent use.
type Session struct {
	items   []Presented
	results []Result
	seed    uint64
}

// Presented is a question as the learner sees it: options in the order of
// the session (Options[i] is answer letter 'a'+i).
type Presented struct {
	// Number is the question's place in the session, from 1; Total the
	// number of questions.
	Number, Total int
	Question      *Question
	Options       []Option
	// order[i] is the bank index of displayed option i.
	order []int
}

// Correct is the displayed index of the correct option.
func (p Presented) Correct() int {
	for i, o := range p.Options {
		if o.Correct {
			return i
		}
	}
	return -1
}

// Result is what answering a question produced.
type Result struct {
	Question *Question
	// Number is the question's place in the session, from 1.
	Number int
	// Chosen and Correct are displayed option indexes.
	Chosen, Correct int
	Right           bool
	// Explanation and Lesson point the learner onwards.
	Explanation string
	Lesson      string
}

// Score is the tally so far.
type Score struct {
	Right, Answered, Total int
	// Missed are the wrongly answered questions, in session order.
	Missed []Result
}

// Percent is the share of answered questions that were right (0 when
// nothing was answered).
func (s Score) Percent() int {
	if s.Answered == 0 {
		return 0
	}
	return s.Right * 100 / s.Answered
}

// NewSession draws count questions (all of them when count <= 0 or more
// than match) from the bank, in an order set by seed: the same bank,
// filter, count and seed give the same questions in the same order, with
// the same order of options (see OptionOrder).
func NewSession(b *Bank, f Filter, count int, seed uint64) (*Session, error) {
	if b == nil {
		return nil, errors.New("no question bank")
	}
	pool := b.Select(f)
	if len(pool) == 0 {
		switch {
		case f.Topic != "" && f.Difficulty != "":
			return nil, fmt.Errorf("%w topic %q at difficulty %q", ErrNoQuestions, f.Topic, f.Difficulty)
		case f.Topic != "":
			return nil, fmt.Errorf("%w topic %q", ErrNoQuestions, f.Topic)
		case f.Difficulty != "":
			return nil, fmt.Errorf("%w difficulty %q", ErrNoQuestions, f.Difficulty)
		}
		return nil, ErrNoQuestions
	}
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	if count <= 0 || count > len(pool) {
		count = len(pool)
	}
	pool = pool[:count]
	s := &Session{seed: seed}
	for i, q := range pool {
		order := OptionOrder(q, seed)
		opts := make([]Option, len(order))
		for k, j := range order {
			opts[k] = q.Options[j]
		}
		s.items = append(s.items, Presented{Number: i + 1, Total: count, Question: q, Options: opts, order: order})
	}
	return s, nil
}

// OptionOrder is the order a learner with this seed sees q's options in:
// order[i] is the bank index of displayed option i. It depends on the seed
// and the question's ID only — not on the filter, the count or where the
// question falls in the session — so a workshop room given one seed sees
// every question's options in one order, whatever each person filtered,
// while another seed shuffles them anew (the bank's own order, where an
// author tends to put the right answer, is never what anyone sees).
func OptionOrder(q *Question, seed uint64) []int {
	h := fnv.New64a()
	h.Write([]byte(q.ID))
	return rand.New(rand.NewPCG(seed, h.Sum64())).Perm(len(q.Options))
}

// Seed is the seed the session was drawn with.
func (s *Session) Seed() uint64 { return s.seed }

// Len is the number of questions in the session.
func (s *Session) Len() int { return len(s.items) }

// Questions lists the session's questions in order, as presented.
func (s *Session) Questions() []Presented { return append([]Presented(nil), s.items...) }

// Done reports whether every question has been answered.
func (s *Session) Done() bool { return len(s.results) >= len(s.items) }

// Current is the question to answer next; ok is false when Done.
func (s *Session) Current() (p Presented, ok bool) {
	if s.Done() {
		return Presented{}, false
	}
	return s.items[len(s.results)], true
}

// Answer answers the current question with displayed option i and moves on.
func (s *Session) Answer(i int) (Result, error) {
	p, ok := s.Current()
	if !ok {
		return Result{}, errors.New("the quiz is over")
	}
	if i < 0 || i >= len(p.Options) {
		return Result{}, fmt.Errorf("answer %d: want 0 to %d", i, len(p.Options)-1)
	}
	r := Result{Question: p.Question, Number: p.Number, Chosen: i, Correct: p.Correct(), Right: p.Options[i].Correct,
		Explanation: p.Question.Explanation, Lesson: p.Question.Lesson}
	s.results = append(s.results, r)
	return r, nil
}

// Results are the answers so far, in order.
func (s *Session) Results() []Result { return append([]Result(nil), s.results...) }

// Score tallies the answers so far.
func (s *Session) Score() Score {
	sc := Score{Total: len(s.items), Answered: len(s.results)}
	for _, r := range s.results {
		if r.Right {
			sc.Right++
		} else {
			sc.Missed = append(sc.Missed, r)
		}
	}
	return sc
}

// Letter is the answer letter of displayed option i ('a' for 0).
func Letter(i int) string { return string(rune('a' + i)) }
