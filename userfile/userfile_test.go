package userfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err error, sentinel error, msg string) {
	t.Helper()
	if err == nil || !errors.Is(err, sentinel) || !strings.Contains(err.Error(), msg) {
		t.Fatalf("want %v with %q, got %v", sentinel, msg, err)
	}
}

func TestReadRegularFileUpToTheLimit(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	write(t, ok, bytes.Repeat([]byte("x"), 100))
	data, err := Read(ok, 100)
	if err != nil || len(data) != 100 {
		t.Fatalf("a file at the limit: %d bytes, %v", len(data), err)
	}
	_, err = Read(ok, 99)
	wantErr(t, err, ErrTooLarge, ok+": larger than 99 bytes")
}

// TestReadRefusesWhatIsNotAFile: /dev/zero would be read for ever, a
// folder is an error only at the first read; both are refused up front.
func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	_, err := Read("/dev/zero", 1<<20)
	wantErr(t, err, ErrNotRegular, "/dev/zero: not a regular file (a character device)")
	dir := t.TempDir()
	_, err = Read(dir, 1<<20)
	wantErr(t, err, ErrNotRegular, "not a regular file (a folder)")
	link := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	_, err = Read(link, 1<<20)
	wantErr(t, err, ErrNotRegular, link+": not a regular file (a character device)")
	_, err = Read(filepath.Join(dir, "missing.yaml"), 1<<20)
	wantErr(t, err, fs.ErrNotExist, "missing.yaml: no such file")
}

// TestReadStopsAtTheLimitWhenTheSizeLies: /proc files say they are empty
// and still have content; the reader must not trust the size.
func TestReadStopsAtTheLimitWhenTheSizeLies(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("no /proc")
	}
	_, err := Read("/proc/self/maps", 10)
	wantErr(t, err, ErrTooLarge, "larger than 10 bytes")
}

func TestReadStream(t *testing.T) {
	if data, err := ReadStream("-", strings.NewReader("abc"), 3); err != nil || string(data) != "abc" {
		t.Fatalf("%q %v", data, err)
	}
	_, err := ReadStream("standard input", strings.NewReader("abcd"), 3)
	wantErr(t, err, ErrTooLarge, "standard input: larger than 3 bytes")
}

func TestReadInStaysInside(t *testing.T) {
	top := t.TempDir()
	pack := filepath.Join(top, "pack")
	os.MkdirAll(filepath.Join(pack, "scenarios"), 0o755)
	write(t, filepath.Join(top, "secret.txt"), []byte("secret"))
	write(t, filepath.Join(pack, "scenarios", "race.yaml"), []byte("race"))
	for name, target := range map[string]string{
		"zero.yaml":            "/dev/zero",
		"up.yaml":              "../secret.txt",
		"scenarios/deep.yaml":  "../../secret.txt",
		"inside.yaml":          "scenarios/race.yaml",
		"scenarios/again.yaml": "../inside.yaml",
		"dir":                  "scenarios",
	} {
		if err := os.Symlink(target, filepath.Join(pack, name)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(pack)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"scenarios/race.yaml", "inside.yaml", "scenarios/again.yaml", "dir/race.yaml", "scenarios/../inside.yaml"} {
		if data, err := ReadIn(root, name, 100); err != nil || string(data) != "race" {
			t.Errorf("%s: %q %v", name, data, err)
		}
	}
	for name, msg := range map[string]string{
		"../secret.txt":       "it leads above the folder",
		"/etc/passwd":         "want a path relative to the folder",
		"zero.yaml":           "zero.yaml is a symbolic link to /dev/zero",
		"up.yaml":             "it leads above the folder",
		"scenarios/deep.yaml": "it leads above the folder",
	} {
		_, err := ReadIn(root, name, 100)
		wantErr(t, err, ErrOutside, name+": must stay inside the folder: "+msg)
	}
	_, err = ReadIn(root, "scenarios", 100)
	wantErr(t, err, ErrNotRegular, "a folder")
	_, err = ReadIn(root, "nope.yaml", 100)
	wantErr(t, err, fs.ErrNotExist, "nope.yaml: no such file")
}

func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{"a.yaml": {Data: []byte("abc")}, "d/b.yaml": {Data: []byte("b")}}
	if data, err := ReadFS(fsys, "a.yaml", 3); err != nil || string(data) != "abc" {
		t.Fatalf("%q %v", data, err)
	}
	_, err := ReadFS(fsys, "a.yaml", 2)
	wantErr(t, err, ErrTooLarge, "a.yaml: larger than 2 bytes")
	_, err = ReadFS(fsys, "../a.yaml", 2)
	wantErr(t, err, ErrOutside, "must stay inside the folder")
	_, err = ReadFS(fsys, "d", 2)
	wantErr(t, err, ErrNotRegular, "d: not a regular file (a folder)")
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 256 << 10: "256 KiB", 1000: "1000 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
