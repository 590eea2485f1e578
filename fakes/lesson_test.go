package fakes

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The lesson "Your tests lie" (lessons/course/15-tests-lie.yaml) plays its
// races on the simulator only — the tutorial does not link the fakes — and
// says in prose what the fakes make of the same races. This test holds the
// prose to the libraries: it takes every race of the lesson from the
// built-in course, plays it on every backend, and asserts the divergence
// the lesson states.

const testsLieID = "tests-lie"

// lessonRace is one race of the lesson: a step's race, with a choose
// option's strategy applied.
type lessonRace struct {
	step     int
	scenario string
	option   *lessons.Option
	results  map[Name]*Result
}

func (r lessonRace) String() string {
	s := fmt.Sprintf("step %d (%s)", r.step+1, r.scenario)
	if r.option != nil {
		s += " option " + r.option.ID
	}
	return s
}

func testsLieRaces(t *testing.T) []lessonRace {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson(testsLieID)
	if l == nil {
		t.Fatalf("the built-in course has no lesson %q (run go generate ./lessons)", testsLieID)
	}
	var out []lessonRace
	for i, s := range l.Steps {
		if s.Race == nil {
			continue
		}
		opts := []*lessons.Option{nil}
		if s.Kind == lessons.Choose {
			opts = nil
			for j := range s.Options {
				opts = append(opts, &s.Options[j])
			}
		}
		for _, opt := range opts {
			sc, err := p.ScenarioFor(s, opt)
			if err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
			lr := lessonRace{step: i, scenario: s.Race.Scenario, option: opt, results: map[Name]*Result{}}
			for _, n := range All() {
				r, err := Run(n, sc, race.Schedule{Moves: scenario.MustMoves(s.Race.Schedule...)})
				if err != nil {
					t.Fatalf("%s on %s: %v", lr, n, err)
				}
				lr.results[n] = r
			}
			out = append(out, lr)
		}
	}
	return out
}

func controllerStats(o *race.Outcome, name string) (race.ControllerResult, bool) {
	for _, c := range o.Controllers {
		if c.Name == name {
			return c, true
		}
	}
	return race.ControllerResult{}, false
}

// codesOf lists the answers a controller's API requests got, in order.
func codesOf(o *race.Outcome, actor string) []int {
	var out []int
	for _, s := range o.Steps {
		if s.Actor == actor && s.Kind == race.StepRequest {
			out = append(out, s.Code)
		}
	}
	return out
}

func anyCode(o *race.Outcome, code int) bool {
	for _, s := range answered(o) {
		if s.Code == code {
			return true
		}
	}
	return false
}

func isLost(o *race.Outcome, field string) bool {
	for _, l := range o.Lost {
		if l.Field == field {
			return true
		}
	}
	return false
}

// clientGoFakes are the backends the lesson says never answer 409; checking
// are those it says refuse a stale resourceVersion as the server does.
var (
	clientGoFakes = []Name{ClientGoFake, ClientGoClientset}
	checking      = []Name{Sim, ControllerRuntimeFake}
)

func TestTestsLieLessonOnEveryBackend(t *testing.T) {
	races := testsLieRaces(t)
	seen := map[string]int{}
	for _, lr := range races {
		seen[lr.scenario]++
		switch lr.scenario {
		case "scenarios/fake-stale-update.yaml":
			if lr.option == nil {
				staleUpdate(t, lr)
			} else {
				retryChoice(t, lr)
			}
		case "scenarios/fake-stale-retry.yaml":
			retryLoop(t, lr)
		case "scenarios/play-fake-retry.yaml":
			// "Green everywhere", as written: b's one update from its
			// Lister is the stale update of the first step.
			staleUpdate(t, lr)
		case "scenarios/fake-versions.yaml":
			versions(t, lr)
		case "scenarios/del-delete.yaml":
			deletion(t, lr)
		default:
			t.Errorf("%s: a race this test does not know: say what the fakes do with it, and assert it here", lr)
		}
	}
	// The lesson's races, as the lesson has them: two plain plays of the
	// stale update (the predict and the read step), its three retry loops
	// (the choose step), the play step's race as written, the retry loop
	// and the version count.
	want := map[string]int{
		"scenarios/fake-stale-update.yaml": 5,
		"scenarios/fake-stale-retry.yaml":  1,
		"scenarios/fake-versions.yaml":     1,
		"scenarios/play-fake-retry.yaml":   1,
		"scenarios/del-delete.yaml":        1,
	}
	for sc, n := range want {
		if seen[sc] != n {
			t.Errorf("the lesson plays %s %d times, this test expects %d", sc, seen[sc], n)
		}
	}
}

