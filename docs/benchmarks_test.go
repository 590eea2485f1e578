package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestBenchmarksCommandsRun: every command BENCHMARKS.md gives still runs
// as written — each line of its ```sh blocks, and each code span of its
// prose and tables that is a go test, go run, conflictlab or
// envtest/envtest.sh command — checked without running a benchmark (see
// commandChecker); every CONFLICTLAB_* variable it names is read by the
// code; every file of the repository it names exists.
func TestBenchmarksCommandsRun(t *testing.T) {
	doc := readDoc(t, "BENCHMARKS.md")
	problems := checkDocument(doc)
	for _, p := range problems {
		t.Error("BENCHMARKS.md:" + p)
	}
	if n := len(documentCommands(doc)); n < 20 {
		t.Errorf("BENCHMARKS.md gives %d commands: the parser has stopped finding them", n)
	}
}

// TestCommandCheckFindsMistakes shows that each check fails on what it is
// for: a misspelt benchmark or test (even beside a right one), a package
// that is not there, an unknown flag or subcommand, a variable nothing
// reads, a file that does not exist.
func TestCommandCheckFindsMistakes(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"```sh\ngo test ./sim/explore -run '^$' -bench 'Merged/3ctl_x_4steps/merged$' -benchtime 1x\n```", ""},
		{"```sh\ngo test ./sim/explore -run '^$' -bench 'Mergd/3ctl_x_4steps/merged$'\n```", `"Mergd" matches nothing in ./sim/explore`},
		{"`go test ./ui -run '^$' -bench 'ViewBusiest$|ViewHoem$'`", `"ViewHoem$" matches nothing in ./ui`},
		{"`go test ./e2e -run 'TestStartp$' -v`", `"TestStartp$" matches nothing`},
		{"`go test ./sim/explorer -bench .`", "no Go package at ./sim/explorer"},
		{"`go test ./sim/race -bench Race -benchtiem 20x`", "unknown flag -benchtiem"},
		{"`go run . explroe -f examples/requeue.yaml`", `unknown command "explroe"`},
		{"`conflictlab explore -f examples/requeue.yaml --maximum 3`", "has no flag --maximum"},
		{"`conflictlab explore -q examples/requeue.yaml`", "has no flag -q"},
		{"`go run . sim -f examples/no-such-race.yaml`", "examples/no-such-race.yaml does not exist"},
		{"`envtest/envtest.sh launch`", `no subcommand "launch"`},
		{"`CONFLICTLAB_NO_SUCH_KNOB=1 go test ./e2e -run 'TestStartup$'`", "CONFLICTLAB_NO_SUCH_KNOB is read nowhere"},
		{"see `sim/apiserver/nosuch.go`", "sim/apiserver/nosuch.go does not exist"},
		{"`TestMemoChangesNothing` holds it", ""},
		{"`go test ./sim/... -run 'TestMemoChangesNothing|TestStatesAreAFunctionOfTheRace$' -count=1`", ""},
		{"`go test ./sim/... -run 'TestMemoChangesNothing|TestStatesAreAFunctionOfTheRaces$'`", `"TestStatesAreAFunctionOfTheRaces$" matches nothing in ./sim/...`},
		{"`TestMemoChangesNoting` holds it", "no test or benchmark is named TestMemoChangesNoting"},
	} {
		problems := checkDocument(c.doc)
		if c.want == "" {
			if len(problems) > 0 {
				t.Errorf("%s: %q, want none", c.doc, problems)
			}
			continue
		}
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.want) }) {
			t.Errorf("%s: %q, want one saying %q", c.doc, problems, c.want)
		}
	}
}

// docCommand is a command of a document and the line it is on.
type docCommand struct {
	words []string
	line  int
}

// documentCommands returns the commands a document gives: every simple
// command of its ```sh blocks, and the code spans that are commands.
func documentCommands(doc string) []docCommand {
	var out []docCommand
	for _, f := range fences(doc) {
		if f.info != "sh" && f.info != "bash" && f.info != "shell" {
			continue
		}
		// Line by line (a line ending in \ goes on), so that a problem
		// names the line it is on.
		lines := strings.Split(f.text, "\n")
		for i := 0; i < len(lines); i++ {
			start, text := i, lines[i]
			for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
				i++
				text += "\n" + lines[i]
			}
			for _, w := range shellCommands(text) {
				out = append(out, docCommand{w, f.line + 1 + start})
			}
		}
	}
	for _, s := range spans(doc) {
		cmds := shellCommands(s.text)
		if len(cmds) == 0 || !isCommand(unwrap(cmds[0])) {
			continue
		}
		for _, w := range cmds {
			out = append(out, docCommand{w, s.line})
		}
	}
	return out
}

