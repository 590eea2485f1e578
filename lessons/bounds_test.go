package lessons

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readLesson is a lesson of one read step racing on scenario, with
// claims (YAML list items, indented for the step).
func readLesson(id, scenario string, claims ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\ntitle: Bounds\nsummary: [\"One line.\", \"Two lines.\"]\nsteps:\n  - kind: read\n    title: A race\n    text: It races.\n    race: {scenario: %s}\n", id, scenario)
	if len(claims) > 0 {
		b.WriteString("    claims:\n")
		for _, c := range claims {
			b.WriteString("      - " + c + "\n")
		}
	}
	return b.String()
}

func writePack(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func twoCounters(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../examples/pack/scenarios/two-counters.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPackBounds: a pack of more lesson files than MaxPackFiles, or whose
// files add up to more than MaxPackBytes, is refused at once, before its
// files are parsed; so is one with more explore claims than
// MaxExploreClaims.
func TestPackBounds(t *testing.T) {
	files := map[string]string{}
	for i := range MaxPackFiles + 1 {
		files[fmt.Sprintf("%03d.yaml", i)] = "id: x\n"
	}
	start := time.Now()
	if _, err := LoadDir(writePack(t, files)); err == nil || !strings.Contains(err.Error(), "201 lesson files: a pack has at most 200") {
		t.Fatalf("%d files: %v", len(files), err)
	}
	big := map[string]string{}
	filler := "# " + strings.Repeat("x", MaxFileSize-100) + "\nid: x\n"
	for i := range MaxPackBytes/MaxFileSize + 1 {
		big[fmt.Sprintf("%02d.yaml", i)] = filler
	}
	if _, err := LoadDir(writePack(t, big)); err == nil || !strings.Contains(err.Error(), "a pack holds at most 16 MiB") {
		t.Fatalf("%d files of 1 MiB: %v", len(big), err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("refusing took %s", took)
	}
	var claims []string
	for range MaxExploreClaims + 1 {
		claims = append(claims, "explore: {verdict: lost, count: some}")
	}
	dir := writePack(t, map[string]string{"01.yaml": readLesson("many", "scenarios/two.yaml", claims...), "scenarios/two.yaml": twoCounters(t)})
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "more than 200 explore claims in the pack") {
		t.Fatalf("%d explore claims: %v", len(claims), err)
	}
}

// TestFolderNamedLikeALesson: a folder named 02-dir.yaml is reported, as
// a FIFO of that name is, not skipped.
func TestFolderNamedLikeALesson(t *testing.T) {
	dir := writePack(t, map[string]string{"01.yaml": readLesson("one", "scenarios/two.yaml"), "scenarios/two.yaml": twoCounters(t)})
	if _, err := LoadDir(dir); err != nil {
		t.Fatalf("the pack without the folder: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "02-dir.yaml"), 0o755)
	_, err := LoadDir(dir)
	if err == nil || !strings.Contains(err.Error(), "02-dir.yaml: a folder, not a lesson file") {
		t.Fatalf("a folder named like a lesson: %v", err)
	}
}