// "Green on the fake" and "Why the fake said yes": on client-go's fakes
// both updates return 200, no call returns 409, and a's data.a is lost;
// the simulator and controller-runtime's fake refuse b with 409 and keep
// data.a.
func staleUpdate(t *testing.T, lr lessonRace) {
	t.Helper()
	for _, n := range clientGoFakes {
		o := lr.results[n].Outcome
		if got := codesOf(o, "b"); !slices.Equal(got, []int{http.StatusOK}) || anyCode(o, http.StatusConflict) {
			t.Errorf("%s on %s: b's answers %v; the lesson says the fake answers 200 and never 409", lr, n, got)
		}
		if _, has := finalData(o, "a"); has || !isLost(o, "data.a") || o.Verdict != race.VerdictLost {
			t.Errorf("%s on %s: data.a present %v, lost %v, verdict %s; the lesson says the fake loses it",
				lr, n, !isLost(o, "data.a"), lostFields(o), o.Verdict)
		}
	}
	for _, n := range checking {
		o := lr.results[n].Outcome
		if got := codesOf(o, "b"); !slices.Equal(got, []int{http.StatusConflict}) {
			t.Errorf("%s on %s: b's answers %v, want [409]", lr, n, got)
		}
		if a, _ := finalData(o, "a"); a != "set by a" || isLost(o, "data.a") {
			t.Errorf("%s on %s: data.a %q, lost %v; want a's change kept", lr, n, a, lostFields(o))
		}
	}
}

// "Three loops, one green bar": on client-go's fakes every option passes a
// unit test that checks for no error (b's first update is 200, no 409, no
// retry) while erasing data.a; on the simulator and on controller-runtime's
// fake the goal — both changes land — holds for the right option only.
func retryChoice(t *testing.T, lr lessonRace) {
	t.Helper()
	for _, n := range clientGoFakes {
		o := lr.results[n].Outcome
		b, _ := controllerStats(o, "b")
		if anyCode(o, http.StatusConflict) || b.Stats.Conflicts != 0 || b.Stats.Retries != 0 || b.Status != "done" {
			t.Errorf("%s on %s: b %s with %d conflicts, %d retries; the lesson says the fake lets the first update through",
				lr, n, b.Status, b.Stats.Conflicts, b.Stats.Retries)
		}
		if v, _ := finalData(o, "b"); v != "set by b" || !isLost(o, "data.a") {
			t.Errorf("%s on %s: data.b %q, lost %v; the lesson says b lands and data.a is erased", lr, n, v, lostFields(o))
		}
	}
	for _, n := range checking {
		o := lr.results[n].Outcome
		a, _ := finalData(o, "a")
		b, _ := finalData(o, "b")
		if goal := a == "set by a" && b == "set by b"; goal != lr.option.Correct {
			t.Errorf("%s on %s: both changes landed: %v; the lesson says that holds for the right option only", lr, n, goal)
		}
		st, _ := controllerStats(o, "b")
		if lr.option.Strategy != nil && lr.option.Strategy.Write == "update-clear-rv" {
			// The option that empties the resourceVersion: no conflict
			// anywhere, and a's change erased on the server too.
			if st.Stats.Conflicts != 0 || !isLost(o, "data.a") {
				t.Errorf("%s on %s: b met %d conflicts, lost %v; want none, and data.a lost", lr, n, st.Stats.Conflicts, lostFields(o))
			}
			continue
		}
		if st.Stats.Conflicts == 0 {
			t.Errorf("%s on %s: b met no conflict", lr, n)
		}
	}
}