// isCommand: a span is taken for a command when it starts (after
// variables and wrappers) with go test, go run, conflictlab or
// envtest/envtest.sh.
func isCommand(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "go":
		return len(words) > 1 && (words[1] == "test" || words[1] == "run")
	case "conflictlab":
		return true
	case "envtest/envtest.sh":
		return len(words) > 1 // alone, it names the script
	}
	return false
}

// checkDocument returns what is wrong with the commands, variables and
// files a document names, each as "LINE: problem".
func checkDocument(doc string) []string {
	var problems []string
	c := newCommandChecker()
	for _, cmd := range documentCommands(doc) {
		for _, p := range c.check(cmd.words) {
			problems = append(problems, fmt.Sprintf("%d: %s", cmd.line, p))
		}
		for _, w := range cmd.words {
			if p := missingPath(w); p != "" {
				problems = append(problems, fmt.Sprintf("%d: %s", cmd.line, p))
			}
		}
	}
	funcs := testFuncNames()
	for _, s := range spans(doc) {
		if p := missingPath(s.text); p != "" {
			problems = append(problems, fmt.Sprintf("%d: %s", s.line, p))
		}
		if testFuncName.MatchString(s.text) && !funcs[s.text] {
			problems = append(problems, fmt.Sprintf("%d: no test or benchmark is named %s", s.line, s.text))
		}
	}
	for _, l := range links(doc) {
		if _, err := os.Stat(filepath.Join(root, l.text)); err != nil {
			problems = append(problems, fmt.Sprintf("%d: the link's target %s does not exist", l.line, l.text))
		}
	}
	read := variablesRead()
	seen := map[string]bool{}
	for i, l := range strings.Split(doc, "\n") {
		for _, v := range envVar.FindAllString(l, -1) {
			if !read[v] && !seen[v] {
				problems = append(problems, fmt.Sprintf("%d: %s is read nowhere in the code", i+1, v))
			}
			seen[v] = true
		}
	}
	return problems
}

var (
	testFuncName = regexp.MustCompile(`^(Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*$`)
	testFuncDecl = regexp.MustCompile(`(?m)^func ((Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*)\(`)
)

// testFuncNames are the test, benchmark and fuzz functions of every
// _test.go file of the repository.
var testFuncNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range testFuncDecl.FindAllStringSubmatch(string(data), -1) {
			names[m[1]] = true
		}
		return nil
	})
	return names
})

var envVar = regexp.MustCompile(`\bCONFLICTLAB_[A-Z0-9_]+\b`)

// variablesRead are the CONFLICTLAB_* names the code mentions: in the Go
// and shell files of the repository, outside this package (whose tests
// name some that do not exist).
var variablesRead = sync.OnceValue(func() map[string]bool {
	read := map[string]bool{}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || path == filepath.Join(root, "docs")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".sh")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, v := range envVar.FindAllString(string(data), -1) {
			read[v] = true
		}
		return nil
	})
	// .ci/run is skipped with the other dot folders above; read it too.
	if data, err := os.ReadFile(filepath.Join(root, ".ci", "run")); err == nil {
		for _, v := range envVar.FindAllString(string(data), -1) {
			read[v] = true
		}
	}
	return read
})

var qualified = regexp.MustCompile(`^[a-z0-9_]+\.[A-Z]`)

var pathLike = regexp.MustCompile(`^[A-Za-z0-9_-]+(/[A-Za-z0-9_.*-]*)+$`)

// missingPath says when a word names a file or folder of the repository
// that does not exist. A word is taken for a path when it looks like one
// and its first element is a top-level entry of the repository (so
// k8s.io/api, /tmp/x and Merged/3ctl_x_4steps are not); a * in it is a
// glob that must match something.
func missingPath(w string) string {
	w = strings.TrimSuffix(strings.TrimPrefix(w, "./"), "/...")
	if !pathLike.MatchString(w) {
		return ""
	}
	// A package's identifier (ui/chrome.Header) names the package.
	if i := strings.LastIndex(w, "/"); qualified.MatchString(w[i+1:]) {
		w = w[:i+1] + w[i+1:][:strings.Index(w[i+1:], ".")]
	}
	first, _, _ := strings.Cut(w, "/")
	if _, err := os.Stat(filepath.Join(root, first)); err != nil {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(w)))
	if len(matches) == 0 {
		return fmt.Sprintf("%s does not exist", w)
	}
	return ""
}
