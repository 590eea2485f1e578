package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/progress"
)

// roomState writes a room's state folder: ada answered lesson 1's
// question wrong and took a quiz; a second attendee's file is corrupt.
func roomState(t *testing.T) string {
	t.Helper()
	state := t.TempDir()
	ada := filepath.Join(state, "attendees", "name-ada")
	os.MkdirAll(ada, 0o700)
	p := progress.New()
	p.Lesson("versions").RecordFirst(1, "rv102", false)
	p.RecordQuiz("", 7, 10)
	data, _ := progress.Encode(p)
	os.WriteFile(filepath.Join(ada, "progress.json"), data, 0o600)
	os.WriteFile(filepath.Join(ada, "who.json"), []byte(`{"ID":"name-ada","Name":"ada","Fingerprint":""}`), 0o600)
	bad := filepath.Join(state, "attendees", "key-0123")
	os.MkdirAll(bad, 0o700)
	os.WriteFile(filepath.Join(bad, "progress.json"), []byte("{not json"), 0o600)
	return state
}

// TestServeExport: CSV has one row per answer and quiz topic, and a row
// naming the attendee whose file is unreadable; JSON has every attendee.
func TestServeExport(t *testing.T) {
	state := roomState(t)
	code, out, errs := run(t, false, "serve", "export", "--state", state, "-o", "csv")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"attendee,name,fingerprint,kind,lesson,step,picked,first_try,correct,attempts,right,total,problem",
		"name-ada,ada,,answer,versions,1,rv102,false,false,1,,,",
		"name-ada,ada,,quiz,all,,,,,1,7,10,",
		"key-0123,key-0123,,problem,",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("the CSV lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = run(t, false, "serve", "export", "--state", state)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var recs []struct {
		ID       string
		Name     string
		Progress *progress.Progress `json:"progress"`
		Problem  string             `json:"problem"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(recs) != 2 || recs[1].Name != "ada" || recs[1].Progress.Lessons["versions"].Answers[1].Picked != "rv102" || recs[0].Problem == "" {
		t.Fatalf("the JSON holds %+v", recs)
	}
}

// TestServeRefusesBadFlags: a wrong format, a folder that holds no room,
// --kubeconfig without --allow-live and --allow-live without a kubeconfig
// are each refused with what to do, before anything listens.
func TestServeRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "export", "--state", t.TempDir(), "-o", "xml"}, ExitUsage, `-o "xml": want csv or json`},
		{[]string{"serve", "export", "--state", t.TempDir()}, ExitInvalid, "no attendees folder"},
		{[]string{"serve", "--state", t.TempDir(), "--kubeconfig", "k"}, ExitUsage, "--kubeconfig is only for --allow-live"},
		{[]string{"serve", "--state", t.TempDir(), "--allow-live"}, ExitInvalid, "--allow-live needs --kubeconfig"},
		{[]string{"serve", "--state", t.TempDir(), "--instructor-keys", "/nonexistent/keys"}, ExitInvalid, "--instructor-keys"},
	} {
		code, _, errs := run(t, false, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}
