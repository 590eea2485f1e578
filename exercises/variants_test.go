package exercises_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/conflictlab/conflictlab/bench/cputime"
	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/check"
	"github.com/conflictlab/conflictlab/lessons"

	memberssolution "github.com/conflictlab/conflictlab/exercises/course/01-retry-fresh-read/solution"
	membersstart "github.com/conflictlab/conflictlab/exercises/course/01-retry-fresh-read/start"
	memberswrong "github.com/conflictlab/conflictlab/exercises/course/01-retry-fresh-read/wrong"
	ownersolution "github.com/conflictlab/conflictlab/exercises/course/02-return-the-error/solution"
	ownerstart "github.com/conflictlab/conflictlab/exercises/course/02-return-the-error/start"
	ownerwrong "github.com/conflictlab/conflictlab/exercises/course/02-return-the-error/wrong"
	finalizersolution "github.com/conflictlab/conflictlab/exercises/course/03-add-finalizer/solution"
	finalizerstart "github.com/conflictlab/conflictlab/exercises/course/03-add-finalizer/start"
	finalizerwrong "github.com/conflictlab/conflictlab/exercises/course/03-add-finalizer/wrong"
	countersolution "github.com/conflictlab/conflictlab/exercises/course/04-count-every-visit/solution"
	counterstart "github.com/conflictlab/conflictlab/exercises/course/04-count-every-visit/start"
	counterwrong "github.com/conflictlab/conflictlab/exercises/course/04-count-every-visit/wrong"
	statussolution "github.com/conflictlab/conflictlab/exercises/course/05-observed-generation/solution"
	statusstart "github.com/conflictlab/conflictlab/exercises/course/05-observed-generation/start"
	statuswrong "github.com/conflictlab/conflictlab/exercises/course/05-observed-generation/wrong"
	childsolution "github.com/conflictlab/conflictlab/exercises/course/06-create-once/solution"
	childstart "github.com/conflictlab/conflictlab/exercises/course/06-create-once/start"
	childwrong "github.com/conflictlab/conflictlab/exercises/course/06-create-once/wrong"
	releasesolution "github.com/conflictlab/conflictlab/exercises/course/07-release-finalizer/solution"
	releasestart "github.com/conflictlab/conflictlab/exercises/course/07-release-finalizer/start"
	releasewrong "github.com/conflictlab/conflictlab/exercises/course/07-release-finalizer/wrong"
	applysolution "github.com/conflictlab/conflictlab/exercises/course/08-apply-your-fields/solution"
	applystart "github.com/conflictlab/conflictlab/exercises/course/08-apply-your-fields/start"
	applywrong "github.com/conflictlab/conflictlab/exercises/course/08-apply-your-fields/wrong"
)

// variant is one version of an exercise's code: the start the learner
// is given, a typical wrong answer, the reference solution.
type variant struct {
	dir, name string
	code      check.Code
	pass      bool
}

var variants = []variant{
	{"01-retry-fresh-read", "start", check.Code{"you": membersstart.New}, false},
	{"01-retry-fresh-read", "wrong", check.Code{"you": memberswrong.New}, false},
	{"01-retry-fresh-read", "solution", check.Code{"you": memberssolution.New}, true},
	{"02-return-the-error", "start", check.Code{"you": ownerstart.New}, false},
	{"02-return-the-error", "wrong", check.Code{"you": ownerwrong.New}, false},
	{"02-return-the-error", "solution", check.Code{"you": ownersolution.New}, true},
	{"03-add-finalizer", "start", check.Code{"you": finalizerstart.New}, false},
	{"03-add-finalizer", "wrong", check.Code{"you": finalizerwrong.New}, false},
	{"03-add-finalizer", "solution", check.Code{"you": finalizersolution.New}, true},
	{"04-count-every-visit", "start", check.Code{"you-1": counterstart.New, "you-2": counterstart.New}, false},
	{"04-count-every-visit", "wrong", check.Code{"you-1": counterwrong.New, "you-2": counterwrong.New}, false},
	{"04-count-every-visit", "solution", check.Code{"you-1": countersolution.New, "you-2": countersolution.New}, true},
	{"05-observed-generation", "start", check.Code{"you": statusstart.New}, false},
	{"05-observed-generation", "wrong", check.Code{"you": statuswrong.New}, false},
	{"05-observed-generation", "solution", check.Code{"you": statussolution.New}, true},
	{"06-create-once", "start", check.Code{"you": childstart.New}, false},
	{"06-create-once", "wrong", check.Code{"you": childwrong.New}, false},
	{"06-create-once", "solution", check.Code{"you": childsolution.New}, true},
	{"07-release-finalizer", "start", check.Code{"you": releasestart.New}, false},
	{"07-release-finalizer", "wrong", check.Code{"you": releasewrong.New}, false},
	{"07-release-finalizer", "solution", check.Code{"you": releasesolution.New}, true},
	{"08-apply-your-fields", "start", check.Code{"you": applystart.New}, false},
	{"08-apply-your-fields", "wrong", check.Code{"you": applywrong.New}, false},
	{"08-apply-your-fields", "solution", check.Code{"you": applysolution.New}, true},
}

