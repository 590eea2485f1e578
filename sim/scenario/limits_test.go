package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/userfile"
)

// one controller line, for files built below.
const oneCtrl = "- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}"

func onlyError(t *testing.T, data []byte, want string) {
	t.Helper()
	_, err := Parse("race.yaml", data)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != want {
		t.Fatalf("\n got: %v\nwant: %s", err, want)
	}
}

// TestLimits: every count a race may ask for is capped, refused as
// FILE:LINE: field: problem; the cap itself is accepted.
func TestLimits(t *testing.T) {
	withCtrl := func(extra ...string) []byte {
		return ctrl(append([]string{"- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update"}, extra...)...)
	}
	cases := []struct {
		name     string
		ok, over []byte
		wantOver string
	}{
		{"maxSteps", top("name: t", "maxSteps: 1000"), top("name: t", "maxSteps: 1000000000"),
			"race.yaml:2: maxSteps: must be at most 1000, not 1000000000: the limit of a race's length"},
		{"startRV", top("name: t", "startRV: 1000000000000000"), top("name: t", "startRV: 9223372036854775807"),
			"race.yaml:2: startRV: must be at most 1000000000000000 (10^15), not 9223372036854775807: resourceVersions must stay exact as JSON numbers"},
		{"startRV zero", top("name: t", "startRV: 1"), top("name: t", "startRV: 0"),
			"race.yaml:2: startRV: must be at least 1, not 0"},
		{"lag", top("name: t", "lag: 1h"), top("name: t", "lag: 2562047h"),
			"race.yaml:2: lag: must be at most 1h, not 2562047h: the virtual clock of a race is counted in milliseconds"},
		{"reconciles", withCtrl("  reconciles: 1000"), withCtrl("  reconciles: 1000000000"),
			"race.yaml:11: controllers[0].reconciles: must be at most 1000, not 1000000000: each takes at least one step, and a race takes at most 1000"},
		{"attempts", withCtrl("  retry: {attempts: 1000}"), withCtrl("  retry: {attempts: 1001}"),
			"race.yaml:11: controllers[0].retry.attempts: must be at most 1000, not 1001: each takes at least one step, and a race takes at most 1000"},
		{"backoff", withCtrl("  retry: {backoff: 60m}"), withCtrl("  retry: {backoff: 61m}"),
			"race.yaml:11: controllers[0].retry.backoff: must be at most 1h, not 61m: the virtual clock of a race is counted in milliseconds"},
		{"requeue", withCtrl("  requeue: {max: 1000, baseDelay: 1h}"), withCtrl("  requeue: {max: 4294967296}"),
			"race.yaml:11: controllers[0].requeue.max: must be at most 1000, not 4294967296: each takes at least one step, and a race takes at most 1000"},
		{"controllers", ctrlN(LimitControllers), ctrlN(LimitControllers + 1),
			fmt.Sprintf("race.yaml:7: controllers: %d controllers: a race has at most %d", LimitControllers+1, LimitControllers)},
		{"objects", objsN(LimitObjects), objsN(LimitObjects + 1),
			fmt.Sprintf("race.yaml:4: objects: %d objects: a scenario has at most %d", LimitObjects+1, LimitObjects)},
		{"schedule", scheduleN(LimitSteps), scheduleN(LimitSteps + 1),
			fmt.Sprintf("race.yaml:8: schedule: %d steps: a race takes at most %d", LimitSteps+1, LimitSteps)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Parse("race.yaml", c.ok); err != nil {
				t.Fatalf("the cap itself is refused: %v", err)
			}
			onlyError(t, c.over, c.wantOver)
		})
	}
}

func ctrlN(n int) []byte {
	lines := append([]string{}, header...)
	for i := 0; i < n; i++ {
		lines = append(lines, fmt.Sprintf("- {name: c%d, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", i))
	}
	return doc(lines...)
}

func objsN(n int) []byte {
	lines := []string{"name: t", "# objects", "objects:"}
	for i := 0; i < n; i++ {
		lines = append(lines, fmt.Sprintf("- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm%d}}", i+1))
	}
	return doc(append(lines, "controllers:", oneCtrl)...)
}

func scheduleN(n int) []byte {
	return doc(append(append([]string{}, header...), oneCtrl, "schedule: ["+strings.TrimSuffix(strings.Repeat("a, ", n), ", ")+"]")...)
}

// TestHostileScenarioIsRefused: the 471-byte file of issue 9 ran without
// end in sim and took 6.8 GB in explore; 300 controllers took 107 s.
// Both are refused by Parse, every problem at its line.
func TestHostileScenarioIsRefused(t *testing.T) {
	hostile := doc(
		"name: hostile",
		"maxSteps: 1000000000",
		"startRV: 9223372036854775807",
		"objects:",
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}",
		"controllers:",
		"- name: a",
		"  target: ConfigMap/cm1",
		"  read: live",
		"  mutations: [{set: {path: data.a, value: '1'}}]",
		"  write: update",
		"  retry: {unbounded: true, on: any}",
		"  reconciles: 1000000000",
	)
	start := time.Now()
	_, err := Parse("hostile.yaml", hostile)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("accepted: %v", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, fmt.Sprintf("%d %s", e.Line, e.Field))
	}
	if want := "2 maxSteps|3 startRV|13 controllers[0].reconciles"; strings.Join(got, "|") != want {
		t.Fatalf("got %q, want %q:\n%v", strings.Join(got, "|"), want, err)
	}
	_, err = Parse("many.yaml", ctrlN(300))
	if err == nil || !strings.Contains(err.Error(), "many.yaml:7: controllers: 300 controllers: a race has at most 16") {
		t.Fatalf("300 controllers: %v", err)
	}
	// Not a timing test: a sanity bound far above what Parse needs (ms).
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("refusing took %s", took)
	}
}

// TestLoadReadsOnlyRegularFiles: /dev/zero was read until memory ran out.
func TestLoadReadsOnlyRegularFiles(t *testing.T) {
	_, err := Load("/dev/zero")
	if !errors.Is(err, userfile.ErrNotRegular) || err.Error() != "/dev/zero: not a regular file (a character device): give the path of a file" {
		t.Fatalf("got %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, []byte("name: t\n"+strings.Repeat("#\n", MaxFileSize/2)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(big)
	if !errors.Is(err, userfile.ErrTooLarge) || err.Error() != big+": larger than 1 MiB, the limit for this file" {
		t.Fatalf("got %v", err)
	}
}

// TestMarshalRefusesOverTheCaps: the sandbox checks every race it builds
// by Marshal (write it, read it back), so it cannot build one over the caps.
func TestMarshalRefusesOverTheCaps(t *testing.T) {
	s, err := Parse("race.yaml", top("name: t"))
	if err != nil {
		t.Fatal(err)
	}
	s.MaxSteps = LimitSteps + 1
	s.Controllers[0].Reconciles = 5000
	_, err = Marshal(s)
	if err == nil || !strings.Contains(err.Error(), "maxSteps: must be at most 1000, not 1001") ||
		!strings.Contains(err.Error(), "controllers[0].reconciles: must be at most 1000, not 5000") {
		t.Fatalf("got %v", err)
	}
}
