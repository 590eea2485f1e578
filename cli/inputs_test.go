package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inputCommands are every command that reads a file the user names, with
// that file's place in the command line.
func inputCommands(path string) [][]string {
	return [][]string{
		{"sim", "-f", path},
		{"explore", "-f", path},
		{"sandbox", "-f", path},
		{"progress", "import", path},
		{"lessons", "validate", path},
		{"lessons", "list", path},
		{"--lessons", path},
	}
}

// TestMissingFileSameExitCodeEverywhere: a file that is not there is exit
// 1 (the input cannot be used) in every command, with its path; progress
// import said 2.
func TestMissingFileSameExitCodeEverywhere(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	for _, args := range inputCommands(missing) {
		code, _, errs := runState(t, t.TempDir(), "", args...)
		if code != ExitInvalid || !strings.Contains(errs, missing) {
			t.Errorf("%s: exit %d (want %d): %s", strings.Join(args, " "), code, ExitInvalid, errs)
		}
	}
}

// TestDeviceIsRefused: /dev/zero was read until memory ran out (gigabytes);
// now every command refuses it at once, exit 1. (The FIFO twin of this
// test is in inputs_unix_test.go.)
func TestDeviceIsRefused(t *testing.T) {
	for _, args := range inputCommands("/dev/zero") {
		code, _, errs := runState(t, t.TempDir(), "", args...)
		if code != ExitInvalid || !strings.Contains(errs, "/dev/zero") || !strings.Contains(errs, "not") {
			t.Errorf("%s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
	}
}

// TestHostileScenarioRefused: issue 9's scenario (maxSteps and reconciles
// of a billion, unbounded retry) ran without end in sim and took 6.8 GB in
// explore; now both refuse it, FILE:LINE: field: problem, exit 1.
func TestHostileScenarioRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostile.yaml")
	os.WriteFile(file, []byte(`name: hostile
maxSteps: 1000000000
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}
controllers:
- name: a
  target: ConfigMap/cm1
  mutations: [{set: {path: data.a, value: "1"}}]
  write: update
  retry: {unbounded: true, on: any}
  reconciles: 1000000000
`), 0o644)
	for _, cmd := range []string{"sim", "explore"} {
		code, out, errs := run(t, false, cmd, "-f", file)
		if code != ExitInvalid || out != "" ||
			!strings.Contains(errs, file+":2: maxSteps: must be at most 1000, not 1000000000") ||
			!strings.Contains(errs, file+":11: controllers[0].reconciles: must be at most 1000, not 1000000000") {
			t.Errorf("%s: exit %d, %d bytes out: %s", cmd, code, len(out), errs)
		}
	}
}

func TestSeedAndScheduleFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--seed", "18446744073709551616"}, ExitUsage, "--seed 18446744073709551616: out of range: want a whole number from 0 to 18446744073709551615"},
		{[]string{"--seed", "-1"}, ExitUsage, `--seed "-1": want a whole number from 0 to 18446744073709551615`},
		{[]string{"--seed", "7e3"}, ExitUsage, `--seed "7e3": want a whole number`},
		{[]string{"--seed", "18446744073709551615"}, ExitOK, ""},
		{[]string{"--schedule", strings.TrimSuffix(strings.Repeat("a,", 1001), ",")}, ExitUsage, "--schedule: 1001 steps: a race takes at most 1000"},
		// At the cap the schedule is taken, and refused by the race itself.
		{[]string{"--schedule", strings.TrimSuffix(strings.Repeat("a,", 1000), ",")}, ExitUsage, "--schedule: step 3: schedule: controller a has finished"},
	} {
		code, _, errs := run(t, false, append([]string{"sim", "-f", lostUpdate}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%.60s: exit %d (want %d): %s", strings.Join(c.args, " "), code, c.code, errs)
		}
	}
}

// TestRequestTimeoutMustBePositive: 0 meant no timeout at all (client-go),
// and a negative one was passed on; both are usage errors now, before any
// connection is tried.
func TestRequestTimeoutMustBePositive(t *testing.T) {
	for _, d := range []string{"0", "-1s"} {
		code, _, errs := run(t, false, "sim", "-f", lostUpdate, "--live", "--kubeconfig", filepath.Join(t.TempDir(), "none"), "--request-timeout", d)
		want := fmt.Sprintf("--request-timeout %s: want a positive duration, as 10s", map[string]string{"0": "0s", "-1s": "-1s"}[d])
		if code != ExitUsage || !strings.Contains(errs, want) {
			t.Errorf("--request-timeout %s: exit %d: %s", d, code, errs)
		}
	}
}
