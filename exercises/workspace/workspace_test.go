package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/workspace"
)

// TestInitThenCheckOffline is the learner's path through one exercise in
// a fresh workspace, every check offline (workspace.Offline): the start
// fails with a verdict and its losing run, a compile error comes back as
// FILE:LINE, the solution passes. Init refuses a folder of someone
// else's files, and run again keeps the learner's code.
func TestInitThenCheckOffline(t *testing.T) {
	all, err := exercises.Course()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ws")
	src := os.DirFS(filepath.Join("..", ".."))
	if err := workspace.Init(ctx, dir, all, workspace.Options{Source: src}); err != nil {
		t.Fatal(err)
	}
	if !workspace.IsWorkspace(dir) {
		t.Fatal("init wrote no workspace")
	}
	if got, err := workspace.Find(filepath.Join(dir, "03-add-finalizer")); err != nil || got != dir {
		t.Fatalf("Find from an exercise's folder = %q, %v; want %q", got, err, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, workspace.SourceDir, "simcluster", "race.go")); err != nil {
		t.Errorf("simcluster's source is not in the workspace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, workspace.SourceDir, "simcluster", "prove.go")); err != nil {
		t.Errorf("simcluster's source is not in the workspace: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, workspace.SourceDir, "simcluster", "*_test.go"))
	if len(matches) > 0 {
		t.Errorf("the workspace holds conflictlab's tests: %v", matches)
	}

	x, err := exercises.Find(all, "add-finalizer")
	if err != nil {
		t.Fatal(err)
	}
	var progressed bool
	opts := workspace.CheckOptions{Progress: func(built, total int) { progressed = progressed || total > 0 }}
	res, err := workspace.Check(ctx, dir, x, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !progressed {
		t.Error("the first check reported no build progress")
	}
	if res.Pass || res.Verdict == nil || res.Verdict.Outcome == nil || len(res.Compile) > 0 {
		t.Fatalf("the start code: pass %v, verdict %v, compile %v, output %s; want a failing verdict with its losing run", res.Pass, res.Verdict != nil, res.Compile, res.Output)
	}
	if !strings.Contains(res.Verdict.Report, "lost") {
		t.Errorf("the start's report does not say what was lost:\n%s", res.Verdict.Report)
	}

	code := filepath.Join(dir, x.Dir, "finalizer.go")
	start, err := os.ReadFile(code)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(start), "func (r *Reconciler) Reconcile(", "func (r *Reconciler) Reconcile(undefinedThing int, ", 1)
	if broken == string(start) {
		t.Fatal("the start code has no Reconcile method to break")
	}
	write(t, code, broken)
	res, err = workspace.Check(ctx, dir, x, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || len(res.Compile) == 0 || res.Compile[0].File != x.Dir+"/finalizer.go" || res.Compile[0].Line == 0 {
		t.Fatalf("a compile error: pass %v, compile %v, output %s; want %s/finalizer.go:LINE", res.Pass, res.Compile, res.Output, x.Dir)
	}

	write(t, code, string(x.Solution["finalizer.go"]))
	res, err = workspace.Check(ctx, dir, x, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass {
		t.Fatalf("the solution fails:\n%s%s", report(res), res.Output)
	}

	// Init again: conflictlab's part is rewritten, the learner's code kept.
	if err := workspace.Init(ctx, dir, all, workspace.Options{Source: src}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(code); string(b) != string(x.Solution["finalizer.go"]) {
		t.Error("init over a workspace replaced the learner's code")
	}
	other := t.TempDir()
	write(t, filepath.Join(other, "notes.txt"), "mine")
	if err := workspace.Init(ctx, other, all, workspace.Options{Source: src}); err == nil {
		t.Error("init wrote into a folder of someone's files")
	}
}

func report(r *workspace.Result) string {
	if r.Verdict == nil {
		return ""
	}
	return r.Verdict.Report
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
