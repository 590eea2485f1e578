package snippets

import (
	"strings"
	"testing"
)

func TestSnippetsExtract(t *testing.T) {
	for _, name := range []string{"update-with-rv", "retry-on-conflict", "update-clear-rv"} {
		s, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, "func ") || strings.Contains(s, "// snippet:") || strings.Contains(s, "// end snippet") {
			t.Errorf("%s: %q", name, s)
		}
	}
	if _, err := Get("nope"); err == nil {
		t.Error("unknown snippet returned no error")
	}
}
