package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestLiveFlagsNeedLive(t *testing.T) {
	code, _, errs := run(t, false, "sim", "-f", lostUpdate, "--namespace", "x")
	if code != ExitUsage || !strings.Contains(errs, "--namespace only applies with --live") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestLiveNoCluster(t *testing.T) {
	code, _, errs := run(t, false, "sim", "-f", lostUpdate, "--live", "--kubeconfig", t.TempDir()+"/none")
	if code != ExitLive || !strings.Contains(errs, "kubeconfig") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestLiveRun runs a race on a real API server (CONFLICTLAB_APISERVER, as
// envtest/envtest.sh run sets it) and checks it ends as the simulator says.
func TestLiveRun(t *testing.T) {
	kc := os.Getenv("CONFLICTLAB_APISERVER")
	if kc == "" {
		t.Skip("needs a real API server: envtest/envtest.sh run -- go test ./cli/ -run Live -v")
	}
	_, simOut, _ := run(t, false, "sim", "-f", lostUpdate, "-o", "json")
	code, liveOut, errs := run(t, false, "sim", "-f", lostUpdate, "--live", "--kubeconfig", kc, "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"live: server https://", "created namespace conflictlab-lost-update-", "deleted namespace"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	var s, l struct {
		Verdict  string   `json:"verdict"`
		Schedule []string `json:"schedule"`
	}
	if err := json.Unmarshal([]byte(simOut), &s); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(liveOut), &l); err != nil {
		t.Fatal(err)
	}
	if s.Verdict != l.Verdict || strings.Join(s.Schedule, ",") != strings.Join(l.Schedule, ",") {
		t.Fatalf("sim %+v, live %+v", s, l)
	}
}
