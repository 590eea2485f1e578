package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/verdict"
	"github.com/conflictlab/conflictlab/userfile"
)

// Result is what one check of an exercise found.
type Result struct {
	// Exercise is the folder checked.
	Exercise string `json:"exercise"`
	// Pass: the code compiles and its check passed.
	Pass bool `json:"pass"`
	// Compile lists the compile errors (the check did not run).
	Compile []Diagnostic `json:"compile,omitempty"`
	// Verdict is the check's verdict (nil when it did not run).
	Verdict *verdict.Verdict `json:"verdict,omitempty"`
	// Output is what go test printed when neither applies (a test that
	// did not write its verdict: a crash of the test binary, a timeout).
	Output string `json:"output,omitempty"`
	// Millis is the wall time of the check, build included.
	Millis int64 `json:"millis"`
}

// Diagnostic is one compile error, by file (relative to the workspace)
// and line.
type Diagnostic struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
	Msg  string `json:"msg"`
}

func (d Diagnostic) String() string { return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg) }

// Offline is the environment every check runs go in, over the caller's:
// no network (GOPROXY=off), go.mod as init left it, no go.work above,
// this toolchain. cgo is left as the learner's go has it: a check built
// without it would link a little sooner (2.61 s against 2.71 s a save,
// BENCHMARKS.md, "Exercises") but could not reuse the packages `go run .`
// of conflictlab left in the build cache, and the first check would
// build them all again.
var Offline = []string{"GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local"}

// CheckOptions tune Check.
type CheckOptions struct {
	// Env is the environment go runs in before Offline (nil: this
	// process's).
	Env []string
	// Progress hears the cold build's progress: packages built of total.
	Progress func(built, total int)
}

// Check runs exercise x's test in the workspace dir and reads back its
// verdict. The first check of a workspace builds every dependency first
// (minutes on a cold build cache), reporting each package to Progress.
func Check(ctx context.Context, dir string, x *exercises.Exercise, opts CheckOptions) (*Result, error) {
	start := time.Now()
	res := &Result{Exercise: x.Dir}
	env := append(environ(opts.Env), Offline...)
	if !warm(dir) {
		if err := buildDeps(ctx, dir, env, opts.Progress); err != nil {
			return nil, err
		}
	}
	vf, err := os.CreateTemp("", "conflictlab-verdict-*.json")
	if err != nil {
		return nil, err
	}
	vpath := vf.Name()
	vf.Close()
	os.Remove(vpath) // the test writes it; its absence says it did not run
	defer os.Remove(vpath)
	// -count=1: the verdict is written by the run, never from go's cache;
	// -vet=off: the check is the verdict (go vet is the learner's to run).
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-vet=off", "-run", "^TestCheck$", "./"+x.Dir+"/")
	cmd.Dir = dir
	cmd.Env = append(env, verdict.Env+"="+vpath)
	out, runErr := cmd.CombinedOutput()
	res.Millis = time.Since(start).Milliseconds()
	if data, err := userfile.Read(vpath, verdict.MaxVerdictBytes); err == nil {
		v, err := verdict.Decode(data)
		if err != nil {
			return nil, err
		}
		res.Verdict, res.Pass = v, v.Pass
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	res.Compile = diagnostics(out, x.Dir)
	if len(res.Compile) == 0 {
		res.Output = strings.TrimSpace(string(out))
		if runErr != nil && res.Output == "" {
			res.Output = runErr.Error()
		}
	}
	return res, nil
}

// diag is a compile error as go prints it: "01-x/a.go:12:3: msg" or
// "./a.go:12:3: msg" (relative to the package's folder).
var diag = regexp.MustCompile(`^(\S+\.go):(\d+):(?:(\d+):)? (.*)$`)

func diagnostics(out []byte, pkgDir string) []Diagnostic {
	var ds []Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := diag.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		file := filepath.ToSlash(m[1])
		if rest, ok := strings.CutPrefix(file, "./"); ok {
			file = pkgDir + "/" + rest
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		ds = append(ds, Diagnostic{File: file, Line: line, Col: col, Msg: m[4]})
	}
	return ds
}

// warmFile marks a workspace whose dependencies have been built once.
const warmFile = "built"

func warm(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, SourceDir, warmFile))
	return err == nil
}

// buildDeps builds what the exercises import (not the learner's code),
// counting the packages go compiles (go build -v names each, the standard
// library's too when the build cache is empty).
func buildDeps(ctx context.Context, dir string, env []string, progress func(int, int)) error {
	list := exec.CommandContext(ctx, "go", "list", "-deps", "-test", "-f", "{{.ImportPath}}", "./...")
	list.Dir = dir
	list.Env = env
	out, err := list.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("go list in %s: %s", dir, bytes.TrimSpace(ee.Stderr))
		}
		return err
	}
	var pkgs []string
	for _, p := range strings.Split(string(out), "\n") {
		// A test's variant of a package is "p [q.test]": the package
		// itself is built under its plain path.
		p = strings.TrimSpace(p)
		if p != "" && p != Module && !strings.HasPrefix(p, Module+"/") && !strings.HasSuffix(p, ".test") && !strings.Contains(p, " ") {
			pkgs = append(pkgs, p)
		}
	}
	total := len(pkgs)
	if progress != nil {
		progress(0, total)
	}
	build := exec.CommandContext(ctx, "go", append([]string{"build", "-v"}, pkgs...)...)
	build.Dir = dir
	build.Env = env
	stderr, err := build.StderrPipe()
	if err != nil {
		return err
	}
	if err := build.Start(); err != nil {
		return err
	}
	built := 0
	var tail []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		built++
		tail = append(tail, sc.Text())
		if len(tail) > 20 {
			tail = tail[1:]
		}
		if progress != nil {
			progress(min(built, total), total)
		}
	}
	if err := build.Wait(); err != nil {
		return fmt.Errorf("building the exercises' dependencies in %s: %v\n%s", dir, err, strings.Join(tail, "\n"))
	}
	return os.WriteFile(filepath.Join(dir, SourceDir, warmFile), nil, 0o644)
}
