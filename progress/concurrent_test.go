package progress

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// helperEnv makes the test binary a second learner's session: TestMain
// runs the helper it names instead of the tests. Two real processes share
// one progress file the way two terminals on one account do.
const helperEnv = "CONFLICTLAB_PROGRESS_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "answer":
		os.Exit(helperAnswer())
	case "stale":
		os.Exit(helperStale())
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
		os.Exit(9)
	}
}

// helperAnswer loads the progress, says "loaded", waits for a line on
// stdin (so both sessions hold what was on disk before either saved),
// then answers COUNT steps of lesson "shared" (every other step, from
// FIRST) and COUNT steps of its own lesson, saving after each answer,
// and finishes one quiz.
func helperAnswer() int {
	path, own := os.Getenv("PROGRESS_PATH"), os.Getenv("OWN_LESSON")
	first, _ := strconv.Atoi(os.Getenv("FIRST"))
	count, _ := strconv.Atoi(os.Getenv("COUNT"))
	s := Open(path)
	p, notice := s.Load()
	if notice != "" {
		fmt.Fprintln(os.Stderr, notice)
		return 1
	}
	fmt.Println("loaded")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 1
	}
	// Session b saves the way the TUI does: numbered copies.
	save := s.Save
	if own == "b" {
		var seq uint64
		save = func(p *Progress) error {
			seq++
			return s.WriteCopy(seq, p.Clone())
		}
	}
	for i := 0; i < count; i++ {
		p.Lesson("shared").Record(first+2*i, true)
		p.Lesson(own).Record(i, i%2 == 0)
		p.Lesson(own).Step = i
		if err := save(p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	p.RecordQuiz(own, first+3, 5)
	if err := save(p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// helperStale is a session that answers step 0 of "stale", saves, says
// "saved", waits for a line on stdin (meanwhile the test imports other
// progress), answers step 1 and saves again, as a TUI left open does.
func helperStale() int {
	s := Open(os.Getenv("PROGRESS_PATH"))
	p, notice := s.Load()
	if notice != "" {
		fmt.Fprintln(os.Stderr, notice)
		return 1
	}
	p.Lesson("stale").Record(0, true)
	p.Last = "stale"
	if err := s.Save(p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("saved")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 1
	}
	p.Lesson("stale").Record(1, false)
	if err := s.Save(p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type helper struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	errbf *os.File
}

func startHelper(t *testing.T, kind string, env ...string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+kind), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = errf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &helper{cmd: cmd, in: in, out: bufio.NewReader(out), errbf: errf}
}

// expect waits for the helper to print line.
func (h *helper) expect(t *testing.T, line string) {
	t.Helper()
	got, err := h.out.ReadString('\n')
	if err != nil || got != line+"\n" {
		t.Fatalf("helper said %q (%v), want %q; stderr: %s", got, err, line, h.stderr())
	}
}

func (h *helper) stderr() string {
	b, _ := os.ReadFile(h.errbf.Name())
	return string(b)
}

func (h *helper) wait(t *testing.T) {
	t.Helper()
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("helper: %v; stderr: %s", err, h.stderr())
	}
}

// TestTwoSessionsNeverLoseAnAnswer: two processes load the same progress,
// then save different answers concurrently, one save per answer. Every
// answer of both must be on disk at the end, and each quiz score.
func TestTwoSessionsNeverLoseAnAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conflictlab", FileName)
	seed := New()
	seed.Lesson("versions").Done = true
	if err := Open(path).Save(seed); err != nil {
		t.Fatal(err)
	}
	const count = 150
	a := startHelper(t, "answer", "PROGRESS_PATH="+path, "OWN_LESSON=a", "FIRST=0", "COUNT="+strconv.Itoa(count))
	b := startHelper(t, "answer", "PROGRESS_PATH="+path, "OWN_LESSON=b", "FIRST=1", "COUNT="+strconv.Itoa(count))
	a.expect(t, "loaded")
	b.expect(t, "loaded")
	io.WriteString(a.in, "go\n")
	io.WriteString(b.in, "go\n")
	a.wait(t)
	b.wait(t)

	got, notice := Open(path).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	if got.StateOf("versions") != Done {
		t.Error("the progress both sessions started from was lost")
	}
	shared := got.Lessons["shared"]
	if shared == nil {
		t.Fatal("lesson shared is gone")
	}
	missing := 0
	for step := 0; step < 2*count; step++ {
		if a, ok := shared.Answers[step]; !ok || a.Attempts != 1 || !a.Correct {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d answers to lesson shared are lost or wrong", missing, 2*count)
	}
	for _, id := range []string{"a", "b"} {
		l := got.Lessons[id]
		if l == nil || len(l.Answers) != count {
			t.Errorf("lesson %s: %+v, want %d answers", id, l, count)
			continue
		}
		if l.Step != count-1 {
			t.Errorf("lesson %s: step %d, want %d", id, l.Step, count-1)
		}
		if right, _ := l.Score(); right != count/2 {
			t.Errorf("lesson %s: %d right first time, want %d", id, right, count/2)
		}
	}
	if qa, ok := got.QuizBestOf("a"); !ok || qa.Right != 3 || qa.Taken != 1 {
		t.Errorf("quiz a: %+v %v", qa, ok)
	}
	if qb, ok := got.QuizBestOf("b"); !ok || qb.Right != 4 || qb.Taken != 1 {
		t.Errorf("quiz b: %+v %v", qb, ok)
	}
}

// TestImportSurvivesARunningSession: a session that loaded and saved
// before an import saves again after it; the imported progress stays,
// with only the answer the session gave since, and what the import
// replaced does not come back.
func TestImportSurvivesARunningSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conflictlab", FileName)
	h := startHelper(t, "stale", "PROGRESS_PATH="+path)
	h.expect(t, "saved")

	imported := New()
	imported.Lesson("imported").Done = true
	imported.Lesson("imported").Record(2, true)
	imported.Last = "imported"
	data, err := Encode(imported)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importBytes(Open(path), data); err != nil {
		t.Fatal(err)
	}
	io.WriteString(h.in, "go\n")
	h.wait(t)

	got, notice := Open(path).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	if got.StateOf("imported") != Done || got.Lessons["imported"].Answers[2].Attempts != 1 {
		t.Fatalf("the import was overwritten by the session's next save: %+v", got.Lessons)
	}
	if got.Last != "imported" {
		t.Errorf("last = %q: the session did not move, the import's place should stay", got.Last)
	}
	st := got.Lessons["stale"]
	if st == nil {
		t.Fatal("the answer given after the import is lost")
	}
	if _, ok := st.Answers[1]; !ok {
		t.Errorf("the answer given after the import is lost: %+v", st.Answers)
	}
	if _, ok := st.Answers[0]; ok {
		t.Errorf("an answer the import replaced came back: %+v", st.Answers)
	}
}

// importBytes imports what export wrote, as `progress import` does.
func importBytes(s *Store, data []byte) (string, error) {
	p, err := Decode(data)
	if err != nil {
		return "", err
	}
	return s.Import(p)
}
