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

// A `// strategy:` line is a declaration, not code: it is kept out of the
// region the code pane shows, and read as keys and values.
func TestStrategyDeclarations(t *testing.T) {
	decl, ok, err := Strategy("retry-on-conflict")
	if err != nil || !ok {
		t.Fatalf("retry-on-conflict declares nothing: %v", err)
	}
	if decl["write"] != "update" || decl["read"] != "live" || decl["retry"] != "default" || len(decl) != 3 {
		t.Fatalf("retry-on-conflict: %v", decl)
	}
	if _, ok, _ := Strategy("workqueue-requeue"); ok {
		t.Fatal("workqueue-requeue declares a strategy it does not have")
	}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range all {
		if strings.Contains(s, "// strategy:") {
			t.Errorf("%s shows its declaration", name)
		}
	}
	for _, bad := range []string{"", "retry", "colour=red"} {
		if _, err := parseStrategy(bad); err == nil {
			t.Errorf("parseStrategy(%q): no error", bad)
		}
	}
}

// Every snippet a write method names exists, and shows that method (when
// it declares one).
func TestForWriteNamesSnippets(t *testing.T) {
	for method, name := range forWrite {
		if _, err := Get(name); err != nil {
			t.Errorf("write %s: %v", method, err)
			continue
		}
		decl, ok, err := Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		if ok && decl["write"] != "" && decl["write"] != method {
			t.Errorf("write %s shows %s, which declares write=%s", method, name, decl["write"])
		}
	}
	if ForWrite("apply") != "" {
		t.Error("a write method without its own snippet names one")
	}
}
