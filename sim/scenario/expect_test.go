package scenario

import (
	"strings"
	"testing"
)

// TestExpectations: `expectations: true` reads into the program, writes
// back, and is refused where it cannot mean anything.
func TestExpectations(t *testing.T) {
	data := ctrl(
		"- name: a",
		"  write: create",
		"  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: child-, labels: {app: web}}}",
		"  when: absent",
		"  expectations: true",
		"- name: u",
		"  target: ConfigMap/cm1",
		"  mutations: [{set: {path: data.x, value: a}}]",
		"  write: update",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Controllers[0].Program.Expectations || sc.Controllers[1].Program.Expectations {
		t.Fatalf("expectations read as %v, %v", sc.Controllers[0].Program.Expectations, sc.Controllers[1].Program.Expectations)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), "expectations: true") != 1 {
		t.Fatalf("marshalled:\n%s", out)
	}
	again, err := Parse("again.yaml", out)
	if err != nil || !again.Controllers[0].Program.Expectations {
		t.Fatalf("round trip: %v\n%s", err, out)
	}

	for _, tc := range []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		{"with read live", ctrl("- name: a", "  target: ConfigMap/cm1", "  read: live", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  expectations: true"),
			12, "controllers[0].expectations", "expectations wait for the Lister to see the controller's own write; read: live asks the server, which has seen it already"},
		{"not a boolean", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  expectations: yes please"),
			11, "controllers[0].expectations", "want true or false, got \"yes please\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantOneError(t, tc.data, tc.line, tc.field, tc.msg)
		})
	}
}
