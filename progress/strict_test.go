package progress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrict: keys given twice, at the top or deep inside, and fields the
// format does not have, at any depth, are refused with their line and
// path; a file as Encode writes it passes.
func TestStrict(t *testing.T) {
	p := New()
	p.Lesson("versions").RecordFirst(1, "rv102", false)
	p.RecordQuiz("", 7, 10)
	p.RecordChallenge("c1", 3)
	good, _ := Encode(p)
	if err := Strict(good); err != nil {
		t.Fatalf("a file Encode wrote: %v", err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"version":1,"version":1,"lessons":{}}`, `line 1: "version" is given twice`},
		{"{\"version\":1,\n\"lessons\":{\"versions\":{\"step\":1}},\n\"lessons\":{}}", `line 3: "lessons" is given twice`},
		{`{"version":1,"lessons":{"versions":{"step":1,"step":0}}}`, `lessons.versions: "step" is given twice`},
		{`{"version":1,"lessons":{},"extra":true}`, `line 1: unknown field "extra" (a progress file has version, last, lessons, quiz, challenges, exercises)`},
		{"{\"version\":1,\"lessons\":{\"versions\":{\"step\":1,\"answers\":{\"1\":\n{\"attempts\":1,\"answers\":{\"1\":{\"attempts\":2}}}}}}}",
			`line 2: lessons.versions.answers.1: unknown field "answers"`},
		{`{"version":1,"lessons":{},"quiz":{"all":{"right":1,"total":2,"taken":1,"best":3}}}`, `quiz.all: unknown field "best"`},
	} {
		err := Strict([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Strict(%s) = %v, want %q", c.in, err, c.want)
		}
	}
}

// TestImportKeepsTheLastBackups: every import keeps what it replaces as
// the next progress.json.bak-N, and only the newest KeepBackups stay.
func TestImportKeepsTheLastBackups(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	for i := range 12 {
		p := New()
		p.Lesson("versions").Step = i
		if _, err := s.Import(p); err != nil {
			t.Fatal(err)
		}
	}
	baks, _ := filepath.Glob(path + ".bak-*")
	if len(baks) != KeepBackups {
		t.Fatalf("%d backups after 12 imports: %v", len(baks), baks)
	}
	for n := 7; n <= 11; n++ {
		data, err := os.ReadFile(fmt.Sprintf("%s.bak-%d", path, n))
		if err != nil || !strings.Contains(string(data), fmt.Sprintf(`"step": %d`, n-1)) {
			t.Fatalf("bak-%d: %v %s", n, err, data)
		}
	}
}
