package race

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A code controller's moves come from outside; the world takes each as a
// step of the schedule, records it in the timeline like any other, and
// judges the code by what its mutations say it means to change.

func codeWorld(t *testing.T, muts ...controller.Mutation) *World {
	t.Helper()
	you := prog("you", controller.Code, muts...)
	b := prog("b", controller.UpdateClearRV, set("data.b", "1"))
	w, err := New(twoWriters(configMap(map[string]any{"x": "1"}), you, b))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func offer(t *testing.T, w *World, kind controller.ActionKind, req api.Request) {
	t.Helper()
	if err := w.Offer("you", controller.Action{Kind: kind, Request: req, Purpose: "code.go:7"}); err != nil {
		t.Fatal(err)
	}
}

func TestCodeStepWithoutAnOfferIsRefused(t *testing.T) {
	w := codeWorld(t)
	err := w.Step(scenario.Step("you"))
	if err == nil || !strings.Contains(err.Error(), "played by Go code") {
		t.Fatalf("err = %v", err)
	}
	if len(w.Taken()) != 0 {
		t.Fatalf("a refused step was taken: %v", w.Taken())
	}
}

// The code reads its cache, b writes, the code writes back the whole copy
// it read without its resourceVersion: b's field is lost, erased by the
// code's write, and the code's own change is recorded where it made it.
func TestCodeStepsAreJudgedLikeAnyOther(t *testing.T) {
	w := codeWorld(t, set("data.you", "1"))
	offer(t, w, controller.ReadLister, api.Request{Verb: api.Get, Ref: cm1})
	if err := w.Step(scenario.Step("you")); err != nil {
		t.Fatal(err)
	}
	resp, ok := w.Answer("you")
	if !ok || resp.Object == nil {
		t.Fatalf("no answer: %+v", resp)
	}
	for _, m := range scenario.MustMoves("b", "b") {
		if err := w.Step(m); err != nil {
			t.Fatal(err)
		}
	}
	obj := resp.Object.DeepCopy() // the answer's objects are the world's
	obj.Object["data"].(map[string]any)["you"] = "1"
	obj.SetResourceVersion("")
	body, _ := json.Marshal(obj.Object)
	offer(t, w, controller.SendRequest, api.Request{Verb: api.Update, Ref: cm1, Body: body, FieldManager: "you"})
	if err := w.Step(scenario.Step("you")); err != nil {
		t.Fatal(err)
	}
	if resp, _ := w.Answer("you"); resp.Err != nil {
		t.Fatal(resp.Err)
	}
	if err := w.Return("you", controller.Returned{}); err != nil {
		t.Fatal(err)
	}
	o := w.Outcome()
	if o.Verdict != VerdictLost || len(o.Lost) != 1 || o.Lost[0].Field != "data.b" || o.Lost[0].ErasedBy != "you" {
		t.Fatalf("verdict %s, lost %v", o.Verdict, o.Lost)
	}
	last := o.Steps[len(o.Steps)-1]
	for last.Kind == StepWatch {
		o.Steps = o.Steps[:len(o.Steps)-1]
		last = o.Steps[len(o.Steps)-1]
	}
	if last.Actor != "you" || last.Purpose != "code.go:7" || last.HeldRV != "101" || last.Verb != api.Update {
		t.Fatalf("the code's write in the timeline: %+v", last)
	}
	if c := o.Controllers[0]; c.Write != string(controller.Code) || c.Status != controller.Done || c.Plan.String() != "set data.you=1 · code" {
		t.Fatalf("the code's result: %+v, plan %q", c, c.Plan.String())
	}
}

// A change the code meant to make and returned without making is lost.
func TestCodeThatReturnsWithoutItsChange(t *testing.T) {
	w := codeWorld(t, set("data.you", "1"))
	offer(t, w, controller.ReadLister, api.Request{Verb: api.Get, Ref: cm1})
	if err := w.Step(scenario.Step("you")); err != nil {
		t.Fatal(err)
	}
	if err := w.Return("you", controller.Returned{}); err != nil {
		t.Fatal(err)
	}
	o := w.Outcome()
	if o.Verdict != VerdictLost || len(o.Lost) != 1 || o.Lost[0].ErasedBy != "" ||
		o.Lost[0].Cause != (LossCause{Kind: CauseNotMade, Actor: "you"}) || w.Verdict() != VerdictLost {
		t.Fatalf("verdict %s, lost %+v", o.Verdict, o.Lost)
	}
}

// A reconcile that returns an error waits out the workqueue's backoff,
// which the timeline shows after its last step.
func TestCodeRequeueShowsAsAWait(t *testing.T) {
	you := prog("you", controller.Code)
	you.Requeue = controller.RequeuePolicy{Max: 1}
	w, err := New(twoWriters(configMap(nil), you, prog("b", controller.Update, set("data.b", "1"))))
	if err != nil {
		t.Fatal(err)
	}
	offer(t, w, controller.SendRequest, api.Request{Verb: api.Get, Ref: cm1})
	if err := w.Step(scenario.Step("you")); err != nil {
		t.Fatal(err)
	}
	if err := w.Return("you", controller.Returned{Requeue: true}); err != nil {
		t.Fatal(err)
	}
	o := w.Outcome()
	if len(o.Waits) != 1 || o.Waits[0].Kind != WaitRequeue || o.Waits[0].AfterStep != 0 || o.Waits[0].UntilMS != 5 {
		t.Fatalf("waits %+v", o.Waits)
	}
	if w.Finished("you") || len(w.Enabled()) != 2 {
		t.Fatalf("after a requeue it runs again: finished %v, enabled %v", w.Finished("you"), w.Enabled())
	}
}
