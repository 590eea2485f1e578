package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/quiz"
)

// answers returns the letters that answer the session drawn with these
// settings right (or, with wrong, all wrong).
func answers(t *testing.T, topic string, count int, seed uint64, wrong bool) ([]string, []string) {
	t.Helper()
	bank, err := quiz.Default()
	if err != nil {
		t.Fatal(err)
	}
	s, err := quiz.NewSession(bank, quiz.Filter{Topic: topic}, count, seed)
	if err != nil {
		t.Fatal(err)
	}
	var letters, ids []string
	for _, p := range s.Questions() {
		i := p.Correct()
		if wrong {
			i = (i + 1) % len(p.Options)
		}
		letters = append(letters, quiz.Letter(i))
		ids = append(ids, p.Question.ID)
	}
	return letters, ids
}

func TestQuizAllRight(t *testing.T) {
	letters, _ := answers(t, "", 4, 11, false)
	code, out, errs := runWithStdin(t, strings.Join(letters, "\n")+"\n", "quiz", "--count", "4", "--seed", "11")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"4 questions (seed 11)", "Question 1/4", "Question 4/4", "✓ Right.", "(lesson: ", "Score: 4/4 (100%)", "Nothing missed."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestQuizMissedAndReview(t *testing.T) {
	letters, ids := answers(t, "patches", 3, 5, true)
	code, out, _ := runWithStdin(t, strings.Join(letters, "\n")+"\n", "quiz", "--topic", "patches", "--count", "3", "--seed", "5")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "Score: 0/3 (0%)") || !strings.Contains(out, "To review:") || !strings.Contains(out, "✗ Not quite: the answer is") {
		t.Fatalf("output:\n%s", out)
	}
	// Each missed question is listed with the lesson that teaches it (a
	// patches question may belong to a later lesson).
	for _, id := range ids {
		if !regexp.MustCompile(regexp.QuoteMeta(id) + ` \(lesson [a-z-]+\)`).MatchString(out) {
			t.Errorf("review lacks %s:\n%s", id, out)
		}
	}
}

func TestQuizIsDeterministic(t *testing.T) {
	in := "a\nb\nc\na\nb\n"
	_, a, _ := runWithStdin(t, in, "quiz", "--count", "5", "--seed", "99")
	_, b, _ := runWithStdin(t, in, "quiz", "--count", "5", "--seed", "99")
	if a != b || a == "" {
		t.Fatal("the same seed and answers gave two different quizzes")
	}
}

func TestQuizInput(t *testing.T) {
	letters, _ := answers(t, "", 2, 3, false)
	// A bad line is asked again; upper case and "b)" are accepted; q stops.
	in := "x\n" + strings.ToUpper(letters[0]) + "\nq\n"
	code, out, _ := runWithStdin(t, in, "quiz", "--count", "2", "--seed", "3")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`"x" is not an answer`, "✓ Right.", "Stopped after 1 of 2 questions.", "Score: 1/1 (100%)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// End of input stops the quiz too.
	code, out, _ = runWithStdin(t, "", "quiz", "--count", "2", "--seed", "3")
	if code != ExitOK || !strings.Contains(out, "Stopped after 0 of 2 questions.") || !strings.Contains(out, "Score: 0/0 (0%)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestQuizShowsCodeAndRace(t *testing.T) {
	// Every question once: bug questions print their snippet, race
	// questions their scenario and schedule.
	bank, _ := quiz.Default()
	n := len(bank.Select(quiz.Filter{Topic: "lost-update"}))
	in := strings.Repeat("a\n", n)
	_, out, _ := runWithStdin(t, in, "quiz", "--count", "0", "--seed", "1", "--topic", "lost-update")
	for _, want := range []string{"snippet update-clear-rv)", "func ForceOwner", "race: scenarios/lost-update.yaml · schedule a,a,b,b",
		"spot the bug", "predict the race", "pick the write method",
		"simulator: no-loss", "simulator, your answer (", "answer [a/b/c]: a\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestQuizUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"quiz", "--topic", "astrology"}, `--topic "astrology"`},
		{[]string{"quiz", "--seed", "x"}, "--seed"},
		{[]string{"quiz", "--count", "-1"}, "--count"},
	} {
		code, _, errs := runWithStdin(t, "", tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, %s", tc.args, code, errs)
		}
	}
}

// TestQuizCodeHasNoCommentsBeforeTheAnswer: the snippets of the course
// comment their defects; before a question is answered the quiz prints
// none of that (nor the snippet's name, which often names the defect).
func TestQuizCodeHasNoCommentsBeforeTheAnswer(t *testing.T) {
	bank, err := quiz.Default()
	if err != nil {
		t.Fatal(err)
	}
	n := len(bank.Questions)
	_, out, _ := runWithStdin(t, strings.Repeat("a\n", n), "quiz", "--count", "0", "--seed", "2")
	shown := 0
	for _, q := range strings.Split(out, "── Question ")[1:] {
		before, _, _ := strings.Cut(q, "answer [")
		if !strings.Contains(before, "func ") {
			continue
		}
		shown++
		for _, bad := range []string{"//", "DEFECT", "/*"} {
			if strings.Contains(before, bad) {
				t.Errorf("question shows %q before the answer:\n%s", bad, before)
			}
		}
		for _, qq := range bank.Questions {
			if qq.Snippet != "" && strings.Contains(before, qq.Snippet+"\n") {
				t.Errorf("question names snippet %s before the answer:\n%s", qq.Snippet, before)
			}
		}
	}
	if shown < 12 {
		t.Fatalf("only %d questions showed code", shown)
	}
}

func TestQuizDifficulty(t *testing.T) {
	_, out, _ := runWithStdin(t, "q\n", "quiz", "--difficulty", "advanced", "--count", "1", "--seed", "4")
	if !strings.Contains(out, " · advanced\n") {
		t.Errorf("an advanced quiz asked:\n%s", out)
	}
	code, _, errs := runWithStdin(t, "", "quiz", "--difficulty", "hard")
	if code != ExitUsage || !strings.Contains(errs, `--difficulty "hard": want one of basic, intermediate, advanced`) {
		t.Errorf("--difficulty hard: exit %d, %s", code, errs)
	}
}