// "Make the conflict happen": b's RetryOnConflict is entered on the
// simulator and on controller-runtime's fake (one 409, then a GET and an
// update that lands); on client-go's fakes the loop never runs.
func retryLoop(t *testing.T, lr lessonRace) {
	t.Helper()
	for _, n := range All() {
		o := lr.results[n].Outcome
		b, _ := controllerStats(o, "b")
		wantConflicts, wantRequests := 1, 3
		if slices.Contains(clientGoFakes, n) {
			wantConflicts, wantRequests = 0, 1
		}
		if b.Stats.Conflicts != wantConflicts || b.Stats.Requests != wantRequests {
			t.Errorf("%s on %s: b made %d requests, met %d conflicts; want %d, %d",
				lr, n, b.Stats.Requests, b.Stats.Conflicts, wantRequests, wantConflicts)
		}
		if v, _ := finalData(o, "b"); v != "set by b" {
			t.Errorf("%s on %s: data.b %q", lr, n, v)
		}
		_, hasA := finalData(o, "a")
		if wantA := !slices.Contains(clientGoFakes, n); hasA != wantA {
			t.Errorf("%s on %s: data.a present %v, want %v", lr, n, hasA, wantA)
		}
	}
}

// "A number pinned by a test": after two creates and one update, cm1's
// resourceVersion is "103" on the server (one counter for the cluster),
// "2" on controller-runtime's fake (a counter per object), and empty on
// client-go's fakes (no resourceVersion at all).
func versions(t *testing.T, lr lessonRace) {
	t.Helper()
	want := map[Name]string{Sim: "103", ControllerRuntimeFake: "2", ClientGoFake: "", ClientGoClientset: ""}
	for _, n := range All() {
		if got := finalRV(lr.results[n].Outcome); got != want[n] {
			t.Errorf("%s on %s: cm1's resourceVersion %q, want %q", lr, n, got, want[n])
		}
	}
}

// "What else the fakes do not do": a DELETE of a Widget with a finalizer
// leaves it being deleted, at generation 2, on the server; client-go's
// fakes remove it at once; controller-runtime's fake marks it, and leaves
// its generation alone.
func deletion(t *testing.T, lr lessonRace) {
	t.Helper()
	for _, n := range All() {
		o := lr.results[n].Outcome
		meta, _ := o.Final["metadata"].(map[string]interface{})
		marked := !o.Deleted && meta["deletionTimestamp"] != nil
		gen, _, _ := unstructured.NestedInt64(o.Final, "metadata", "generation")
		switch n {
		case Sim:
			if !marked || gen != 2 {
				t.Errorf("%s on %s: marked %v, generation %d; want being deleted at generation 2", lr, n, marked, gen)
			}
		case ClientGoFake, ClientGoClientset:
			if !o.Deleted {
				t.Errorf("%s on %s: the object is still there; the lesson says the fake deletes it at once", lr, n)
			}
		case ControllerRuntimeFake:
			if !marked || gen != 0 {
				t.Errorf("%s on %s: marked %v, generation %d; the lesson says it is marked, with no generation", lr, n, marked, gen)
			}
		}
	}
}

// TestTestsLieRecordsTheFakes: the runs lesson 15 shows in its text are
// what the fake libraries answer now (the tutorial cannot ask them: it is
// built without them). `go generate ./lessons` records them again.
func TestTestsLieRecordsTheFakes(t *testing.T) {
	const file = "../lessons/course/15-tests-lie.yaml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := RecordLesson(string(src), func(path string) (*scenario.Scenario, error) {
		return scenario.Load(filepath.Join("../lessons/course", path))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want != string(src) {
		t.Fatalf("%s shows runs the fakes no longer give: run go generate ./lessons", file)
	}
	if n := strings.Count(want, "```text fakes "); n < 3 {
		t.Fatalf("%s records %d races; the lesson shows three", file, n)
	}
	// The compiled course carries them too.
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	shown := 0
	for _, s := range p.Lesson(testsLieID).Steps {
		shown += strings.Count(s.Text, "client-go NewSimpleClientset:")
	}
	if shown < 3 {
		t.Errorf("the built-in course's lesson shows %d recorded runs of client-go's fake: run go generate ./lessons", shown)
	}
}
