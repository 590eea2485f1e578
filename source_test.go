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

// TestBinaryLinksNoClients: the exercises' commands read check.yaml and
// verdicts (exercises/verdict) but never link what the check runs the
// learner's code with: simcluster, client-go's typed clients and
// controller-runtime's client stay out of the binary (its size and start).
func TestBinaryLinksNoClients(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/conflictlab/conflictlab/exercises/workspace") {
		t.Fatal("the binary does not link exercises/workspace: this test checks nothing")
	}
	for _, p := range []string{"github.com/conflictlab/conflictlab/simcluster", "github.com/conflictlab/conflictlab/exercises/check", "k8s.io/client-go/kubernetes", "sigs.k8s.io/controller-runtime/pkg/client"} {
		if slices.Contains(deps, p) {
			t.Errorf("the binary links %s", p)
		}
	}
}
