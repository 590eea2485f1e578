package scenario

import "testing"

// TestUnknownAliasLine: yaml.v3 names no line for an alias to an anchor
// that does not exist; the message points at the alias itself.
func TestUnknownAliasLine(t *testing.T) {
	onlyErr := func(data []byte, want string) {
		t.Helper()
		_, err := Parse("race.yaml", data)
		if err == nil || err.Error() != want {
			t.Fatalf("\n got: %v\nwant: %s", err, want)
		}
	}
	onlyErr(top("name: t", "# a comment with *nope in it", "description: '*nope'", "lag: *nope"),
		"race.yaml:4: YAML: unknown anchor 'nope' referenced")
	onlyErr(objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: &x1 c, labels: {a: *x1}}",
		"  data:", "    b: \"*x\"", "    c: [*x1,*x]"),
		"race.yaml:8: YAML: unknown anchor 'x' referenced")
}
