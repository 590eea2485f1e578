package race_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestStepTranscripts drives a race one step at a time, the way etcd's raft
// interaction tests drive nodes: each command does one thing to the world
// and prints what changed, so a transcript reads as the race happens.
// Regenerate with: go test ./sim/race -run TestStepTranscripts -rewrite
//
// Commands:
//
//	scenario        the input is a scenario file (YAML); starts a world
//	step NAME       controller NAME takes its next step (a Lister read, a
//	                request, a backoff); prints the steps it produced
//	deliver NAME    NAME's informer applies its next watch event (a manual
//	                lag only; other informers get theirs on time)
//	object          the server's copy of the first controller's target
//	                (managedFields shown as their managers only)
//	caches          each informer's revision, its copy's resourceVersion
//	                and how many events it has not applied
//	enabled         the tokens that can be scheduled now
func TestStepTranscripts(t *testing.T) {
	datadriven.Walk(t, "testdata/steps", func(t *testing.T, path string) {
		var w *race.World
		seen := 0
		world := func(d *datadriven.TestData) *race.World {
			if w == nil {
				d.Fatalf(t, "no scenario yet")
			}
			return w
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "scenario":
				sc, err := scenario.Parse(d.Pos, []byte(d.Input))
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				if w, err = race.New(sc); err != nil {
					return "error: " + err.Error() + "\n"
				}
				seen = 0
				return "ok\n"
			case "step", "deliver":
				w := world(d)
				if len(d.CmdArgs) != 1 {
					d.Fatalf(t, "%s NAME", d.Cmd)
				}
				move := scenario.Step(d.CmdArgs[0].Key)
				if d.Cmd == "deliver" {
					move = scenario.Deliver(d.CmdArgs[0].Key)
				}
				if err := w.Step(move); err != nil {
					return "error: " + err.Error() + "\n"
				}
				steps := w.Outcome().Steps
				var b strings.Builder
				for _, s := range steps[seen:] {
					b.WriteString(stepLine(s))
				}
				seen = len(steps)
				if w.Done() {
					b.WriteString("every controller has finished\n")
				}
				return b.String()
			case "object":
				w := world(d)
				o := w.Object(w.Scenario().Controllers[0].Target)
				if o == nil {
					return "absent\n"
				}
				return objectYAML(t, o)
			case "caches":
				w := world(d)
				var b strings.Builder
				for _, c := range w.Caches(w.Scenario().Controllers[0].Target) {
					held := "none"
					if c.Object != nil {
						held = "RV " + c.Object.GetResourceVersion()
					}
					fmt.Fprintf(&b, "%s: at %d, holds %s, %d event(s) pending\n", c.Controller, c.RV, held, c.Pending)
				}
				return b.String()
			case "enabled":
				if e := world(d).Enabled(); len(e) > 0 {
					return strings.Join(scenario.Tokens(e), " ") + "\n"
				}
				return "nothing\n"
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

// stepLine is one step of the outcome, in the words of the timeline.
func stepLine(s race.Step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %dms %s %s", s.Index, s.AtMS, s.Actor, s.Kind)
	if s.Request != "" {
		b.WriteString(" " + s.Request)
	}
	if s.SentRV != "" {
		b.WriteString(" rv=" + s.SentRV)
	}
	if s.Event != "" {
		b.WriteString(" " + s.Event)
	}
	if s.Code != 0 {
		fmt.Fprintf(&b, " → %d", s.Code)
		if s.Reason != "" {
			b.WriteString(" " + s.Reason)
		}
	}
	if s.RV != "" {
		b.WriteString(" RV " + s.RV)
	}
	var caches []string
	for name, rv := range s.CacheRVs {
		caches = append(caches, fmt.Sprintf("%s=%d", name, rv))
	}
	sort.Strings(caches)
	fmt.Fprintf(&b, " · server %d · caches %s\n", s.ServerRV, strings.Join(caches, " "))
	return b.String()
}

// objectYAML prints o with its managedFields cut down to who manages it and
// how: the entries' field sets are the conformance test's business.
func objectYAML(t *testing.T, o *unstructured.Unstructured) string {
	o = o.DeepCopy()
	var managers []string
	for _, m := range o.GetManagedFields() {
		s := m.Manager + " " + string(m.Operation)
		if m.Subresource != "" {
			s += " /" + m.Subresource
		}
		managers = append(managers, s)
	}
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	y, err := yaml.Marshal(o.Object)
	if err != nil {
		t.Fatal(err)
	}
	return string(y) + "managers: " + strings.Join(managers, ", ") + "\n"
}
