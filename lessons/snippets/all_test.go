package snippets

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// Every region extracts, is a whole declaration, and carries no markers.
func TestAllSnippets(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 30 {
		t.Fatalf("only %d snippets", len(all))
	}
	for name, s := range all {
		if !strings.Contains(s, "func ") || strings.Contains(s, "// snippet:") || strings.Contains(s, "// end snippet") {
			t.Errorf("%s: not a clean function region:\n%s", name, s)
		}
		if strings.TrimSpace(s) == "" {
			t.Errorf("%s: empty", name)
		}
	}
}

type packFS struct{ fs.FS }

func (p packFS) Snippet(name string) ([]byte, error) { return fs.ReadFile(p.FS, name) }

func TestResolve(t *testing.T) {
	pack := packFS{fstest.MapFS{"code/mine.go": {Data: []byte("package x\n")}}}
	if s, err := Resolve("retry-on-conflict", pack); err != nil || !strings.Contains(s, "RetryOnConflict") {
		t.Fatalf("built-in: %q, %v", s, err)
	}
	if s, err := Resolve("code/mine.go", pack); err != nil || s != "package x\n" {
		t.Fatalf("pack file: %q, %v", s, err)
	}
	if _, err := Resolve("nope", pack); err == nil || errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing: %v", err)
	}
	if _, err := Resolve("nope", nil); err == nil {
		t.Fatal("missing without a pack: no error")
	}
}
