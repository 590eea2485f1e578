package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/fakes"
)

// The tests link the fakes themselves, as a build with -tags fakes does
// (cli/fakes_linked.go): go test ./... tests --backend without the tag.
func init() { linkedFakes = fakes.Runner{} }

// A binary built without -tags fakes runs the simulator and says how to get
// the fakes.
func TestSimBackendWithoutTheFakesLinked(t *testing.T) {
	saved := linkedFakes
	linkedFakes = nil
	t.Cleanup(func() { linkedFakes = saved })
	code, _, errs := run(t, false, "sim", "--example", "lost-update-conditional", "--backend", "client-go-fake")
	if code != ExitUsage || !strings.Contains(errs, "built without the fake client libraries") || !strings.Contains(errs, "go run -tags fakes . sim --backend client-go-fake") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, out, errs := run(t, false, "sim", "--example", "lost-update-conditional", "--backend", "sim")
	if code != ExitOK || !strings.Contains(out, "outcome: gave-up") {
		t.Errorf("--backend sim without the fakes: exit %d, %s\n%s", code, errs, out)
	}
}

// sim --backend runs the race on a fake client library: client-go's fake
// takes b's stale PUT (it has no resourceVersions), so a's field is lost
// where the simulator answers 409.
func TestSimOnAFakeBackend(t *testing.T) {
	verdicts := map[string]string{"sim": "gave-up", "client-go-fake": "lost", "client-go-clientset": "lost", "controller-runtime-fake": "gave-up"}
	for backend, want := range verdicts {
		code, out, errs := run(t, false, "sim", "--example", "lost-update-conditional", "--backend", backend, "-o", "json")
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", backend, code, errs)
		}
		var o struct {
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		if o.Verdict != want {
			t.Errorf("--backend %s: verdict %q, want %q", backend, o.Verdict, want)
		}
	}
}

// A schedule step a fake cannot take is skipped and said on stderr.
func TestSimOnAFakeSaysWhatItSkipped(t *testing.T) {
	code, out, errs := run(t, false, "sim", "--example", "retry-live-get", "--backend", "client-go-fake")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "client-go-fake: schedule step 5 (b) skipped: it had finished") || !strings.Contains(out, "outcome: lost") {
		t.Errorf("stderr %q\nstdout:\n%s", errs, out)
	}
}

func TestSimBackendAllPrintsWhereTheyDiverge(t *testing.T) {
	code, out, errs := run(t, false, "sim", "--example", "lost-update-conditional", "--backend", "all")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"sim", "client-go-fake", "client-go-clientset", "controller-runtime-fake",
		"b UPDATE cm1 409 Conflict", "b UPDATE cm1 200 ≠", "client-go-fake diverges from sim:", "controller-runtime-fake: ran the race as sim did"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = run(t, false, "sim", "--example", "lost-update-conditional", "--backend", "all", "-o", "json")
	if code != ExitOK {
		t.Fatalf("json: exit %d: %s", code, errs)
	}
	var c struct {
		Runs []struct {
			Backend string `json:"backend"`
		} `json:"runs"`
		Divergences []struct {
			Backend   string `json:"backend"`
			FirstStep int    `json:"firstStep"`
		} `json:"divergences"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 4 || len(c.Divergences) != 3 || c.Divergences[0].Backend != "client-go-fake" || c.Divergences[0].FirstStep != 4 {
		t.Errorf("%+v", c)
	}
}

func TestSimBackendUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "envtest"}, `no backend "envtest"`},
		{[]string{"--backend", "all", "-o", "markdown"}, "--backend all prints a comparison"},
		{[]string{"--backend", "client-go-fake", "--live"}, "--backend and --live"},
		{[]string{"--backend", "client-go-fake", "--schedule", "a,zed"}, `--schedule: step 2: schedule: no controller "zed"`},
	} {
		args := append([]string{"sim", "--example", "lost-update-conditional"}, tc.args...)
		code, _, errs := run(t, false, args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, ExitUsage, tc.want)
		}
	}
}
