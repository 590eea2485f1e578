package progress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeRules checks each field's rule on one merge: what the session
// changed since base is applied, what another session saved stays.
func TestMergeRules(t *testing.T) {
	base := New()
	base.Last = "a"
	base.Lesson("a").Record(0, false)
	base.RecordQuiz("", 3, 5)
	base.RecordChallenge("break", 6)

	// The file: base, plus another session's work.
	disk := base.clone()
	disk.Lesson("a").Record(0, true) // a second attempt at step 0
	disk.Lesson("a").Record(1, true)
	disk.Lesson("other").Done = true
	disk.RecordQuiz("", 4, 5)
	disk.RecordChallenge("break", 5)

	// This session, since base.
	mine := base.clone()
	mine.Last = "b"
	mine.Lesson("a").Record(0, true) // its own second attempt
	mine.Lesson("a").Step = 3
	mine.Lesson("b").Record(2, true)
	mine.Lesson("b").Done = true
	mine.RecordQuiz("", 5, 5)
	mine.RecordChallenge("break", 7) // worse than base: not recorded
	mine.RecordChallenge("fix", 2)

	got := Merge(disk, base, mine)
	if got.Last != "b" {
		t.Errorf("last %q, want the session's move to b", got.Last)
	}
	a := got.Lessons["a"]
	if a.Step != 3 {
		t.Errorf("lesson a step %d, want 3", a.Step)
	}
	if x := a.Answers[0]; x.Attempts != 3 || !x.Correct || x.FirstTry {
		t.Errorf("step 0 answered once before, once in each session: %+v, want 3 attempts, correct, not first try", x)
	}
	if x := a.Answers[1]; x.Attempts != 1 || !x.FirstTry {
		t.Errorf("the other session's answer to step 1: %+v", x)
	}
	if got.StateOf("other") != Done || got.StateOf("b") != Done || got.Lessons["b"].Answers[2].Attempts != 1 {
		t.Errorf("lessons: %+v", got.Lessons)
	}
	if b, _ := got.QuizBestOf(""); b.Right != 5 || b.Total != 5 || b.Taken != 3 {
		t.Errorf("quiz %+v, want best 5/5 over 3 taken", b)
	}
	if got.Challenges["break"].Best != 5 || got.Challenges["fix"].Best != 2 {
		t.Errorf("challenges break %d fix %d, want 5 and 2", got.Challenges["break"].Best, got.Challenges["fix"].Best)
	}
	// Merge leaves its inputs alone.
	if disk.Lessons["a"].Answers[0].Attempts != 2 || disk.Last != "a" {
		t.Errorf("merge changed the disk copy: %+v", disk.Lessons["a"])
	}

	// A session with nothing new writes the file back unchanged.
	same := Merge(disk, mine, mine)
	d1, _ := Encode(disk)
	d2, _ := Encode(same)
	if string(d1) != string(d2) {
		t.Errorf("an empty change altered the file:\n%s\nvs\n%s", d1, d2)
	}
}

// TestResetIsNotUndoneByARunningSession: a session that loaded before a
// reset saves after it; only what it did since its last save is kept.
func TestResetIsNotUndoneByARunningSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	tui := Open(path)
	p, _ := tui.Load()
	p.Lesson("old").Done = true
	p.Lesson("kept").Record(0, true)
	if err := tui.Save(p); err != nil {
		t.Fatal(err)
	}
	if had, err := Open(path).Reset(); !had || err != nil {
		t.Fatalf("reset: %v %v", had, err)
	}
	p.Lesson("kept").Record(1, false)
	if err := tui.Save(p); err != nil {
		t.Fatal(err)
	}
	got, _ := Open(path).Load()
	if got.StateOf("old") != NotStarted {
		t.Errorf("the reset was undone: lesson old is %s", got.StateOf("old"))
	}
	k := got.Lessons["kept"]
	if k == nil || len(k.Answers) != 1 || k.Answers[1].Attempts != 1 {
		t.Errorf("after the reset the file should hold only the new answer: %+v", k)
	}
}

