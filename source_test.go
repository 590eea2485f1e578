package main

import (
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/exercises/workspace"
)

// TestSourceCarriesWhatTheExercisesImport: every package of this module
// that the exercises' code and check import is in the embedded source,
// under workspace.SourceRoots (which the embed pattern must list), with
// every Go file of the package that is not a test.
func TestSourceCarriesWhatTheExercisesImport(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Dir}} {{join .GoFiles \",\"}}", "./exercises/check", "./exercises/course/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/conflictlab/conflictlab/"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(f[0], mod) || strings.HasPrefix(f[0], mod+"exercises/course/") {
			continue
		}
		rel := strings.TrimPrefix(f[0], mod)
		if !slices.ContainsFunc(workspace.SourceRoots, func(r string) bool { return rel == r || strings.HasPrefix(rel, r+"/") }) {
			t.Errorf("%s is imported by the exercises but under no workspace.SourceRoots", rel)
			continue
		}
		for _, name := range strings.Split(f[2], ",") {
			if _, err := fs.Stat(source, path.Join(rel, name)); err != nil {
				t.Errorf("the embedded source lacks %s/%s", rel, name)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d packages checked: go list gave\n%s", checked, out)
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if _, err := fs.Stat(source, f); err != nil {
			t.Errorf("the embedded source lacks %s", f)
		}
	}
}
