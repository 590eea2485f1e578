// Package workspace is the learner's side of the exercises: Init writes
// them as a Go module the learner opens in an editor, with the part of
// conflictlab they build with (the simulator, simcluster, the check) as
// a local module beside them, since conflictlab is not published; Check
// runs an exercise's test there with `go test`, offline, and reads back
// its verdict.
package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/conflictlab/conflictlab/exercises"
)

// Module is the workspace's module path.
const Module = "conflictlab.exercises"

// SourceDir is the folder of the workspace that holds conflictlab's
// source, a module of its own that the workspace's go.mod replaces
// conflictlab with. Its name starts with a dot: `go test ./...` and
// editors' package lists skip it.
const SourceDir = ".conflictlab"

// conflictlabModule is the module path the exercises import.
const conflictlabModule = "github.com/conflictlab/conflictlab"

// SourceRoots are the folders of conflictlab the workspace needs, with
// go.mod and go.sum beside them (main embeds exactly these).
var SourceRoots = []string{"sim", "simcluster", "userfile", "exercises/check", "exercises/verdict"}

// Options say what Init writes.
type Options struct {
	// Source is conflictlab's module source (go.mod, go.sum and
	// SourceRoots; tests and testdata are skipped).
	Source fs.FS
	// Solutions writes each exercise's reference solution instead of its
	// start (for `exercises check --solutions`).
	Solutions bool
	// Log, when set, hears each stage ("fetching modules …").
	Log func(string)
	// Env is the environment `go` runs in (nil: this process's).
	Env []string
}

// ErrNotEmpty is Init's answer for a folder that holds files but is not
// a workspace: it never writes among someone's files.
var ErrNotEmpty = errors.New("the folder is not empty and is not an exercises workspace")

// Init writes the exercises into dir (created if missing) as a Go
// module and resolves its dependencies once with `go mod tidy`, which may
// fetch through the Go module proxy; from then on Check builds offline.
// Run again on a workspace, it brings conflictlab's source up to date
// and adds missing exercises, leaving the learner's files as they are.
func Init(ctx context.Context, dir string, all []*exercises.Exercise, opts Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !IsWorkspace(dir) {
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	log := opts.Log
	if log == nil {
		log = func(string) {}
	}
	log("writing conflictlab's simulator source into " + SourceDir + "/")
	if err := writeSource(filepath.Join(dir, SourceDir), opts.Source); err != nil {
		return fmt.Errorf("writing conflictlab's source: %w", err)
	}
	goVersion, err := goLine(opts.Source)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"go.mod":    fmt.Appendf(nil, "module %s\n\ngo %s\n\nrequire %s v0.0.0\n\nreplace %s => ./%s\n", Module, goVersion, conflictlabModule, conflictlabModule, SourceDir),
		"README.md": readme(all),
	}
	if sum, err := fs.ReadFile(opts.Source, "go.sum"); err == nil {
		// The versions conflictlab builds with; tidy keeps what is needed.
		files["go.sum"] = sum
	}
	for _, x := range all {
		code := x.Start
		if opts.Solutions {
			code = x.Solution
		}
		for name, b := range code {
			files[path.Join(x.Dir, name)] = b
		}
		for name, b := range x.Check {
			files[path.Join(x.Dir, name)] = b
		}
		test, err := checkTest(x)
		if err != nil {
			return err
		}
		files[path.Join(x.Dir, "check_test.go")] = test
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		keep := name != "go.mod" && name != "go.sum" && name != "README.md" && !strings.HasSuffix(name, "check_test.go") && !isCheckFile(name)
		if _, err := os.Stat(p); err == nil && keep && !opts.Solutions {
			continue // the learner's code
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	log("resolving the modules the exercises build with (go mod tidy; may fetch through the Go module proxy, once)")
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(environ(opts.Env), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v\n%s", dir, err, bytes.TrimSpace(out))
	}
	return nil
}

// isCheckFile: check.yaml and the races are the exercise's, rewritten.
func isCheckFile(name string) bool { return strings.HasSuffix(name, ".yaml") }

// IsWorkspace reports whether dir holds an exercises workspace.
func IsWorkspace(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && bytes.HasPrefix(b, []byte("module "+Module+"\n"))
}

// Find is the workspace dir is in: dir or a folder above it.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if IsWorkspace(d) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not in an exercises workspace: run `conflictlab exercises init DIR` first, then work in DIR", abs)
		}
	}
}

func environ(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append([]string(nil), env...)
}

// writeSource copies conflictlab's source into to, afresh: go.mod,
// go.sum and every file under SourceRoots but tests and testdata.
func writeSource(to string, src fs.FS) error {
	if src == nil {
		return errors.New("this build of conflictlab carries no source for the exercises")
	}
	if err := os.RemoveAll(to); err != nil {
		return err
	}
	copyFile := func(name string) error {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		p := filepath.Join(to, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(f); err != nil {
			return err
		}
	}
	for _, root := range SourceRoots {
		err := fs.WalkDir(src, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return fs.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") {
				return nil
			}
			return copyFile(name)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// goLine is the go version of conflictlab's go.mod.
func goLine(src fs.FS) (string, error) {
	b, err := fs.ReadFile(src, "go.mod")
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "go "); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", errors.New("conflictlab's go.mod has no go line")
}

// checkTest is the exercise's check_test.go: the check of check.yaml
// over the package's functions.
func checkTest(x *exercises.Exercise) ([]byte, error) {
	pkg := ""
	for _, name := range exercises.Files(x.Start) {
		if p := packageOf(x.Start[name]); p != "" {
			pkg = p
			break
		}
	}
	if pkg == "" {
		return nil, fmt.Errorf("%s: its start code has no package clause", x.Dir)
	}
	var code []string
	for _, e := range x.Spec.Code {
		code = append(code, fmt.Sprintf("%q: %s", e.Controller, e.Func))
	}
	return fmt.Appendf(nil, `// Code written by conflictlab exercises init: the check of this
// exercise. Leave it as it is; run it with conflictlab exercises check
// %d (or go test ./%s/ to read the report as go test prints it).

package %s

import (
	"testing"

	"github.com/conflictlab/conflictlab/exercises/check"
)

func TestCheck(t *testing.T) {
	check.Run(t, check.Code{%s})
}
`, x.Number, x.Dir, pkg, strings.Join(code, ", ")), nil
}

func packageOf(src []byte) string {
	for _, l := range strings.Split(string(src), "\n") {
		if p, ok := strings.CutPrefix(l, "package "); ok {
			return strings.TrimSpace(p)
		}
	}
	return ""
}
