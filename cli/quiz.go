package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/quiz"
)

func newQuizCmd(env Env) *cobra.Command {
	var (
		topic, seed, difficulty string
		count                   int
	)
	cmd := &cobra.Command{
		Use:   "quiz [--topic TOPIC|LESSON|CONCEPT] [--difficulty LEVEL] [--count N] [--seed N]",
		Short: "Answer questions about the course, one per line",
		Long: `Asks questions from the course's question bank: multiple choice, the outcome of
a race, the bug in a snippet, the write method for a change. Answer each with
its letter (a, b, c or d) on a line of its own; q stops. After every answer
the explanation and the lesson to review are printed, and at the end the score
and the questions missed.

It reads answers from standard input, so it works in a pipe:
  printf 'a\nb\nc\n' | conflictlab quiz --count 3 --seed 7

--topic is a topic (` + "`" + `caches` + "`" + `, ` + "`" + `testing` + "`" + `, ` + "`" + `leader-election` + "`" + `…), a lesson ID (e.g.
stale-cache) or a concept (e.g. json-merge-patch); --difficulty is basic,
intermediate or advanced. Topics:
` + topicHelp() + `
The same --seed asks the same questions in the same order, and shows every
question's options in the same order (whatever the filter), so a room given
one seed takes one quiz. Without --seed a seed is picked and printed.

Code is shown without its comments until the question is answered: in the
course they explain the defect.

Exit codes: 0 the quiz ran, 2 usage error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			bank, err := quiz.Default()
			if err != nil {
				return &exitError{ExitInternal, err}
			}
			var s uint64
			if seed == "" {
				s = uint64(time.Now().UnixNano())
			} else if s, err = strconv.ParseUint(seed, 10, 64); err != nil {
				return usageErr(fmt.Errorf("--seed %q: want a non-negative number", seed))
			}
			if count < 0 {
				return usageErr(fmt.Errorf("--count %d: want a positive number (0 for all)", count))
			}
			if _, ok := quiz.Difficulties[difficulty]; difficulty != "" && !ok {
				return usageErr(fmt.Errorf("--difficulty %q: want one of %s", difficulty, strings.Join(quiz.DifficultyNames(), ", ")))
			}
			sess, err := quiz.NewSession(bank, quiz.Filter{Topic: topic, Difficulty: difficulty}, count, s)
			if errors.Is(err, quiz.ErrNoQuestions) && difficulty != "" && len(bank.Select(quiz.Filter{Topic: topic})) > 0 {
				return usageErr(fmt.Errorf("--topic %q --difficulty %q: no question is both; drop one of them", topic, difficulty))
			}
			if errors.Is(err, quiz.ErrNoQuestions) {
				return usageErr(fmt.Errorf("--topic %q: no question is about it; topics are %s, or a lesson ID or concept: %s",
					topic, strings.Join(bank.TopicTags(), ", "), strings.Join(bank.Topics(), ", ")))
			}
			if err != nil {
				return err
			}
			echo := env.IsTerminal == nil || !env.IsTerminal()
			return runQuiz(env.Stdin, env.Stdout, sess, bank, echo)
		},
	}
	cmd.Flags().StringVar(&topic, "topic", "", "only questions about this topic, lesson ID or concept")
	cmd.Flags().StringVar(&difficulty, "difficulty", "", "only questions of this difficulty: basic, intermediate or advanced")
	cmd.Flags().IntVar(&count, "count", 10, "number of questions (0 for every matching one)")
	cmd.Flags().StringVar(&seed, "seed", "", "draw the questions with this seed (a number)")
	return cmd
}

// runQuiz asks the session's questions on out and reads the answers from in
// (echoing them when in is not a terminal, so the transcript reads well).
// After a race or method question it plays the race to show what the
// simulator says.
func runQuiz(in io.Reader, out io.Writer, sess *quiz.Session, bank *quiz.Bank, echo bool) error {
	races := newRaceShow(bank)
	fmt.Fprintf(out, "Conflict Lab quiz: %d questions (seed %d). Answer with a letter; q stops.\n", sess.Len(), sess.Seed())
	lines := bufio.NewScanner(in)
	stopped := false
	for !sess.Done() && !stopped {
		p, _ := sess.Current()
		printQuestion(out, p)
		for {
			fmt.Fprintf(out, "answer [%s]: ", letters(len(p.Options)))
			if !lines.Scan() {
				fmt.Fprintln(out)
				stopped = true
				break
			}
			ans := strings.ToLower(strings.TrimSpace(lines.Text()))
			if echo {
				fmt.Fprintln(out, ans)
			}
			if ans == "q" || ans == "quit" {
				stopped = true
				break
			}
			i, ok := letterIndex(ans, len(p.Options))
			if !ok {
				fmt.Fprintf(out, "%q is not an answer: type one of %s (or q to stop).\n", ans, letters(len(p.Options)))
				continue
			}
			r, err := sess.Answer(i)
			if err != nil {
				return err
			}
			printResult(out, p, r)
			races.show(out, p, r)
			break
		}
	}
	printScore(out, sess, stopped)
	return nil
}

func printQuestion(out io.Writer, p quiz.Presented) {
	q := p.Question
	fmt.Fprintf(out, "\n── Question %d/%d · %s · %s · %s\n\n", p.Number, p.Total, q.Kind.Label(), q.Topic, q.Difficulty)
	fmt.Fprintln(out, q.Text)
	// The code without its comments, and without the snippet's name: the
	// course names snippets for what is wrong with them.
	if code, err := q.Code(); err == nil && code != "" {
		fmt.Fprintln(out)
		for _, l := range strings.Split(code, "\n") {
			fmt.Fprintln(out, strings.TrimRight("    "+l, " \t"))
		}
	}
	if q.Scenario != "" {
		fmt.Fprintf(out, "\n  race: %s", q.Scenario)
		if len(q.Schedule) > 0 {
			fmt.Fprintf(out, " · schedule %s", strings.Join(q.Schedule, ","))
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintln(out)
	for i, o := range p.Options {
		fmt.Fprintf(out, "  %s) %s\n", quiz.Letter(i), o.Text)
	}
}

func printResult(out io.Writer, p quiz.Presented, r quiz.Result) {
	if r.Right {
		fmt.Fprintln(out, "✓ Right.")
	} else {
		fmt.Fprintf(out, "✗ Not quite: the answer is %s) %s\n", quiz.Letter(r.Correct), p.Options[r.Correct].Text)
	}
	fmt.Fprintln(out, r.Explanation)
	if p.Question.Snippet != "" {
		fmt.Fprintf(out, "(lesson: %s; the code with its comments: snippet %s)\n", r.Lesson, p.Question.Snippet)
		return
	}
	fmt.Fprintf(out, "(lesson: %s)\n", r.Lesson)
}

// raceShow plays a question's race with the course pack, loaded on first use.
type raceShow struct {
	bank  *quiz.Bank
	races *racecache.Races
	err   error
}

func newRaceShow(bank *quiz.Bank) *raceShow { return &raceShow{bank: bank} }

func (r *raceShow) show(out io.Writer, p quiz.Presented, res quiz.Result) {
	q := p.Question
	if q.Kind != quiz.Race && q.Kind != quiz.Method {
		return
	}
	if r.races == nil && r.err == nil {
		var pack *lessons.Pack
		if pack, r.err = lessons.Course(); r.err == nil {
			r.races = racecache.New(pack)
			r.err = quiz.Prepare(r.bank, r.races)
		}
	}
	if r.err != nil {
		return
	}
	if q.Kind == quiz.Race {
		o, err := r.races.Race(q.Spec(nil))
		fmt.Fprintf(out, "simulator: %s\n", describeOutcome(o, err))
		return
	}
	play := func(label string, i int) {
		o, err := r.races.Race(q.Spec(p.Options[i].Strategy))
		fmt.Fprintf(out, "simulator, %s (%s): %s\n", label, quiz.Letter(i), describeOutcome(o, err))
	}
	play("your answer", res.Chosen)
	if !res.Right {
		play("the answer", res.Correct)
	}
}

func printScore(out io.Writer, sess *quiz.Session, stopped bool) {
	sc := sess.Score()
	fmt.Fprintln(out)
	if stopped && sc.Answered < sc.Total {
		fmt.Fprintf(out, "Stopped after %d of %d questions.\n", sc.Answered, sc.Total)
	}
	fmt.Fprintf(out, "Score: %d/%d (%d%%)\n", sc.Right, sc.Answered, sc.Percent())
	if len(sc.Missed) == 0 {
		if sc.Answered > 0 {
			fmt.Fprintln(out, "Nothing missed.")
		}
		return
	}
	fmt.Fprintln(out, "To review:")
	for _, m := range sc.Missed {
		fmt.Fprintf(out, "  %d. %s (lesson %s): %s\n", m.Number, m.Question.ID, m.Lesson, firstLine(m.Question.Text))
	}
}

func letters(n int) string {
	l := make([]string, n)
	for i := range l {
		l[i] = quiz.Letter(i)
	}
	return strings.Join(l, "/")
}

func letterIndex(s string, n int) (int, bool) {
	s = strings.TrimSuffix(s, ")")
	if len(s) != 1 {
		return 0, false
	}
	i := int(s[0] - 'a')
	return i, i >= 0 && i < n
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 90 {
		s = string(r[:87]) + "…"
	}
	return s
}

// topicHelp lists the topic tags with what each covers, for --help.
func topicHelp() string {
	var b strings.Builder
	for _, t := range quiz.TopicNames() {
		fmt.Fprintf(&b, "  %-17s %s\n", t, quiz.Topics[t])
	}
	return b.String()
}