// TestVariants proves every exercise's check tells its variants apart:
// the start and the wrong answer fail, the solution passes.
func TestVariants(t *testing.T) {
	for _, v := range variants {
		t.Run(v.dir+"/"+v.name, func(t *testing.T) {
			got := check.Prove(context.Background(), filepath.Join("course", v.dir), v.code)
			t.Logf("%s", got.Report)
			for _, r := range got.Races {
				t.Logf("%s: %d ms", r.Scenario, r.Millis)
			}
			if got.Pass != v.pass {
				t.Errorf("pass = %v, want %v", got.Pass, v.pass)
			}
			// A variant fails on what its code does in the races, never
			// because the exercise does not load or the code broke a bound
			// of simcluster's (a panic, nondeterminism).
			if got.Invalid != "" || got.Error != nil {
				t.Errorf("the check did not judge the code: invalid %q, error %v", got.Invalid, got.Error)
			}
			if !got.Pass && got.Failed >= 0 && got.Races[got.Failed].Explored && got.Outcome == nil {
				t.Errorf("a failing exploration has no losing run to show")
			}
		})
	}
}

// TestCourseLoads: the embedded exercises read back, numbered in order,
// and each one's lessons are lessons of the built-in course.
func TestCourseLoads(t *testing.T) {
	all, err := exercises.Course()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 8 {
		t.Fatalf("%d exercises, want at least 8", len(all))
	}
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, l := range pack.Lessons {
		ids[l.ID] = true
	}
	dirs := map[string]bool{}
	for _, v := range variants {
		dirs[v.dir] = true
	}
	for _, x := range all {
		if !dirs[x.Dir] {
			t.Errorf("%s: TestVariants does not prove it", x.Dir)
		}
		if len(x.Lessons) == 0 {
			t.Errorf("%s: no lesson teaches it", x.Dir)
		}
		for _, id := range x.Lessons {
			if !ids[id] {
				t.Errorf("%s: lesson %q is not in the course", x.Dir, id)
			}
		}
	}
	if _, err := exercises.Find(all, "3"); err != nil {
		t.Error(err)
	}
	if _, err := exercises.Find(all, "99"); err == nil {
		t.Error("Find(99) found an exercise")
	}
}

// BenchmarkProveTwoControllers is the check of an exercise with two code
// controllers, explored exhaustively: exercise 4's solution as both
// replicas (226 interleavings, each replayed from the start; the retry
// helper's backoff sleeps on the wall clock in every conflicting one).
// BENCHMARKS.md, "Exercises".
func BenchmarkProveTwoControllers(b *testing.B) {
	code := check.Code{"you-1": countersolution.New, "you-2": countersolution.New}
	cpu := cputime.Start()
	for b.Loop() {
		if v := check.Prove(context.Background(), filepath.Join("course", "04-count-every-visit"), code); !v.Pass {
			b.Fatalf("the solution fails:\n%s", v.Report)
		}
	}
	cpu.Report(b)
}