// TestSymlinkedFileStaysASymlink: save, import and reset write through a
// symlinked progress.json; the link stays a link.
func TestSymlinkedFileStaysASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "progress.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(`{"version":1,"lessons":{"versions":{"step":0,"done":true}}}`), 0o600)
	link := filepath.Join(dir, "state", FileName)
	os.MkdirAll(filepath.Dir(link), 0o700)
	if err := os.Symlink("../dotfiles/progress.json", link); err != nil {
		t.Fatal(err)
	}
	isLink := func(when string) {
		t.Helper()
		fi, err := os.Lstat(link)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("after %s progress.json is no longer a symlink (%v)", when, err)
		}
	}
	s := Open(link)
	p, notice := s.Load()
	if notice != "" || p.StateOf("versions") != Done {
		t.Fatalf("load through the link: %q %+v", notice, p)
	}
	p.Lesson("lost-update").Record(0, true)
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	isLink("a save")
	if data, _ := os.ReadFile(real); !strings.Contains(string(data), "lost-update") {
		t.Fatalf("the save did not reach the link's target:\n%s", data)
	}

	imp := New()
	imp.Lesson("imported").Done = true
	backup, err := s.Import(imp)
	if err != nil {
		t.Fatal(err)
	}
	isLink("an import")
	if data, _ := os.ReadFile(real); !strings.Contains(string(data), "imported") {
		t.Fatalf("the import did not reach the link's target:\n%s", data)
	}
	if data, _ := os.ReadFile(backup); !strings.Contains(string(data), "lost-update") {
		t.Fatalf("backup %s does not hold the replaced progress:\n%s", backup, data)
	}

	if had, err := s.Reset(); !had || err != nil {
		t.Fatalf("reset: %v %v", had, err)
	}
	isLink("a reset")
	if got, _ := Open(real).Load(); len(got.Lessons) != 0 {
		t.Fatalf("reset left progress in the target: %+v", got.Lessons)
	}
	// A dangling link is written through too.
	os.Remove(real)
	if err := Open(link).Save(p); err != nil {
		t.Fatal(err)
	}
	isLink("a save through a dangling link")
	if _, err := os.Stat(real); err != nil {
		t.Fatalf("the save through a dangling link did not create its target: %v", err)
	}
}

// TestImportKeepsNumberedBackups: each import keeps what it replaced in
// the next free progress.json.bak-N.
func TestImportKeepsNumberedBackups(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	first := New()
	first.Last = "first"
	if b, err := s.Import(first); err != nil || b != "" {
		t.Fatalf("import over nothing: %q %v", b, err)
	}
	os.WriteFile(path+".bak-1", []byte("someone else's"), 0o600)
	second := New()
	second.Last = "second"
	b, err := s.Import(second)
	if err != nil || b != path+".bak-2" {
		t.Fatalf("backup %q (%v), want %s.bak-2", b, err, path)
	}
	if data, _ := os.ReadFile(b); !strings.Contains(string(data), `"last": "first"`) {
		t.Errorf("backup holds %s", data)
	}
	if data, _ := os.ReadFile(path + ".bak-1"); string(data) != "someone else's" {
		t.Error("an existing backup was overwritten")
	}
}

// A play step's best solution merges as the fewest moves either session
// found; its first solution (FirstTry) stays the file's.
func TestMergePlayBest(t *testing.T) {
	base := New()
	disk := base.clone()
	disk.Lesson("a").RecordPlay(4, 6, 4) // over par
	mine := base.clone()
	mine.Lesson("a").RecordPlay(4, 5, 4)
	got := Merge(disk, base, mine).Lessons["a"].Answers[4]
	if got.Best != 5 || got.Attempts != 2 || !got.Correct || got.FirstTry {
		t.Fatalf("merged %+v, want best 5 over 2 attempts, correct, not at par first", got)
	}
	l := &Lesson{}
	if a := l.RecordPlay(0, 4, 4); !a.FirstTry || a.Best != 4 {
		t.Fatalf("a first solution at par: %+v", a)
	}
	if a := l.RecordPlay(0, 7, 4); !a.FirstTry || a.Best != 4 || a.Attempts != 2 {
		t.Fatalf("a worse second solution changes neither the score nor the best: %+v", a)
	}
}

// TestMergeExercises: an exercise passed in either the file or the
// session stays passed; the session's clone is its own.
func TestMergeExercises(t *testing.T) {
	base := New()
	mine := base.Clone()
	mine.Apply(ExercisePassed{ID: "01-retry-fresh-read"})
	disk := New()
	disk.RecordExercise("02-return-the-error")
	got := Merge(disk, base, mine)
	for _, id := range []string{"01-retry-fresh-read", "02-return-the-error"} {
		if !got.ExercisePassed(id) {
			t.Errorf("%s not passed after the merge", id)
		}
	}
	if got.ExercisePassed("03-add-finalizer") {
		t.Error("03 passed, which nobody passed")
	}
	c := got.Clone()
	c.Exercises["01-retry-fresh-read"].Passed = false
	if !got.ExercisePassed("01-retry-fresh-read") {
		t.Error("the clone shares its records with the original")
	}
	if mine.RecordExercise("01-retry-fresh-read") {
		t.Error("a second pass counts as a first")
	}
	data, err := Encode(got)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil || !back.ExercisePassed("02-return-the-error") {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	if err := back.Check(&Course{Exercises: map[string]bool{"01-retry-fresh-read": true}}); err == nil || !strings.Contains(err.Error(), "exercises.02-return-the-error") {
		t.Error("an exercise the course does not have passes the check")
	}
}
