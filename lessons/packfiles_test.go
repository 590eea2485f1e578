//go:build unix

package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/userfile"
)

// copyPack copies examples/pack into a temporary folder, inside a parent
// that also holds a file outside the pack.
func copyPack(t *testing.T) (top, pack string) {
	t.Helper()
	top = t.TempDir()
	pack = filepath.Join(top, "pack")
	for _, name := range []string{"01-counting.yaml", "scenarios/two-counters.yaml"} {
		data, err := os.ReadFile(filepath.Join("../examples/pack", name))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(pack, name)), 0o755)
		if err := os.WriteFile(filepath.Join(pack, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(top, "outside.yaml"), []byte("name: outside\n"), 0o644)
	return top, pack
}

// pointScenarioAt rewrites the lesson to race on name.
func pointScenarioAt(t *testing.T, pack, name string) {
	t.Helper()
	file := filepath.Join(pack, "01-counting.yaml")
	data, _ := os.ReadFile(file)
	out := strings.Replace(string(data), "scenario: scenarios/two-counters.yaml", "scenario: "+name, 1)
	if out == string(data) {
		t.Fatal("the example lesson changed: no scenario to point elsewhere")
	}
	os.WriteFile(file, []byte(out), 0o644)
}

func loadWithin(t *testing.T, dir string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := LoadDir(dir); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("loading the pack blocked")
	}
	return nil
}

// TestPackFilesStayInside: a pack named ../ files, absolute paths and
// symbolic links to /dev/zero (read until memory ran out), and a FIFO
// froze the loader. Each is refused as FILE:LINE: field: … must stay
// inside the pack, or not a regular file.
func TestPackFilesStayInside(t *testing.T) {
	cases := map[string]struct {
		setup func(t *testing.T, top, pack string)
		want  string
	}{
		"dot-dot": {func(t *testing.T, top, pack string) { pointScenarioAt(t, pack, "../outside.yaml") },
			`01-counting.yaml:12: steps[0].race.scenario: ../outside.yaml: must stay inside the pack: it leads above the folder`},
		"absolute": {func(t *testing.T, top, pack string) { pointScenarioAt(t, pack, filepath.Join(top, "outside.yaml")) },
			`outside.yaml: must stay inside the pack: want a path relative to the folder`},
		"link to /dev/zero": {func(t *testing.T, top, pack string) {
			os.Symlink("/dev/zero", filepath.Join(pack, "scenarios", "zero.yaml"))
			pointScenarioAt(t, pack, "scenarios/zero.yaml")
		}, `steps[0].race.scenario: scenarios/zero.yaml: must stay inside the pack: scenarios/zero.yaml is a symbolic link to /dev/zero`},
		"link out": {func(t *testing.T, top, pack string) {
			os.Symlink("../../outside.yaml", filepath.Join(pack, "scenarios", "out.yaml"))
			pointScenarioAt(t, pack, "scenarios/out.yaml")
		}, `steps[0].race.scenario: scenarios/out.yaml: must stay inside the pack: it leads above the folder`},
		"lesson file is a link to /dev/zero": {func(t *testing.T, top, pack string) {
			os.Symlink("/dev/zero", filepath.Join(pack, "02-zero.yaml"))
		}, `02-zero.yaml: must stay inside the pack: 02-zero.yaml is a symbolic link to /dev/zero`},
		"lesson file is a FIFO": {func(t *testing.T, top, pack string) {
			if err := syscall.Mkfifo(filepath.Join(pack, "03-fifo.yaml"), 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, `03-fifo.yaml: not a regular file (a named pipe (FIFO))`},
		"scenario too large": {func(t *testing.T, top, pack string) {
			os.WriteFile(filepath.Join(pack, "scenarios", "big.yaml"), make([]byte, MaxFileSize+1), 0o644)
			pointScenarioAt(t, pack, "scenarios/big.yaml")
		}, `steps[0].race.scenario: scenarios/big.yaml: larger than 1 MiB`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			top, pack := copyPack(t)
			if err := loadWithin(t, pack); err != nil {
				t.Fatalf("the example pack does not load: %v", err)
			}
			c.setup(t, top, pack)
			err := loadWithin(t, pack)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant …%s…", err, c.want)
			}
		})
	}
}

// TestSnippetStaysInside: code: names a file of the pack.
func TestSnippetStaysInside(t *testing.T) {
	top, pack := copyPack(t)
	os.Symlink(filepath.Join(top, "outside.yaml"), filepath.Join(pack, "link.go"))
	p, err := LoadDir(pack)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := p.Snippet("scenarios/two-counters.yaml"); err != nil || len(data) == 0 {
		t.Fatalf("a file of the pack: %v", err)
	}
	for _, name := range []string{"../outside.yaml", "link.go", "/etc/passwd"} {
		_, err := p.Snippet(name)
		if !errors.Is(err, userfile.ErrOutside) || !strings.Contains(err.Error(), name+": must stay inside the pack") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
