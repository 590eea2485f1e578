package progress

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultPathFollowsXDG(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": "/st", "HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if p, _ := DefaultPath(get); p != "/st/conflictlab/progress.json" {
		t.Errorf("with XDG_STATE_HOME: %s", p)
	}
	env["XDG_STATE_HOME"] = "relative/dir" // invalid per the spec: ignored
	if p, _ := DefaultPath(get); p != "/home/u/.local/state/conflictlab/progress.json" {
		t.Errorf("relative XDG_STATE_HOME not ignored: %s", p)
	}
	delete(env, "XDG_STATE_HOME")
	if p, _ := DefaultPath(get); p != "/home/u/.local/state/conflictlab/progress.json" {
		t.Errorf("fallback: %s", p)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "conflictlab", FileName)
	s := Open(path)
	p, notice := s.Load()
	if notice != "" || len(p.Lessons) != 0 {
		t.Fatalf("missing file: notice %q, %d lessons", notice, len(p.Lessons))
	}
	l := p.Lesson("lost-update")
	l.Step = 1
	l.Record(0, false)
	l.Record(0, true)
	l.Record(1, true)
	p.Last = "lost-update"
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	got, notice := Open(path).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	gl := got.Lessons["lost-update"]
	if got.Last != "lost-update" || gl.Step != 1 || got.StateOf("lost-update") != InProgress {
		t.Fatalf("round trip: %+v %+v", got, gl)
	}
	if right, n := gl.Score(); right != 1 || n != 2 {
		t.Errorf("score %d/%d, want 1/2 (step 0 was wrong first)", right, n)
	}
	if a := gl.Answers[0]; a.Attempts != 2 || !a.Correct || a.FirstTry {
		t.Errorf("answer 0: %+v", a)
	}
	if got.StateOf("versions") != NotStarted {
		t.Error("unknown lesson should be not started")
	}
	// No temp files are left behind by the atomic write: only the file
	// and its lock.
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "progress.json progress.json.lock" {
		t.Errorf("folder holds %v, want only progress.json and its lock", names)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestCorruptFileIsMovedAsideNotLost(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	garbage := []byte("{\"version\": 1, \"lessons\": {tru")
	os.WriteFile(path, garbage, 0o600)
	os.WriteFile(path+".corrupt-1", []byte("older"), 0o600) // an earlier casualty
	s := Open(path)
	p, notice := s.Load()
	if p == nil || len(p.Lessons) != 0 {
		t.Fatal("a corrupt file must give fresh progress")
	}
	if !strings.Contains(notice, "progress.json.corrupt-2") {
		t.Fatalf("notice does not name the kept file: %q", notice)
	}
	kept, err := os.ReadFile(path + ".corrupt-2")
	if err != nil || !bytes.Equal(kept, garbage) {
		t.Fatalf("corrupt bytes not kept: %v %q", err, kept)
	}
	if old, _ := os.ReadFile(path + ".corrupt-1"); string(old) != "older" {
		t.Error("an older corrupt file was overwritten")
	}
	if err := s.Save(p); err != nil {
		t.Fatalf("saving after a corrupt file: %v", err)
	}
}

func TestInvalidContentIsCorrupt(t *testing.T) {
	for name, body := range map[string]string{
		"no version":    `{"lessons": {}}`,
		"negative step": `{"version": 1, "lessons": {"a": {"step": -3}}}`,
		"null lesson":   `{"version": 1, "lessons": {"a": null}}`,
		"not an object": `[1,2]`,
		"null quiz":     `{"version": 1, "lessons": {}, "quiz": {"all": null}}`,
		"quiz 11/10":    `{"version": 1, "lessons": {}, "quiz": {"all": {"right": 11, "total": 10, "taken": 1}}}`,
		"negative quiz": `{"version": 1, "lessons": {}, "quiz": {"all": {"right": -1, "total": 10, "taken": 1}}}`,
	} {
		path := filepath.Join(t.TempDir(), FileName)
		os.WriteFile(path, []byte(body), 0o600)
		_, notice := Open(path).Load()
		if !strings.Contains(notice, ".corrupt-1") {
			t.Errorf("%s: notice %q", name, notice)
		}
	}
}

func TestNewerFormatIsLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	body := []byte(`{"version": 99, "lessons": {}}`)
	os.WriteFile(path, body, 0o600)
	s := Open(path)
	_, notice := s.Load()
	if !strings.Contains(notice, "newer") || !s.ReadOnly() {
		t.Fatalf("notice %q, readOnly %v", notice, s.ReadOnly())
	}
	if err := s.Save(New()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("save over a newer file: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, body) {
		t.Error("the newer file was modified")
	}
}

func TestUnreadableFileIsMovedAside(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads a 0000 file anyway; a directory in the file's place is
		// unreadable as a file for everyone.
		path := filepath.Join(t.TempDir(), FileName)
		os.Mkdir(path, 0o700)
		s := Open(path)
		_, notice := s.Load()
		if !strings.Contains(notice, ".corrupt-1") {
			t.Fatalf("notice %q", notice)
		}
		if fi, err := os.Stat(path + ".corrupt-1"); err != nil || !fi.IsDir() {
			t.Fatal("the unreadable entry was not moved aside")
		}
		return
	}
	path := filepath.Join(t.TempDir(), FileName)
	os.WriteFile(path, []byte(`{"version":1}`), 0)
	_, notice := Open(path).Load()
	if !strings.Contains(notice, ".corrupt-1") {
		t.Fatalf("notice %q", notice)
	}
}

func TestExportImportReset(t *testing.T) {
	dir := t.TempDir()
	s := Open(filepath.Join(dir, "a", FileName))
	var empty bytes.Buffer
	if err := s.Export(&empty); err != nil || !strings.Contains(empty.String(), `"version": 1`) {
		t.Fatalf("export with no file: %v %q", err, empty.String())
	}
	p := New()
	p.Lesson("versions").Done = true
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Export(&out); err != nil {
		t.Fatal(err)
	}
	other := Open(filepath.Join(dir, "b", FileName))
	if backup, err := importBytes(other, out.Bytes()); err != nil || backup != "" {
		t.Fatalf("import into no progress: backup %q, %v", backup, err)
	}
	if loaded, _ := other.Load(); loaded.StateOf("versions") != Done {
		t.Error("imported progress not on disk")
	}
	if _, err := importBytes(other, []byte("nonsense")); err == nil {
		t.Error("importing garbage succeeded")
	}
	if loaded, _ := other.Load(); loaded.StateOf("versions") != Done {
		t.Error("a failed import damaged the existing progress")
	}
	had, err := other.Reset()
	if !had || err != nil {
		t.Fatalf("reset: %v %v", had, err)
	}
	if loaded, _ := other.Load(); len(loaded.Lessons) != 0 {
		t.Error("reset left progress behind")
	}
	if had, _ := other.Reset(); had {
		t.Error("second reset found a file")
	}
}

func TestWriteCopyDropsOlder(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	newer, older := New(), New()
	newer.Last, older.Last = "newer", "older"
	if err := s.WriteCopy(2, newer); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteCopy(1, older); err != nil {
		t.Fatal(err)
	}
	if got, _ := Open(path).Load(); got.Last != "newer" {
		t.Fatalf("an older snapshot overwrote a newer one: last=%q", got.Last)
	}
}

// A file written before quiz scores were kept (no "quiz" field, exactly
// as the first release wrote it) still loads, and gains the field on the
// next save without losing anything.
func TestFileWithoutQuizStillLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	old := `{
  "version": 1,
  "last": "lost-update",
  "lessons": {
    "lost-update": {
      "step": 1,
      "done": false,
      "answers": {
        "0": {"attempts": 2, "correct": true, "firstTry": false}
      }
    },
    "versions": {"step": 0, "done": true}
  }
}
`
	os.WriteFile(path, []byte(old), 0o600)
	s := Open(path)
	p, notice := s.Load()
	if notice != "" {
		t.Fatalf("an old file gave a notice: %q", notice)
	}
	if p.Last != "lost-update" || p.StateOf("versions") != Done || p.Lessons["lost-update"].Answers[0].Attempts != 2 {
		t.Fatalf("old file read as %+v", p)
	}
	if _, ok := p.QuizBestOf(""); ok || len(p.Quiz) != 0 {
		t.Fatalf("an old file has quiz scores: %+v", p.Quiz)
	}
	// Encoding progress without a quiz writes no "quiz" key: a file an
	// older build writes and one this build writes look the same.
	if data, _ := Encode(p); strings.Contains(string(data), "quiz") {
		t.Fatalf("no quiz taken, but the file says quiz:\n%s", data)
	}
	p.RecordQuiz("", 3, 5)
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	got, notice := Open(path).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	if b, ok := got.QuizBestOf(""); !ok || b != (QuizBest{Right: 3, Total: 5, Taken: 1}) {
		t.Fatalf("quiz best after a round trip: %+v %v", b, ok)
	}
	if got.Lessons["lost-update"].Answers[0].Attempts != 2 || got.StateOf("versions") != Done {
		t.Fatal("saving the quiz score lost lesson progress")
	}
}

