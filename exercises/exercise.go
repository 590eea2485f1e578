// Package exercises holds the code exercises: in each the learner
// completes a reconcile (or a function a reconcile calls) that races in
// the simulator through simcluster, and the exercise's check proves it
// over every interleaving. The exercises are embedded (course/): each is
// a folder NN-name with its start code (start/), its reference solution
// (solution/), a typical wrong answer (wrong/), the check (check.yaml, in
// package check's format) and its races, and exercise.yaml: its title,
// hint and the lessons that teach its idea.
package exercises

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/exercises/verdict"
)

//go:embed course
var course embed.FS

// Exercise is one exercise of the course.
type Exercise struct {
	// Number is its place in the course, from 1; Name its folder without
	// the number ("retry-fresh-read"); Dir the folder ("01-retry-fresh-read").
	Number    int
	Name, Dir string
	// Title is what the screens call it; Hint is shown one key away;
	// Lessons are the ids of the lessons that teach its idea.
	Title, Hint string
	Lessons     []string
	// Spec is its check.yaml.
	Spec *verdict.Spec
	// Start, Solution and Wrong are its Go files, by name.
	Start, Solution, Wrong map[string][]byte
	// Check are the files of the check beside the code (check.yaml and
	// the races), by name.
	Check map[string][]byte
}

// about is exercise.yaml.
type about struct {
	Title   string   `yaml:"title"`
	Lessons []string `yaml:"lessons"`
	Hint    string   `yaml:"hint"`
}

var dirName = regexp.MustCompile(`^([0-9]{2})-([a-z0-9-]+)$`)

// Course is the built-in exercises, in course order.
func Course() ([]*Exercise, error) {
	sub, err := fs.Sub(course, "course")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}

// Load reads the exercises of a folder of them (each NN-name/); a
// problem names the file and what is wrong.
func Load(fsys fs.FS) ([]*Exercise, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []*Exercise
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m := dirName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("%s: an exercise's folder is NN-name (01-retry-fresh-read)", e.Name())
		}
		n, _ := strconv.Atoi(m[1])
		x, err := load(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		x.Number, x.Name, x.Dir = n, m[2], e.Name()
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	for i, x := range out {
		if x.Number != i+1 {
			return nil, fmt.Errorf("%s: exercises are numbered 1, 2, 3 … in order; want %02d here", x.Dir, i+1)
		}
	}
	return out, nil
}

func load(fsys fs.FS, dir string) (*Exercise, error) {
	x := &Exercise{}
	name := path.Join(dir, "exercise.yaml")
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var a about
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	switch {
	case strings.TrimSpace(a.Title) == "":
		return nil, fmt.Errorf("%s: title: missing", name)
	case strings.TrimSpace(a.Hint) == "":
		return nil, fmt.Errorf("%s: hint: missing", name)
	}
	x.Title, x.Hint, x.Lessons = a.Title, strings.TrimSpace(a.Hint), a.Lessons
	specName := path.Join(dir, verdict.SpecFile)
	specData, err := fs.ReadFile(fsys, specName)
	if err != nil {
		return nil, err
	}
	if x.Spec, err = verdict.ParseSpec(specName, specData); err != nil {
		return nil, err
	}
	x.Check = map[string][]byte{verdict.SpecFile: specData}
	for _, r := range x.Spec.Races {
		if x.Check[r.Scenario] != nil {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, r.Scenario))
		if err != nil {
			return nil, fmt.Errorf("%s: races: %w", specName, err)
		}
		x.Check[r.Scenario] = b
	}
	for _, v := range []struct {
		sub string
		to  *map[string][]byte
	}{{"start", &x.Start}, {"solution", &x.Solution}, {"wrong", &x.Wrong}} {
		files, err := goFiles(fsys, path.Join(dir, v.sub))
		if err != nil {
			return nil, err
		}
		*v.to = files
	}
	return x, nil
}

// goFiles are a folder's .go files, by name; at least one.
func goFiles(fsys fs.FS, dir string) (map[string][]byte, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = b
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	return out, nil
}

// Find is the exercise arg names: its number ("3"), its folder
// ("03-add-finalizer") or its name ("add-finalizer").
func Find(all []*Exercise, arg string) (*Exercise, error) {
	for _, x := range all {
		if arg == strconv.Itoa(x.Number) || arg == x.Dir || arg == x.Name {
			return x, nil
		}
	}
	var names []string
	for _, x := range all {
		names = append(names, x.Dir)
	}
	return nil, fmt.Errorf("no exercise %q (exercises: 1–%d, or a name: %s)", arg, len(all), strings.Join(names, ", "))
}

// Files names the Go files of a variant in a stable order.
func Files(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
