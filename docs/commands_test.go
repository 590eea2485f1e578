package docs

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/cli"
)

// commandChecker checks that a command a document gives still runs as
// written, without running it: the packages `go test` names exist and
// have a test or benchmark that each -run and -bench pattern matches; the
// subcommands and flags of `go run .` and `conflictlab` exist; the files
// it names exist.
type commandChecker struct {
	// funcs caches the test functions of a package directory, by build
	// tags and directory.
	funcs map[string]testFuncs
}

// testFuncs are a package's top-level test functions, as go test finds
// them.
type testFuncs struct {
	tests, benchmarks []string // Test…, Example… and Fuzz… go in tests
}

func newCommandChecker() *commandChecker {
	return &commandChecker{funcs: map[string]testFuncs{}}
}

// check returns what is wrong with one simple command (its words as the
// shell gives them), or nothing when it is not a command the checker
// knows (cd, awk, benchstat…).
func (c *commandChecker) check(words []string) []string {
	words = unwrap(words)
	if len(words) == 0 {
		return nil
	}
	switch {
	case words[0] == "go" && len(words) > 1:
		switch words[1] {
		case "test":
			return c.goTest(words[2:])
		case "run":
			return c.goRun(words[2:])
		case "build", "vet", "list", "generate":
			return c.packagesOf(words[1], words[2:])
		}
	case words[0] == "conflictlab":
		return checkConflictlab(words[1:])
	case words[0] == "envtest/envtest.sh" || words[0] == "bash" && len(words) > 1 && words[1] == "envtest/envtest.sh":
		if words[0] == "bash" {
			words = words[1:]
		}
		return c.envtest(words[1:])
	}
	return nil
}

// unwrap drops what runs a command without being it: leading variable
// assignments and the wrappers nice, env, timeout, /usr/bin/time and
// perf stat with their own flags.
func unwrap(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case isAssignment(w):
			words = words[1:]
		case w == "nice":
			words = words[1:]
			if len(words) > 1 && words[0] == "-n" {
				words = words[2:]
			}
		case w == "env":
			words = words[1:]
		case w == "timeout":
			words = words[min(2, len(words)):]
		case w == "/usr/bin/time" || w == "time":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if words[0] == "-f" || words[0] == "-o" {
					words = words[min(2, len(words)):]
					continue
				}
				words = words[1:]
			}
		case w == "perf" && len(words) > 1 && words[1] == "stat":
			words = words[2:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if slices.Contains([]string{"-r", "-e", "-o", "-x"}, words[0]) {
					words = words[min(2, len(words)):]
					continue
				}
				words = words[1:]
			}
		default:
			return words
		}
	}
	return words
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isAssignment(w string) bool { return assignment.MatchString(w) }

// goTestValueFlags are the flags of go test (and of the test binary it
// runs) that take a value; goTestBoolFlags those that do not.
var (
	goTestValueFlags = []string{"run", "bench", "benchtime", "count", "cpu", "timeout", "tags", "o",
		"cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "coverprofile", "covermode",
		"coverpkg", "parallel", "p", "list", "skip", "shuffle", "fuzz", "fuzztime", "exec", "outputdir",
		"ldflags", "gcflags", "memprofilerate", "blockprofilerate", "mutexprofilefraction"}
	goTestBoolFlags = []string{"v", "c", "race", "benchmem", "short", "failfast", "json", "x", "n", "a",
		"cover", "trimpath", "fullpath"}
)

