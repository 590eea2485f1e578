package race_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Every example in examples/ says in its header what it shows; these
// checks run each one through the real scheduler (its own schedule, then
// round-robin) and hold it to that.
var exampleOutcomes = map[string]func(t *testing.T, r *exampleRun){
	"lost-update-unconditional.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.a", nil)
		r.wantField(t, "ConfigMap/default/cm1", "data.b", "set by b")
		r.wantStatus(t, "a", controller.Done)
		r.wantStatus(t, "b", controller.Done)
		r.wantStats(t, "b", func(s controller.Stats) bool { return s.Conflicts == 0 && s.Errors == 0 })
	},
	"lost-update-conditional.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.a", "set by a")
		r.wantField(t, "ConfigMap/default/cm1", "data.b", nil)
		r.wantStatus(t, "b", controller.GaveUp)
		r.wantErr(t, "b", apierrors.IsConflict)
	},
	"retry-live-get.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.a", "set by a")
		r.wantField(t, "ConfigMap/default/cm1", "data.b", "set by b")
		r.wantStatus(t, "b", controller.Done)
		r.wantStats(t, "b", func(s controller.Stats) bool { return s.Conflicts == 1 && s.Retries == 1 })
	},
	"retry-no-reread.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.b", nil)
		r.wantStatus(t, "b", controller.GaveUp)
		r.wantStats(t, "b", func(s controller.Stats) bool { return s.Conflicts == 5 && s.Requests == 5 })
	},
	"stale-lister-retry.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.b", nil)
		r.wantStatus(t, "b", controller.GaveUp)
		r.wantStats(t, "b", func(s controller.Stats) bool { return s.Conflicts == 5 && s.ListerReads == 5 })
	},
	"merge-patch-finalizer.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "metadata.finalizers", []any{"example.com/b"})
		r.wantStatus(t, "a", controller.Done)
		r.wantStatus(t, "b", controller.Done)
	},
	"strategic-patch-finalizer.yaml": func(t *testing.T, r *exampleRun) {
		// Both survive; the patch's $setElementOrder puts b's first.
		r.wantField(t, "ConfigMap/default/cm1", "metadata.finalizers", []any{"example.com/b", "example.com/a"})
	},
	"json-patch-test.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/counter", "data.count", "1")
		r.wantStatus(t, "b", controller.GaveUp)
		r.wantErr(t, "b", apierrors.IsInvalid)
	},
	"apply-conflict.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/cm1", "data.x", "c")
		r.wantField(t, "ConfigMap/default/cm1", "data.other", "untouched")
		r.wantStatus(t, "a", controller.Done)
		r.wantErr(t, "b", apierrors.IsConflict)
		r.wantErr(t, "b", func(err error) bool { return strings.Contains(err.Error(), `conflict with "a"`) })
		r.wantStatus(t, "c", controller.Done)
	},
	"counter-merge-patch.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/counter", "data.count", "1")
		r.wantStatus(t, "a", controller.Done)
		r.wantStatus(t, "b", controller.Done)
	},
	"counter-conditional.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/counter", "data.count", "2")
		r.wantStatus(t, "b", controller.Done)
	},
	"status-subresource.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "Widget/default/w1", "spec.size", int64(2))
		r.wantField(t, "Widget/default/w1", "status.message", nil)
		r.wantField(t, "Widget/default/w1", "status.phase", "Ready")
		r.wantStatus(t, "a", controller.Done)
		r.wantStatus(t, "b", controller.Done)
	},
	"crd-strategic-415.yaml": func(t *testing.T, r *exampleRun) {
		r.wantStatus(t, "a", controller.GaveUp)
		r.wantErr(t, "a", func(err error) bool { return apiserver.Code(err) == 415 })
		r.wantField(t, "Widget/default/w1", "spec.color", nil)
		r.wantField(t, "Widget/default/w1", "spec.owner", "b")
	},
	"unbounded-retry.yaml": func(t *testing.T, r *exampleRun) {
		if len(r.o.Schedule) != r.s.MaxSteps || r.o.Verdict != race.VerdictUnfinished {
			t.Errorf("ran %d steps (%s), want to hit maxSteps %d", len(r.o.Schedule), r.o.Verdict, r.s.MaxSteps)
		}
		r.wantErr(t, "spinner", apierrors.IsInvalid)
		r.wantField(t, "ConfigMap/default/cm1", "metadata.finalizers", nil)
	},
	"requeue.yaml": func(t *testing.T, r *exampleRun) {
		r.wantField(t, "ConfigMap/default/hot", "data.beats", "3")
		r.wantField(t, "ConfigMap/default/hot", "data.count", "1")
		r.wantStatus(t, "a", controller.Done)
		r.wantStats(t, "a", func(s controller.Stats) bool { return s.Requeues == 1 && s.Conflicts == 3 })
	},
}