func TestRecordQuizKeepsTheBest(t *testing.T) {
	p := New()
	steps := []struct {
		topic        string
		right, n     int
		best         bool
		wantR, wantN int
	}{
		{"", 3, 5, true, 3, 5},
		{"", 2, 5, false, 3, 5},  // worse
		{"", 6, 10, true, 6, 10}, // same share, more questions
		{"", 3, 5, false, 6, 10}, // same share, fewer
		{"", 5, 5, true, 5, 5},   // a higher share wins whatever the count
		{"patches", 0, 3, true, 0, 3},
		{"", 0, 0, false, 5, 5}, // nothing asked: not a quiz
	}
	for i, s := range steps {
		if got := p.RecordQuiz(s.topic, s.right, s.n); got != s.best {
			t.Errorf("step %d: new best %v, want %v", i, got, s.best)
		}
		b, _ := p.QuizBestOf(s.topic)
		if b.Right != s.wantR || b.Total != s.wantN {
			t.Errorf("step %d: best %d/%d, want %d/%d", i, b.Right, b.Total, s.wantR, s.wantN)
		}
	}
	if b, _ := p.QuizBestOf(""); b.Taken != 5 {
		t.Errorf("taken %d, want 5", b.Taken)
	}
	if _, ok := p.Quiz[QuizAll]; !ok {
		t.Errorf("every-question quiz not kept under %q: %v", QuizAll, p.Quiz)
	}
	if got := strings.Join(p.Summary(), "\n"); !strings.Contains(got, "quiz all: best 5/5, 5 taken") || !strings.Contains(got, "quiz patches: best 0/3, 1 taken") {
		t.Errorf("summary:\n%s", got)
	}
}

// TestChallengeBestsAreKeptAndOldFilesLoad: the sandbox's bests survive a
// save and a load, only an improvement replaces one, and a file written
// before the field existed loads with none.
func TestChallengeBestsAreKeptAndOldFilesLoad(t *testing.T) {
	p := New()
	if !p.RecordChallenge("break-lost-update", 6) || !p.RecordChallenge("break-lost-update", 4) {
		t.Fatal("a first solve and an improvement should both count")
	}
	if p.RecordChallenge("break-lost-update", 5) {
		t.Fatal("a worse score replaced the best")
	}
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil || back.Challenges["break-lost-update"].Best != 4 {
		t.Fatalf("after a round trip: %v %+v", err, back)
	}
	old, err := Decode([]byte(`{"version": 1, "lessons": {}}`))
	if err != nil || len(old.Challenges) != 0 {
		t.Fatalf("a file from before the sandbox: %v %+v", err, old)
	}
	if _, err := Decode([]byte(`{"version": 1, "lessons": {}, "challenges": {"x": null}}`)); err == nil {
		t.Fatal("a null challenge record was accepted")
	}
}
