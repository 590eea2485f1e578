package scenario

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// TestQueueFields: onEvent and worker read into the controller, write
// back, and are refused where they cannot mean anything.
func TestQueueFields(t *testing.T) {
	data := ctrl(
		"- name: a",               // 7
		"  target: ConfigMap/cm1", // 8
		"  mutations: [{set: {path: data.x, value: a}}]", // 9
		"  write: update",               // 10
		"  onEvent: generation-changed", // 11
		"  worker: w1",                  // 12
		"- name: b",                     // 13
		"  target: ConfigMap/cm1",       // 14
		"  mutations: [{set: {path: data.y, value: b}}]", // 15
		"  write: update", // 16
		"  worker: w1",    // 17
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sc.Controllers[0], sc.Controllers[1]
	if a.OnEvent != controller.EventsGenerationChanged || b.OnEvent != controller.EventsNone || a.Worker != "w1" || b.Worker != "w1" {
		t.Fatalf("read as onEvent %q/%q, worker %q/%q", a.OnEvent, b.OnEvent, a.Worker, b.Worker)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), "onEvent: generation-changed") != 1 || strings.Count(string(out), "worker: w1") != 2 {
		t.Fatalf("marshalled:\n%s", out)
	}
	again, err := Parse("again.yaml", out)
	if err != nil || again.Controllers[0].OnEvent != a.OnEvent || again.Controllers[1].Worker != "w1" {
		t.Fatalf("round trip: %v\n%s", err, out)
	}

	one := []string{"- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update"}
	with := func(lines ...string) []byte { return ctrl(append(append([]string{}, one...), lines...)...) }
	for _, tc := range []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		{"unknown filter", with("  onEvent: sometimes"), 11, "controllers[0].onEvent", `unknown event filter "sometimes" (want any or generation-changed)`},
		{"manual lag", append([]byte("lag: manual\n"), with("  onEvent: any")...), 12, "controllers[0].onEvent",
			"onEvent needs an informer lag that is a duration (0, 5ms…), not manual: the event brings the key back when it reaches the cache"},
		{"a worker of one", with("  worker: w1"), 11, "controllers[0].worker",
			`worker "w1" is shared with no other controller: give two or more controllers the same worker (one controller's keys), or leave it out`},
		{"a worker name with a space", with("  worker: w 1"), 11, "controllers[0].worker", `worker "w 1": use letters, digits and dashes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantOneError(t, tc.data, tc.line, tc.field, tc.msg)
		})
	}
}
