package scenario

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// TestCodeController: `write: code` reads with or without mutations,
// keeps its workqueue settings, writes back, and refuses what only a
// controller written as data has.
func TestCodeController(t *testing.T) {
	data := ctrl(
		"- name: you",
		"  target: ConfigMap/cm1",
		"  write: code",
		"  requeue: {max: 2}",
		"- name: plain",
		"  target: ConfigMap/cm1",
		"  write: code",
		"  mutations: [{addFinalizer: example.com/you}]",
		"  lag: manual",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	you, plain := sc.Controllers[0].Program, sc.Controllers[1].Program
	if you.Write != controller.Code || len(you.Mutations) != 0 || you.Requeue.Max != 2 || len(plain.Mutations) != 1 {
		t.Fatalf("read as %+v and %+v", you, plain)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "read:") || strings.Contains(string(out), "retry") || strings.Count(string(out), "write: code") != 2 {
		t.Fatalf("marshalled:\n%s", out)
	}
	again, err := Parse("again.yaml", out)
	if err != nil || again.Controllers[0].Write != controller.Code || len(again.Controllers[1].Mutations) != 1 {
		t.Fatalf("round trip: %v\n%s", err, out)
	}
	for _, field := range []string{"read: live", "retry: default", "withRV: true", "body: {data: {x: y}}", "expectations: true"} {
		_, err := Parse("race.yaml", ctrl("- name: you", "  target: ConfigMap/cm1", "  write: code", "  "+field))
		key := strings.SplitN(field, ":", 2)[0]
		if err == nil || !strings.Contains(err.Error(), "controllers[0]."+key+": "+key+" does not apply to write: code") {
			t.Errorf("%s: %v", field, err)
		}
	}
}