// goTest checks `go test ARGS`.
func (c *commandChecker) goTest(args []string) []string {
	var problems []string
	var pkgs []string
	flags := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		switch {
		case slices.Contains(goTestValueFlags, name):
			if !hasValue {
				if i+1 >= len(args) {
					problems = append(problems, fmt.Sprintf("go test: -%s needs a value", name))
					continue
				}
				i++
				value = args[i]
			}
			flags[name] = value
		case slices.Contains(goTestBoolFlags, name) || name == "vet":
			flags[name] = value
		default:
			problems = append(problems, fmt.Sprintf("go test: unknown flag %s", a))
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	tags := flags["tags"]
	var all testFuncs
	for _, p := range pkgs {
		fs, err := c.testFuncsOf(p, tags)
		if err != nil {
			problems = append(problems, "go test: "+err.Error())
			continue
		}
		all.tests = append(all.tests, fs.tests...)
		all.benchmarks = append(all.benchmarks, fs.benchmarks...)
	}
	if len(problems) > 0 {
		return problems
	}
	if r, ok := flags["run"]; ok && r != "^$" {
		problems = append(problems, matchProblems("-run", r, all.tests, pkgs)...)
	}
	if b, ok := flags["bench"]; ok {
		problems = append(problems, matchProblems("-bench", b, all.benchmarks, pkgs)...)
	}
	return problems
}

// matchProblems says which alternatives of the first level of pattern
// (go test splits it at each / outside brackets and parentheses and
// matches the first element against top-level names) match none of names.
// Each alternative is checked on its own, so that a misspelt name beside
// a right one is found. Subtest and sub-benchmark levels are named at run
// time (b.Run), so they are not checked.
func matchProblems(flag, pattern string, names, pkgs []string) []string {
	first := splitLevels(pattern)[0]
	var problems []string
	for _, alt := range splitAlternatives(first) {
		re, err := regexp.Compile(alt)
		if err != nil {
			problems = append(problems, fmt.Sprintf("go test %s %q: %v", flag, pattern, err))
			continue
		}
		if !slices.ContainsFunc(names, re.MatchString) {
			problems = append(problems, fmt.Sprintf("go test %s %q: %q matches nothing in %s", flag, pattern, alt, strings.Join(pkgs, " ")))
		}
	}
	return problems
}

// splitLevels splits a -run or -bench pattern at each / outside brackets
// and parentheses, as the testing package does.
func splitLevels(s string) []string {
	return splitOutside(s, '/')
}

// splitAlternatives splits one level of a pattern at each | outside
// brackets and parentheses. An alternative inside parentheses that wrap
// the whole level, (a|b), is split too.
func splitAlternatives(s string) []string {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && len(splitOutside(s[1:len(s)-1], ')')) == 1 {
		s = s[1 : len(s)-1]
	}
	return splitOutside(s, '|')
}

func splitOutside(s string, sep rune) []string {
	var out []string
	depth, class, escaped, start := 0, false, false, 0
	for i, r := range s {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case class:
			class = r != ']'
		case r == '[':
			class = true
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}

// testFuncsOf returns the test functions of the package (or, for a
// pattern ending in /..., the packages) at the path go test was given.
func (c *commandChecker) testFuncsOf(pkg, tags string) (testFuncs, error) {
	rel := filepath.Clean(strings.TrimSuffix(pkg, "/"))
	var dirs []string
	if strings.HasSuffix(rel, "...") {
		base := filepath.Clean(strings.TrimSuffix(rel, "..."))
		if fi, err := os.Stat(filepath.Join(root, base)); err != nil || !fi.IsDir() {
			return testFuncs{}, fmt.Errorf("no package folder %s", pkg)
		}
		err := filepath.WalkDir(filepath.Join(root, base), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != filepath.Join(root, base) && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			if d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
		if err != nil {
			return testFuncs{}, err
		}
	} else {
		if fi, err := os.Stat(filepath.Join(root, rel)); err != nil || !fi.IsDir() {
			return testFuncs{}, fmt.Errorf("no Go package at %s", pkg)
		}
		dirs = []string{filepath.Join(root, rel)}
	}
	var all testFuncs
	found := false
	for _, dir := range dirs {
		fs, ok, err := c.dirTestFuncs(dir, tags)
		if err != nil {
			return testFuncs{}, fmt.Errorf("%s: %v", pkg, err)
		}
		found = found || ok
		all.tests = append(all.tests, fs.tests...)
		all.benchmarks = append(all.benchmarks, fs.benchmarks...)
	}
	if !found {
		return testFuncs{}, fmt.Errorf("no Go package at %s", pkg)
	}
	return all, nil
}

// dirTestFuncs finds the test functions of the package in dir as go test
// does: the _test.go files the build context (with tags) selects, and in
// them the top-level functions named Test…, Benchmark…, Example… and
// Fuzz… (the suffix not starting with a lower-case letter).
func (c *commandChecker) dirTestFuncs(dir, tags string) (testFuncs, bool, error) {
	key := tags + "\x00" + dir
	if fs, ok := c.funcs[key]; ok {
		return fs, true, nil
	}
	ctx := build.Default
	if tags != "" {
		ctx.BuildTags = strings.Split(tags, ",")
	}
	p, err := ctx.ImportDir(dir, 0)
	if err != nil {
		if _, none := err.(*build.NoGoError); none {
			return testFuncs{}, false, nil
		}
		return testFuncs{}, false, err
	}
	var fs testFuncs
	fset := token.NewFileSet()
	for _, name := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return testFuncs{}, false, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			n := fn.Name.Name
			switch {
			case isTestName(n, "Benchmark"):
				fs.benchmarks = append(fs.benchmarks, n)
			case isTestName(n, "Test"), isTestName(n, "Example"), isTestName(n, "Fuzz"):
				fs.tests = append(fs.tests, n)
			}
		}
	}
	c.funcs[key] = fs
	return fs, true, nil
}

// isTestName is the testing package's rule: the prefix, then nothing or
// a rune that is not a lower-case letter.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// packagesOf checks that the packages go build, vet, list or generate
// names exist.
func (c *commandChecker) packagesOf(verb string, args []string) []string {
	var problems []string
	tags := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "-f" || a == "-tags" || a == "-ldflags" || a == "-gcflags":
			if a == "-tags" && i+1 < len(args) {
				tags = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if _, err := c.testFuncsOf(a, tags); err != nil {
				problems = append(problems, "go "+verb+": "+err.Error())
			}
		}
	}
	return problems
}