func TestExampleOutcomes(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		base := filepath.Base(file)
		check, ok := exampleOutcomes[base]
		if !ok {
			t.Errorf("%s: no outcome check in exampleOutcomes", base)
			continue
		}
		t.Run(base, func(t *testing.T) {
			s, err := scenario.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			w, err := race.New(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Play(race.Schedule{}); err != nil {
				t.Fatal(err)
			}
			r := &exampleRun{w: w, s: s, o: w.Outcome()}
			check(t, r)
			if t.Failed() {
				var b strings.Builder
				_ = report.Text(&b, r.o)
				t.Log(b.String())
			}
		})
	}
}

type exampleRun struct {
	w *race.World
	s *scenario.Scenario
	o *race.Outcome
}

func (r *exampleRun) controller(t *testing.T, name string) race.ControllerResult {
	t.Helper()
	for _, c := range r.o.Controllers {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no controller %s", name)
	return race.ControllerResult{}
}

func (r *exampleRun) wantStatus(t *testing.T, name string, want controller.Status) {
	t.Helper()
	if got := r.controller(t, name).Status; got != want {
		t.Errorf("%s ended %s, want %s", name, got, want)
	}
}

// wantErr checks the last error the controller got, by its HTTP status.
func (r *exampleRun) wantErr(t *testing.T, name string, is func(error) bool) {
	t.Helper()
	for i := len(r.o.Steps) - 1; i >= 0; i-- {
		st := r.o.Steps[i]
		if st.Actor == name && st.Kind == "request" && !st.OK() {
			err := &apierrors.StatusError{}
			err.ErrStatus.Code = int32(st.Code)
			err.ErrStatus.Reason = metav1.StatusReason(st.Reason)
			err.ErrStatus.Message = st.Message
			if !is(err) {
				t.Errorf("%s's last error %d %s %q is not the expected one", name, st.Code, st.Reason, st.Message)
			}
			return
		}
	}
	t.Errorf("%s got no error", name)
}

func (r *exampleRun) wantStats(t *testing.T, name string, ok func(controller.Stats) bool) {
	t.Helper()
	if s := r.controller(t, name).Stats; !ok(s) {
		t.Errorf("%s stats %+v", name, s)
	}
}

func (r *exampleRun) wantField(t *testing.T, ref, path string, want any) {
	t.Helper()
	parts := strings.Split(ref, "/")
	obj := r.w.Object(api.Ref{Kind: api.Kind(parts[0]), Namespace: parts[1], Name: parts[2]})
	if obj == nil {
		t.Fatalf("%s does not exist", ref)
	}
	got, found := controller.MustPath(path).Get(obj.Object)
	if want == nil {
		if found {
			t.Errorf("%s %s = %v, want absent", ref, path, got)
		}
		return
	}
	if !found || !reflect.DeepEqual(got, want) {
		t.Errorf("%s %s = %v (%T), want %v (%T)", ref, path, got, got, want, want)
	}
}
