package lessons

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons/snippets"
)

// Before an answer, no snippet the course shows names its defect: no
// "DEFECT" remark, no doc comment; the code itself is all there.
func TestSnippetBeforeAnswerHidesTheDefect(t *testing.T) {
	src, err := snippets.Get("retry-unbounded")
	if err != nil {
		t.Fatal(err)
	}
	got := SnippetBeforeAnswer(src)
	for _, giveaway := range []string{"DEFECT", "no bound", "never returns", "//"} {
		if strings.Contains(got, giveaway) {
			t.Errorf("still says %q:\n%s", giveaway, got)
		}
	}
	for _, code := range []string{"func SetOwnerRetrying(", "for {", "apierrors.IsConflict(err)", "time.Sleep(10 * time.Millisecond)"} {
		if !strings.Contains(got, code) {
			t.Errorf("lost the code %q:\n%s", code, got)
		}
	}
	all, err := snippets.All()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range all {
		if strings.Contains(SnippetBeforeAnswer(s), "DEFECT") {
			t.Errorf("%s: a DEFECT remark survives", name)
		}
	}
}

func TestSnippetBeforeAnswerKeepsStrings(t *testing.T) {
	src := "// Doc says the bug.\nfunc f() string {\n\treturn \"http://x\" // why\n}"
	want := "func f() string {\n\treturn \"http://x\"\n}"
	if got := SnippetBeforeAnswer(src); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