// goRun checks `go run [-tags T] . ARGS` as conflictlab ARGS (the
// command tree is the same with -tags fakes: sim --backend is always
// there, and says what to build when the fakes are not linked), and `go
// run ./PKG` as a package.
func (c *commandChecker) goRun(args []string) []string {
	tags := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-tags" && len(args) > 1 {
			tags, args = args[1], args[2:]
			continue
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return []string{"go run: no package"}
	}
	if args[0] != "." {
		if _, err := c.testFuncsOf(args[0], tags); err != nil {
			return []string{"go run: " + err.Error()}
		}
		return nil
	}
	return checkConflictlab(args[1:])
}

// checkConflictlab checks a conflictlab command line against the command
// tree: the subcommand exists, every flag is one it (or a parent) has,
// and it takes the positional arguments given.
func checkConflictlab(args []string) []string {
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		IsTerminal: func() bool { return false }, Getenv: func(string) string { return "" }}
	root := cli.NewRoot(env)
	root.InitDefaultVersionFlag()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return []string{fmt.Sprintf("conflictlab %s: %v", strings.Join(args, " "), err)}
	}
	cmd.InitDefaultHelpFlag()
	line := "conflictlab " + strings.Join(args, " ")
	var problems, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var takesValue bool
		if strings.HasPrefix(a, "--") {
			f := cmd.Flag(name)
			if f == nil {
				problems = append(problems, fmt.Sprintf("%s: %s has no flag --%s", line, cmd.CommandPath(), name))
				continue
			}
			takesValue = f.NoOptDefVal == ""
		} else {
			f := cmd.Flags().ShorthandLookup(name[:1])
			if f == nil {
				f = cmd.InheritedFlags().ShorthandLookup(name[:1])
			}
			if f == nil {
				problems = append(problems, fmt.Sprintf("%s: %s has no flag -%s", line, cmd.CommandPath(), name[:1]))
				continue
			}
			takesValue = f.NoOptDefVal == "" && len(name) == 1
		}
		if takesValue && !hasValue {
			i++
		}
	}
	if err := cmd.ValidateArgs(positional); err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", line, err))
	}
	return problems
}

// envtest checks envtest/envtest.sh SUBCOMMAND (and, after run --, the
// command it runs).
func (c *commandChecker) envtest(args []string) []string {
	script, err := os.ReadFile(filepath.Join(root, "envtest", "envtest.sh"))
	if err != nil {
		return []string{err.Error()}
	}
	if len(args) == 0 {
		return []string{"envtest/envtest.sh: no subcommand"}
	}
	if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(args[0]) + `\)`).Match(script) {
		return []string{fmt.Sprintf("envtest/envtest.sh has no subcommand %q", args[0])}
	}
	if args[0] == "run" {
		if i := slices.Index(args, "--"); i >= 0 {
			return c.check(args[i+1:])
		}
	}
	return nil
}
