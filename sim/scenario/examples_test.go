package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const examplesDir = "../../examples"

func exampleFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no examples in %s", examplesDir)
	}
	return files
}

// Every example parses, starts with a comment header, and survives a
// Marshal/Parse round trip.
func TestExamplesParse(t *testing.T) {
	for _, file := range exampleFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			s, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(file)
			if !strings.HasPrefix(string(data), "# ") {
				t.Errorf("%s has no comment header saying what it shows", file)
			}
			if want := strings.TrimSuffix(filepath.Base(file), ".yaml"); s.Name != want {
				t.Errorf("name %q, want the file name %q", s.Name, want)
			}
			if s.Description == "" {
				t.Errorf("no description")
			}
			roundTrip(t, s)
		})
	}
}

func TestDocExampleParses(t *testing.T) {
	data, err := os.ReadFile("../../docs/scenario-format.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "```yaml\n")
	if start < 0 {
		t.Fatal("no yaml block in the doc")
	}
	text = text[start+len("```yaml\n"):]
	end := strings.Index(text, "```")
	if end < 0 {
		t.Fatal("unterminated yaml block")
	}
	s, err := Parse("scenario-format.md", []byte(text[:end]))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "lost-update" || len(s.Controllers) != 2 || s.Controllers[1].Requeue.Max != 2 {
		t.Errorf("%+v", s)
	}
	roundTrip(t, s)
}
