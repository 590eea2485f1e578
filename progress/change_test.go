package progress

import "testing"

func TestAnsweredScoresTheFirstAnswerToArrive(t *testing.T) {
	p := New()
	p.Apply(Answered{Lesson: "l", Step: 2, Option: "b", Correct: false})
	p.Apply(Answered{Lesson: "l", Step: 2, Option: "a", Correct: true})
	p.Apply(Answered{Lesson: "l", Step: 2, Option: "c", Correct: false})
	a := p.Lessons["l"].Answers[2]
	if a.FirstTry || !a.Correct || a.Picked != "b" || a.Attempts != 2 {
		t.Fatalf("answer %+v: want the first (b, wrong) scored, two tries until the right one, none after it", a)
	}
}

func TestVisitMovesAndDoneStays(t *testing.T) {
	p := New()
	p.Apply(Visit{Lesson: "l", Step: 3, Done: true})
	p.Apply(Visit{Lesson: "l", Step: 1})
	if l := p.Lessons["l"]; l.Step != 1 || !l.Done || p.Last != "l" {
		t.Fatalf("lesson %+v, last %q: want step 1, still done, last l", l, p.Last)
	}
}

func TestPlayedQuizAndChallengeKeepTheBest(t *testing.T) {
	p := New()
	p.Apply(Played{Lesson: "l", Step: 0, Moves: 6, Par: 4})
	p.Apply(Played{Lesson: "l", Step: 0, Moves: 4, Par: 4})
	if a := p.Lessons["l"].Answers[0]; a.Best != 4 || a.FirstTry {
		t.Fatalf("play %+v: want best 4, first solution over par", a)
	}
	if b, ok := p.QuizBestOf(""); ok && !b.BeatenBy(1, 2) {
		t.Fatal("no best yet, and BeatenBy says a first score is not one")
	}
	p.Apply(QuizTaken{Right: 3, Total: 4})
	if b, _ := p.QuizBestOf(""); b.BeatenBy(2, 4) || !b.BeatenBy(4, 4) {
		t.Fatalf("best %+v: 2/4 must not beat it, 4/4 must", b)
	}
	if !p.Beats("c", 5) {
		t.Fatal("a first solve must beat no solve")
	}
	p.Apply(ChallengeSolved{ID: "c", Score: 5})
	if p.Beats("c", 5) || !p.Beats("c", 4) {
		t.Fatalf("challenge %+v: 5 must not beat 5, 4 must", p.Challenges["c"])
	}
}

func TestCloneSharesNothing(t *testing.T) {
	p := New()
	p.Apply(Answered{Lesson: "l", Step: 0, Option: "a", Correct: true})
	p.Apply(QuizTaken{Right: 1, Total: 2})
	c := p.Clone()
	p.Apply(Answered{Lesson: "l", Step: 1, Option: "a", Correct: true})
	p.Apply(QuizTaken{Right: 2, Total: 2})
	p.Apply(Visit{Lesson: "m", Step: 1})
	if len(c.Lessons["l"].Answers) != 1 || c.Quiz[QuizAll].Right != 1 || c.Lessons["m"] != nil || c.Last != "l" && c.Last != "" {
		t.Fatalf("the copy changed with the original: %+v", c)
	}
	if got := p.Peek("nowhere"); got == nil || p.Lessons["nowhere"] != nil {
		t.Fatal("Peek must give an empty record without adding one")
	}
}
