package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const doubleCreate = "../lessons/course/scenarios/ryw-double-create.yaml"

// A race that loses nothing but breaks its scenario's invariant says so
// under the verdict, with the objects it counted; in an order where the
// invariant holds, the output does not mention it.
func TestSimTextWarnsOfABrokenInvariant(t *testing.T) {
	code, out, errs := run(t, false, "sim", "-f", doubleCreate)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"outcome: no-loss\n  ⚠ invariant broken: 2 ConfigMaps match app=web (want 1): the parent needs exactly one child\n      matching: web-",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errs = run(t, false, "sim", "-f", doubleCreate, "--schedule", "c,c,c.cache,c")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "outcome: no-loss") || strings.Contains(out, "invariant") || strings.Contains(out, "⚠") {
		t.Errorf("a race that meets its invariant mentions it:\n%s", out)
	}

	code, out, errs = run(t, false, "sim", "-f", doubleCreate, "-o", "markdown")
	if code != ExitOK || !strings.Contains(out, "Note over API: invariant broken — 2 ConfigMaps match app=web (want 1)") {
		t.Errorf("exit %d, markdown without the broken invariant:\n%s%s", code, out, errs)
	}
}

func TestSimJSONCarriesInvariants(t *testing.T) {
	code, out, errs := run(t, false, "sim", "-f", "../lessons/course/scenarios/del-recreate.yaml", "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var o struct {
		Verdict    string `json:"verdict"`
		Invariants []struct {
			Name string `json:"name"`
			Want int    `json:"want"`
			Got  int    `json:"got"`
			Met  bool   `json:"met"`
			Why  string `json:"why"`
		} `json:"invariants"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Verdict != "no-loss" || len(o.Invariants) != 1 {
		t.Fatalf("%+v", o)
	}
	if r := o.Invariants[0]; r.Name != "cm1" || r.Want != 1 || r.Got != 0 || r.Met || r.Why != "maker's new cm1 must survive" {
		t.Errorf("invariant %+v", r)
	}
}

// A malformed invariant is refused like any other error of the file:
// exit 1, the file, the line and the field.
func TestSimRefusesABadInvariant(t *testing.T) {
	data, err := os.ReadFile(doubleCreate)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "{selector: app=web, is: 1}", "{selector: app=web, is: -1}", 1)
	if text == string(data) {
		t.Fatal("the scenario no longer declares {selector: app=web, is: 1}")
	}
	path := filepath.Join(t.TempDir(), "race.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(text[:strings.Index(text, "is: -1")], "\n")
	code, _, errs := run(t, false, "sim", "-f", path)
	want := path + ":" + strconv.Itoa(line) + ": invariants[0].objects.is: must be at least 0, not -1"
	if code != ExitInvalid || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, ExitInvalid, want)
	}
}
