package progress

import (
	"bytes"
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
	// No temp files are left behind by the atomic write.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("folder holds %d files, want only progress.json", len(entries))
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
	if err := s.Save(New()); err != ErrReadOnly {
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
	got, err := other.Import(out.Bytes())
	if err != nil || got.StateOf("versions") != Done {
		t.Fatalf("import: %v %+v", err, got)
	}
	if loaded, _ := other.Load(); loaded.StateOf("versions") != Done {
		t.Error("imported progress not on disk")
	}
	if _, err := other.Import([]byte("nonsense")); err == nil {
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

func TestWriteSnapshotDropsOlder(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	newer, older := New(), New()
	newer.Last, older.Last = "newer", "older"
	nb, _ := Encode(newer)
	ob, _ := Encode(older)
	if err := s.WriteSnapshot(2, nb); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteSnapshot(1, ob); err != nil {
		t.Fatal(err)
	}
	if got, _ := Open(path).Load(); got.Last != "newer" {
		t.Fatalf("an older snapshot overwrote a newer one: last=%q", got.Last)
	}
}
