package fakes

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The lesson "Your tests lie" shows what the fakes make of its races in
// the lesson itself: the tutorial does not link the fake libraries, so
// the runs are recorded when the course is generated (lessons/gen_fakes.go
// writes Recorded's text into the lesson) and a test holds the lesson to
// what the libraries answer now (TestTestsLieRecordsTheFakes).

// Labels are the backends as a learner reads them.
var Labels = map[Name]string{
	Sim:                   "API server",
	ClientGoFake:          "client-go NewSimpleClientset",
	ClientGoClientset:     "client-go NewClientset",
	ControllerRuntimeFake: "controller-runtime fake client",
}

// RecordedWidth is the widest line Recorded writes: it fits the lesson
// pane at 80 columns.
const RecordedWidth = 72

// Recorded plays sc with sched on every backend and writes, for each, its
// requests and their answers, what it lost and the final resourceVersion
// of the target — short lines, for a lesson's text.
func Recorded(sc *scenario.Scenario, sched race.Schedule) (string, error) {
	var b strings.Builder
	for i, n := range All() {
		r, err := Run(n, sc, sched)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(Labels[n] + ":\n")
		var reqs []string
		for _, s := range r.Outcome.Steps {
			if s.Kind != race.StepRequest {
				continue
			}
			reqs = append(reqs, fmt.Sprintf("%s %s %s", s.Actor, verbOf(s), codeWords(s)))
		}
		writeWrapped(&b, "  ", strings.Join(reqs, " · "))
		lost := "nothing lost"
		if len(r.Outcome.Lost) > 0 {
			var fs []string
			for _, l := range r.Outcome.Lost {
				fs = append(fs, l.Field+" LOST")
			}
			lost = strings.Join(fs, ", ")
		}
		rv := ""
		if r.Outcome.Final != nil {
			if m, ok := r.Outcome.Final["metadata"].(map[string]interface{}); ok {
				rv, _ = m["resourceVersion"].(string)
			}
		}
		parts := []string{lost}
		switch m, _ := r.Outcome.Final["metadata"].(map[string]interface{}); {
		case r.Outcome.Deleted:
			parts = append(parts, r.Outcome.Target.Name+" gone")
		case m["deletionTimestamp"] != nil:
			parts = append(parts, r.Outcome.Target.Name+" being deleted")
		}
		parts = append(parts, fmt.Sprintf("final resourceVersion %q", rv))
		if r.Outcome.Target.Kind != api.ConfigMap {
			// ConfigMaps have no generation; the others do, on a server.
			g, _, _ := unstructured.NestedInt64(r.Outcome.Final, "metadata", "generation")
			parts = append(parts, fmt.Sprintf("generation %d", g))
		}
		writeWrapped(&b, "  ", strings.Join(parts, " · "))
	}
	return b.String(), nil
}

// verbOf is the request's method word, as the timeline writes it.
func verbOf(s race.Step) string {
	w, _, _ := strings.Cut(s.Request, " ")
	return w
}

// codeWords is an answer as "409 Conflict", "200".
func codeWords(s race.Step) string {
	if s.Reason != "" {
		return fmt.Sprintf("%d %s", s.Code, s.Reason)
	}
	return fmt.Sprint(s.Code)
}

// writeWrapped writes text after indent, wrapped at RecordedWidth at its
// " · " separators (then at spaces).
func writeWrapped(b *strings.Builder, indent, text string) {
	line := indent
	for i, part := range strings.Split(text, " · ") {
		sep := " · "
		if i == 0 {
			sep = ""
		}
		if utf8.RuneCountInString(line+sep+part) > RecordedWidth && strings.TrimSpace(line) != "" {
			b.WriteString(line + "\n")
			line, sep = indent, ""
		}
		line += sep + part
	}
	b.WriteString(line + "\n")
}

// recordedBlock opens a block of a lesson file that holds recorded runs:
// a fence whose info string is "text fakes" and a course scenario's path.
var recordedBlock = regexp.MustCompile("^(\\s*)```text fakes (\\S+)\\s*$")

// RecordLesson returns a lesson file's source with the body of each
// recorded block replaced by Recorded's text for its scenario, played
// with the scenario's own schedule; load reads a scenario by the path the
// block names (relative to the lesson pack).
func RecordLesson(src string, load func(path string) (*scenario.Scenario, error)) (string, error) {
	lines := strings.Split(src, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		m := recordedBlock.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return "", fmt.Errorf("line %d: the recorded block of %s is not closed", i+1, m[2])
		}
		sc, err := load(m[2])
		if err != nil {
			return "", fmt.Errorf("line %d: %w", i+1, err)
		}
		text, err := Recorded(sc, race.Schedule{})
		if err != nil {
			return "", fmt.Errorf("line %d: %s: %w", i+1, m[2], err)
		}
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			out = append(out, strings.TrimRight(m[1]+l, " "))
		}
		out = append(out, lines[end])
		i = end
	}
	return strings.Join(out, "\n"), nil
}
