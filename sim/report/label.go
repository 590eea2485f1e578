package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
)

// This file names requests and answers the way a learner says them. The
// CLI timeline and the terminal UI both call it, so the two never name
// the same write differently.

// Method names a request's kind of write: "UPDATE", "UPDATE /status",
// "PATCH merge", "PATCH smp", "PATCH json", "APPLY", "APPLY force", "GET".
// The media type is what the server sees; the patch kind is what a
// learner chooses between.
func Method(s race.Step) string {
	if s.Kind == race.StepLister {
		return "lister"
	}
	verb := string(s.Verb)
	switch types.PatchType(s.PatchType) {
	case api.MergePatch:
		verb += " merge"
	case api.StrategicPatch:
		verb += " smp"
	case api.JSONPatch:
		verb += " json"
	case api.ApplyPatch:
		verb = "APPLY"
		if s.Force {
			verb += " force"
		}
	}
	if s.Subresource != "" {
		verb += " /" + s.Subresource
	}
	return verb
}

// Precondition is the resourceVersion a write carried: "rv 102", "no rv",
// "test" for a JSON patch whose test op checks something else; "" for
// reads and for apply, which has none unless its body names one.
func Precondition(s race.Step) string {
	switch {
	case s.Kind != race.StepRequest || s.Verb == api.Get || s.Verb == api.List || s.Verb == api.Create:
		return ""
	case s.Verb == api.Delete:
		return deletePrecondition(s)
	case s.SentRV != "":
		return "rv " + s.SentRV
	case types.PatchType(s.PatchType) == api.JSONPatch && strings.Contains(string(s.Body), `"op":"test"`):
		return "test"
	case types.PatchType(s.PatchType) == api.ApplyPatch:
		return ""
	}
	return "no rv"
}

// Object is the name of the object a request went to.
func Object(s race.Step) string {
	f := strings.Fields(s.Request)
	if len(f) == 0 {
		return ""
	}
	name, _, _ := strings.Cut(f[len(f)-1], "/")
	return name
}

// Answer is the short form of a step's result: "200 → RV 102" for a
// write, "200 · RV 101" for a read (nothing was written), "409 Conflict".
func Answer(s race.Step) string {
	switch s.Kind {
	case race.StepWatch:
		return s.Event
	case race.StepLister:
		switch {
		case s.Code != 200:
			return "not in cache"
		case s.Verb == api.List:
			return listed(s) + " in cache"
		}
		return "cached RV " + s.RV
	}
	if s.OK() {
		switch {
		case s.Verb == api.List:
			return fmt.Sprintf("%d · %s listed", s.Code, listed(s))
		case s.Verb == api.Get:
			return fmt.Sprintf("%d · RV %s", s.Code, s.RV)
		case s.Version < 0:
			return fmt.Sprintf("%d no-op (RV %s)", s.Code, s.RV)
		}
		return fmt.Sprintf("%d → RV %s", s.Code, s.RV)
	}
	return fmt.Sprintf("%d %s", s.Code, s.Reason)
}

// Call is the short form of a step's request: "UPDATE cm1 rv 101",
// "PATCH merge cm1 no rv", "APPLY force cm1", "UPDATE /status w1 no rv".
func Call(s race.Step) string {
	switch s.Kind {
	case race.StepWatch:
		return "⇣ cache ← " + s.Event + QueueNote(s)
	case race.StepLister:
		return "Lister → " + Answer(s)
	}
	c := Method(s) + " " + Object(s)
	if p := Precondition(s); p != "" {
		c += " " + p
	}
	return c
}

// QueueNote is what a watch event did to the key of a controller whose
// events bring its key back: " · queued", " · filtered" (by its
// predicate), or "".
func QueueNote(s race.Step) string {
	switch s.Queue {
	case race.QueueQueued:
		return " · queued"
	case race.QueueFiltered:
		return " · filtered"
	}
	return ""
}

// deletePrecondition names what a DELETE's options required: "rv 102",
// "uid", "uid rv 102", or nothing.
func deletePrecondition(s race.Step) string {
	var opts struct {
		Preconditions struct {
			UID string `json:"uid"`
		} `json:"preconditions"`
	}
	_ = json.Unmarshal(s.Body, &opts)
	var parts []string
	if opts.Preconditions.UID != "" {
		parts = append(parts, "uid")
	}
	if s.SentRV != "" {
		parts = append(parts, "rv "+s.SentRV)
	}
	return strings.Join(parts, " ")
}

// listed is how many of the objects a create looked for it found.
func listed(s race.Step) string {
	if s.Listed == 0 {
		return "none"
	}
	return fmt.Sprint(s.Listed)
}
