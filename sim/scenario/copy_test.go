package scenario

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

const copyScenario = `name: copy
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: ctl
  target: Widget/w1
  mutations:
  - copy: {from: metadata.generation, path: status.observedGeneration}
    when: {path: spec.size, equals: 1}
  write: update
  subresource: status
`

// copy parses into a Copy mutation, and Marshal writes it back the same.
func TestCopyMutationRoundTrip(t *testing.T) {
	sc, err := Parse("copy.yaml", []byte(copyScenario))
	if err != nil {
		t.Fatal(err)
	}
	mu := sc.Controllers[0].Mutations[0]
	if mu.Op != controller.Copy || mu.From.String() != "metadata.generation" || mu.Path.String() != "status.observedGeneration" || mu.When == nil {
		t.Fatalf("parsed %+v", mu)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "copy: {from: metadata.generation, path: status.observedGeneration}") {
		t.Errorf("marshalled:\n%s", out)
	}
	again, err := Parse("again.yaml", out)
	if err != nil {
		t.Fatal(err)
	}
	if m := again.Controllers[0].Mutations[0]; m.Op != controller.Copy || m.From.String() != mu.From.String() || m.Path.String() != mu.Path.String() {
		t.Errorf("round trip: %+v", m)
	}
}

func TestCopyMutationErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"{path: status.observedGeneration}", `missing required field "from"`},
		{"{from: metadata.generation}", `missing required field "path"`},
		{"{from: metadata.generation, path: status.x, value: 1}", `unknown field "value"`},
		{"{from: 'a..b', path: status.x}", "controllers[0].mutations[0].copy.from"},
	} {
		src := strings.Replace(copyScenario, "{from: metadata.generation, path: status.observedGeneration}", tc.body, 1)
		_, err := Parse("bad.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}
