package race

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// Plan is what a controller was set to do, as a learner reads it before
// anything has happened: where it reads, what it changes, how it writes
// and retries. The race fills it from the scenario, so whoever shows an
// outcome (the race view, a lesson, the quiz) needs nothing else.
type Plan struct {
	Read controller.ReadSource `json:"read"`
	// ReadUnused: the request is built without the copy it reads (an
	// apply of values it sets, no resourceVersion): the read is there
	// because every controller reads, and nothing of it is sent.
	ReadUnused bool `json:"readUnused,omitempty"`
	// Expectations: it reads its Lister only once its cache has seen its
	// own last write (controller.Program.Expectations).
	Expectations bool `json:"expectations,omitempty"`
	// Changes are the mutations in words ("set data.owner=a").
	Changes []string               `json:"changes,omitempty"`
	Write   controller.WriteMethod `json:"write"`
	WithRV  bool                   `json:"withRV,omitempty"`
	Force   bool                   `json:"force,omitempty"`
	// Retry is the retry loop in words, empty when there is none.
	Retry string `json:"retry,omitempty"`
	// OnEvent is which watch events put its key back on its queue
	// (controller.Program.OnEvent); Worker the worker it shares with other
	// keys (scenario.Controller.Worker). Both empty for most races.
	OnEvent controller.EventFilter `json:"onEvent,omitempty"`
	Worker  string                 `json:"worker,omitempty"`
	// Then is the reconcile's second call in words ("then update /status
	// on the answer · set status.phase=Ready"), empty when there is none.
	Then string `json:"then,omitempty"`
}

// PlanOf is p's plan; the sandbox's builder shows it for a program that
// has not run yet.
func PlanOf(p controller.Program) Plan {
	pl := Plan{Read: p.Read, Expectations: p.Expectations, Write: p.Write, WithRV: p.WithRV, Force: p.Force, OnEvent: p.OnEvent}
	pl.ReadUnused = p.Write == controller.ServerSideApply && !p.WithRV
	for _, mu := range p.Mutations {
		pl.Changes = append(pl.Changes, mu.Describe())
		pl.ReadUnused = pl.ReadUnused && !mu.DependsOnRead()
	}
	if p.Write == controller.Code {
		// Code reads and retries as it is written: the plan is what it
		// means to change.
		pl.Read, pl.WithRV, pl.Force = "", false, false
		return pl
	}
	switch r := p.Retry; {
	case r.Unbounded:
		pl.Retry = "retry forever"
	case r.Attempts > 1:
		on := "Conflict"
		switch r.On {
		case controller.OnAnyError:
			on = "any error"
		case controller.OnTestFailed:
			on = "a failed test (422)"
		}
		reread := string(r.Reread)
		if reread == "" {
			reread = "nothing"
		}
		pl.Retry = fmt.Sprintf("retry on %s up to %d×, re-read %s", on, r.Attempts-1, reread)
	}
	if t := p.Then; t != nil {
		words := []string{"then update"}
		if t.Subresource != "" {
			words[0] += " /" + t.Subresource
		}
		words[0] += " on the answer"
		for _, mu := range t.Mutations {
			words = append(words, mu.Describe())
		}
		pl.Then = strings.Join(words, " · ")
	}
	return pl
}

// WriteWords is how the plan writes: "update", "merge-patch with RV",
// "apply (force)".
func (p Plan) WriteWords() string {
	w := string(p.Write)
	if p.WithRV {
		w += " with RV"
	}
	if p.Force {
		w += " (force)"
	}
	return w
}

// String is the plan in one line: "read lister · set data.owner=a ·
// update · retry on Conflict up to 4×, re-read live".
func (p Plan) String() string {
	var parts []string
	if p.Read != "" {
		read := "read " + string(p.Read)
		if p.ReadUnused {
			read += " (unused by the apply)"
		}
		if p.Expectations {
			read += " once it has seen its own write"
		}
		parts = append(parts, read)
	}
	parts = append(parts, p.Changes...)
	parts = append(parts, p.WriteWords())
	if p.Retry != "" {
		parts = append(parts, p.Retry)
	}
	switch p.OnEvent {
	case controller.EventsAny:
		parts = append(parts, "every event requeues")
	case controller.EventsGenerationChanged:
		parts = append(parts, "events requeue if generation changed")
	}
	if p.Worker != "" {
		parts = append(parts, "worker "+p.Worker)
	}
	if p.Then != "" {
		parts = append(parts, p.Then)
	}
	return strings.Join(parts, " · ")
}

// planWithWorker is the plan of a controller that shares a worker.
func planWithWorker(p Plan, worker string) Plan {
	p.Worker = worker
	return p
}

// clone gives each outcome its own Changes, so a caller that edits one
// (termsafe.Deep escapes in place) never edits the world's.
func (p Plan) clone() Plan {
	p.Changes = append([]string(nil), p.Changes...)
	return p
}
