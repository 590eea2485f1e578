package draft

import (
	"fmt"
	"strings"
	"time"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Choice is one value of a setting and what it means, in one line.
type Choice struct {
	Value   string
	Explain string
}

// Setting is one thing the editor lets the learner choose for a
// controller's reads and writes. These are the settings a "fix it"
// challenge may change; what the controllers change (their mutations)
// and the object stay as the challenge set them.
type Setting struct {
	Key   string
	Label string
	// Free settings take typed text (the field manager); the others cycle
	// through Choices.
	Free    bool
	choices []Choice
	get     func(sc *scenario.Scenario, i int) string
	set     func(sc *scenario.Scenario, i int, v string) error
	// shown, when set, hides the setting where it means nothing (withRV
	// on an update).
	shown func(p controller.Program) bool
}

var writeExplain = map[controller.WriteMethod]string{
	controller.Update:          "PUT of the whole object with the RV it read: 409 if the object changed since",
	controller.UpdateClearRV:   "PUT of the whole object with the RV removed: overwrites whatever is there",
	controller.UpdateStatus:    "PUT to /status with the RV it read: changes only status (409 if stale); client-go's UpdateStatus",
	controller.MergePatch:      "JSON merge patch of what it changed: lists are replaced whole; no RV unless withRV",
	controller.StrategicPatch:  "strategic merge patch: lists like finalizers are merged (built-in kinds only)",
	controller.JSONPatch:       "JSON patch (RFC 6902) of what it changed: conditional only with withRV or test",
	controller.ServerSideApply: "server-side apply of the fields it sets: 409 when another manager owns one",
}

func retryName(r controller.RetryPolicy) string {
	if n, ok := controller.RetryPresetOf(r); ok {
		return n
	}
	on := "409"
	if r.On == controller.OnAnyError {
		on = "any error"
	}
	return fmt.Sprintf("custom: %d attempts on %s, re-read %s, %s apart", r.Attempts, on, r.Reread, r.Backoff)
}

var lagChoices = []Choice{
	{"0", "watch events reach its cache at once"},
	{"5ms", "its cache lags 5ms of virtual time (each step takes 1ms)"},
	{"1s", "its cache lags a second: stale for the whole race"},
	{"manual", "its cache moves only when you deliver an event (shift+its number)"},
}

func lagName(l scenario.Lag) string {
	if l.Manual {
		return "manual"
	}
	if l.Delay == 0 {
		return "0"
	}
	return l.Delay.String()
}

func prog(sc *scenario.Scenario, i int) *controller.Program { return &sc.Controllers[i].Program }

// Settings are the editable settings of a controller, in the editor's order.
var Settings = []Setting{
	{Key: "read", Label: "read",
		choices: []Choice{
			{string(controller.FromLister), "its informer's cache: no request, and possibly stale"},
			{string(controller.FromLive), "a GET to the API server: one request, and current"}},
		get: func(sc *scenario.Scenario, i int) string { return string(prog(sc, i).Read) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			prog(sc, i).Read = controller.ReadSource(v)
			return nil
		}},
	{Key: "write", Label: "write",
		choices: func() []Choice {
			var out []Choice
			for _, w := range controller.WriteMethods {
				out = append(out, Choice{string(w), writeExplain[w]})
			}
			return out
		}(),
		get: func(sc *scenario.Scenario, i int) string { return string(prog(sc, i).Write) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			p := prog(sc, i)
			p.Write = controller.WriteMethod(v)
			if p.Write == controller.UpdateStatus {
				p.Subresource = "" // update-status is the PUT to /status
			}
			// The options of the old method mean nothing to the new one
			// (and the file format refuses them).
			if !p.Write.IsPatch() {
				p.WithRV = false
			}
			if p.Write != controller.JSONPatch {
				p.Test = controller.TestNone
			}
			if p.Write != controller.ServerSideApply {
				p.Force = false
			}
			return nil
		}},
	{Key: "to", Label: "write to",
		choices: []Choice{
			{"object", "the object itself: where spec, labels and finalizers are written (a status sent here is ignored)"},
			{"status", "its /status subresource: the status is written, the spec and labels sent are ignored"}},
		get: func(sc *scenario.Scenario, i int) string {
			if prog(sc, i).WriteSubresource() == controller.StatusSubresource {
				return "status"
			}
			return "object"
		},
		set: func(sc *scenario.Scenario, i int, v string) error {
			prog(sc, i).Subresource = strings.TrimPrefix(v, "object")
			return nil
		},
		// update-status is the PUT to /status already; a create or a
		// delete goes to the object.
		shown: func(p controller.Program) bool {
			info, _ := api.Lookup(p.Target.Kind)
			return info.StatusSubresource && p.Write != controller.UpdateStatus && !p.Write.IsLifecycle()
		}},
	{Key: "withRV", Label: "with RV",
		choices: []Choice{
			{"no", "the patch carries no resourceVersion: it applies to whatever is there"},
			{"yes", "the patch carries the RV it read: 409 if the object changed since"}},
		get: func(sc *scenario.Scenario, i int) string { return yesNo(prog(sc, i).WithRV) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			prog(sc, i).WithRV = v == "yes"
			return nil
		},
		shown: func(p controller.Program) bool { return p.Write.IsPatch() }},
	{Key: "test", Label: "test",
		choices: []Choice{
			{"none", "no test operations: the patch applies to whatever is there"},
			{string(controller.TestRV), "first test the RV it read: 422 if the object changed since"},
			{string(controller.TestValues), "test each old value before replacing it: 422 if it changed"}},
		get: func(sc *scenario.Scenario, i int) string {
			if t := prog(sc, i).Test; t != controller.TestNone {
				return string(t)
			}
			return "none"
		},
		set: func(sc *scenario.Scenario, i int, v string) error {
			prog(sc, i).Test = controller.TestMode(strings.TrimPrefix(v, "none"))
			return nil
		},
		shown: func(p controller.Program) bool { return p.Write == controller.JSONPatch }},
	{Key: "fieldManager", Label: "field manager", Free: true,
		get: func(sc *scenario.Scenario, i int) string { return prog(sc, i).Manager() },
		set: func(sc *scenario.Scenario, i int, v string) error {
			v = strings.TrimSpace(v)
			if v == "" {
				return fmt.Errorf("a field manager needs a name")
			}
			p := prog(sc, i)
			p.FieldManager = v
			if v == p.Name {
				p.FieldManager = ""
			}
			return nil
		},
		shown: func(p controller.Program) bool { return p.Write == controller.ServerSideApply }},
	{Key: "force", Label: "force",
		choices: []Choice{
			{"no", "a field another manager owns gives 409 Conflict, naming the owner"},
			{"yes", "take ownership of contested fields instead of 409"}},
		get: func(sc *scenario.Scenario, i int) string { return yesNo(prog(sc, i).Force) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			prog(sc, i).Force = v == "yes"
			return nil
		},
		shown: func(p controller.Program) bool { return p.Write == controller.ServerSideApply }},
	{Key: "retry", Label: "retry",
		choices: func() []Choice {
			var out []Choice
			for _, p := range controller.RetryPresets {
				out = append(out, Choice{p.Name, p.Explain})
			}
			return out
		}(),
		get: func(sc *scenario.Scenario, i int) string { return retryName(prog(sc, i).Retry) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			r, err := controller.RetryPresetNamed(v)
			if err != nil {
				return err
			}
			prog(sc, i).Retry = r
			return nil
		}},
	{Key: "requeue", Label: "requeue",
		choices: []Choice{
			{"none", "when the retries are spent, the change is dropped"},
			{"1", "back to the workqueue once (after 5ms), then dropped"},
			{"3", "back to the workqueue up to 3 times, 5ms, 10ms, 20ms later"}},
		get: func(sc *scenario.Scenario, i int) string {
			q := prog(sc, i).Requeue
			switch {
			case q == (controller.RequeuePolicy{}):
				return "none"
			case q.BaseDelay == 0:
				return fmt.Sprint(q.Max)
			}
			return fmt.Sprintf("custom: %d after %s", q.Max, q.BaseDelay)
		},
		set: func(sc *scenario.Scenario, i int, v string) error {
			q := controller.RequeuePolicy{}
			if v != "none" {
				fmt.Sscan(v, &q.Max)
			}
			prog(sc, i).Requeue = q
			return nil
		}},
	{Key: "reconciles", Label: "reconciles",
		choices: []Choice{
			{"1", "it reconciles once"},
			{"2", "it reconciles twice: a busy controller writes again"},
			{"3", "it reconciles three times"}},
		get: func(sc *scenario.Scenario, i int) string { return fmt.Sprint(max(1, prog(sc, i).Reconciles)) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			fmt.Sscan(v, &prog(sc, i).Reconciles)
			return nil
		}},
	{Key: "lag", Label: "informer lag", choices: lagChoices,
		get: func(sc *scenario.Scenario, i int) string { return lagName(sc.LagOf(i)) },
		set: func(sc *scenario.Scenario, i int, v string) error {
			l := scenario.Lag{Manual: v == "manual"}
			if !l.Manual && v != "0" {
				d, err := time.ParseDuration(v)
				if err != nil {
					return fmt.Errorf("lag %q: %v", v, err)
				}
				l.Delay = d
			}
			sc.Controllers[i].Lag = &l
			return nil
		}},
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Lookup finds a setting by key.
func Lookup(key string) (Setting, bool) {
	for _, s := range Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Shown reports whether the setting means anything for controller i.
func (s Setting) Shown(sc *scenario.Scenario, i int) bool {
	return s.shown == nil || s.shown(sc.Controllers[i].Program)
}

// Get is the setting's value for controller i.
func (s Setting) Get(sc *scenario.Scenario, i int) string { return s.get(sc, i) }

// Set changes the setting of controller i.
func (s Setting) Set(sc *scenario.Scenario, i int, v string) error {
	if !s.Free {
		ok := false
		for _, c := range s.choices {
			ok = ok || c.Value == v
		}
		if !ok {
			return fmt.Errorf("%s: %q is not one of the choices", s.Key, v)
		}
	}
	return s.set(sc, i, v)
}

// Choices are the values the setting cycles through; a value that came
// from a file and is not among them comes first, so that it can be kept.
func (s Setting) Choices(sc *scenario.Scenario, i int) []Choice {
	cur := s.Get(sc, i)
	for _, c := range s.choices {
		if c.Value == cur {
			return s.choices
		}
	}
	return append([]Choice{{cur, "as the file set it"}}, s.choices...)
}

// Explain is the one-line meaning of the setting's current value.
func (s Setting) Explain(sc *scenario.Scenario, i int) string {
	if s.Free {
		return "the name its writes are recorded under in managedFields; two controllers with one name share their fields"
	}
	cur := s.Get(sc, i)
	for _, c := range s.Choices(sc, i) {
		if c.Value == cur {
			return c.Explain
		}
	}
	return ""
}

// Cycle moves the setting of controller i to the next (or previous) choice.
func (s Setting) Cycle(sc *scenario.Scenario, i, delta int) error {
	ch := s.Choices(sc, i)
	cur := s.Get(sc, i)
	at := 0
	for k, c := range ch {
		if c.Value == cur {
			at = k
		}
	}
	next := ch[((at+delta)%len(ch)+len(ch))%len(ch)]
	if next.Value == cur {
		return nil
	}
	return s.set(sc, i, next.Value)
}

// Change is one setting two races differ in.
type Change struct {
	Controller, Key, From, To string
}

func (c Change) String() string {
	return fmt.Sprintf("%s.%s: %s → %s", c.Controller, c.Key, c.From, c.To)
}

// Diff lists the settings in which race b differs from race a, controller
// by controller (the races have the same controllers: a fix challenge
// never adds, removes or renames one). Settings hidden in both races are
// not compared: a merge patch's withRV means nothing once it is an update.
func Diff(a, b *scenario.Scenario) []Change {
	var out []Change
	for i := range b.Controllers {
		if i >= len(a.Controllers) {
			break
		}
		for _, s := range Settings {
			if !s.Shown(a, i) && !s.Shown(b, i) {
				continue
			}
			if x, y := s.Get(a, i), s.Get(b, i); x != y {
				out = append(out, Change{Controller: b.Controllers[i].Name, Key: s.Key, From: x, To: y})
			}
		}
	}
	return out
}

// SameRace reports whether b races the same object with the same
// controllers making the same changes as a: all that a fix challenge
// forbids touching.
func SameRace(a, b *scenario.Scenario) bool {
	if len(a.Controllers) != len(b.Controllers) || len(a.Objects) != len(b.Objects) {
		return false
	}
	for i := range a.Objects {
		if !jsonEqual(a.Objects[i].Object, b.Objects[i].Object) {
			return false
		}
	}
	for i := range a.Controllers {
		x, y := a.Controllers[i], b.Controllers[i]
		if x.Name != y.Name || x.Target != y.Target || len(x.Mutations) != len(y.Mutations) {
			return false
		}
		for k := range x.Mutations {
			if FormatMutation(x.Mutations[k]) != FormatMutation(y.Mutations[k]) {
				return false
			}
		}
	}
	return true
}

// Apply sets "controller.key=value" (as challenge solutions write them).
func Apply(sc *scenario.Scenario, assignment string) error {
	lhs, v, ok := strings.Cut(assignment, "=")
	name, key, ok2 := strings.Cut(lhs, ".")
	if !ok || !ok2 {
		return fmt.Errorf("%q: want CONTROLLER.SETTING=VALUE", assignment)
	}
	i := index(sc, name)
	if i < 0 {
		return fmt.Errorf("%q: no controller %s", assignment, name)
	}
	s, found := Lookup(key)
	if !found {
		return fmt.Errorf("%q: no setting %s", assignment, key)
	}
	return s.Set(sc, i, v)
}

// PlanLine is a controller in one line, as the editor writes it: its
// read, its changes as they are typed, its write (with its options and
// where it goes), its retry and requeue: "read lister · add-finalizer
// example.com/a · merge-patch with RV to /status · retry default".
func PlanLine(p controller.Program) string {
	parts := []string{"read " + string(p.Read)}
	if p.Expectations {
		parts[0] += " once it has seen its own write"
	}
	for _, mu := range p.Mutations {
		parts = append(parts, FormatMutation(mu))
	}
	if p.Body != nil {
		parts = append(parts, "a hand-written body")
	}
	write := string(p.Write)
	if p.WithRV {
		write += " with RV"
	}
	if p.Test != controller.TestNone {
		write += " testing " + string(p.Test)
	}
	if p.Force {
		write += " (force)"
	}
	if p.Subresource == controller.StatusSubresource {
		write += " to /status"
	}
	parts = append(parts, write)
	if r := p.Retry; r.Attempts > 1 || r.Unbounded {
		parts = append(parts, "retry "+retryName(r))
	}
	if p.Requeue.Max > 0 {
		parts = append(parts, fmt.Sprintf("requeue %d", p.Requeue.Max))
	}
	if p.Reconciles > 1 {
		parts = append(parts, fmt.Sprintf("reconciles %d", p.Reconciles))
	}
	return strings.Join(parts, " · ")
}
