package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
)

func TestInvariantCount(t *testing.T) {
	sel := race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1}
	name := race.InvariantResult{Kind: "Widget", Namespace: "default", Name: "w1", Want: 1}
	for _, tc := range []struct {
		r    race.InvariantResult
		got  int
		ns   string
		want string
	}{
		{sel, 0, "", "no ConfigMap matches app=web (want 1)"},
		{sel, 1, "", "1 ConfigMap matches app=web (want 1)"},
		{sel, 3, "", "3 ConfigMaps match app=web (want 1)"},
		{sel, 2, "team-a", "2 ConfigMaps in namespace team-a match app=web (want 1)"},
		{name, 0, "", "Widget w1 does not exist (want 1)"},
		{name, 1, "other", "Widget w1 in namespace other exists (want 1)"},
	} {
		r := tc.r
		r.Got = tc.got
		if tc.ns != "" {
			r.Namespace = tc.ns
		}
		if got := InvariantCount(r); got != tc.want {
			t.Errorf("%+v: %q, want %q", r, got, tc.want)
		}
	}
}

// The text report lists only the broken invariants, under the verdict.
func TestTextListsBrokenInvariants(t *testing.T) {
	o := &race.Outcome{Verdict: race.VerdictNoLoss, Invariants: []race.InvariantResult{
		{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 1, Matching: []string{"web-a"}, Why: "kept", Met: true},
		{Kind: "ConfigMap", Namespace: "default", Selector: "tier=db", Want: 1, Got: 2, Matching: []string{"db-a", "db-b"}, Why: "one database"},
	}}
	var b bytes.Buffer
	if err := Text(&b, o); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := "outcome: no-loss\n  ⚠ invariant broken: 2 ConfigMaps match tier=db (want 1): one database\n      matching: db-a, db-b\n"
	if !strings.Contains(out, want) || strings.Contains(out, "kept") {
		t.Errorf("text:\n%s\nwant it to hold\n%s\nand not the invariant that holds", out, want)
	}
}

func TestInvariantWant(t *testing.T) {
	for _, tc := range []struct {
		r    race.InvariantResult
		want string
	}{
		{race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Name: "cm1", Want: 1}, "ConfigMap cm1 must exist"},
		{race.InvariantResult{Kind: "ConfigMap", Namespace: "team-a", Name: "cm1", Want: 0}, "ConfigMap cm1 in namespace team-a must not exist"},
		{race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 0}, "no ConfigMap may match app=web"},
		{race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 3}, "exactly 1 ConfigMap must match app=web"},
		{race.InvariantResult{Kind: "Widget", Namespace: "team-a", Selector: "tier", Want: 2}, "exactly 2 Widgets in namespace team-a must match tier"},
	} {
		if got := InvariantWant(tc.r); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
	r := race.InvariantResult{Kind: "ConfigMap", Name: "cm1", Want: 1, Why: "kept"}
	if got := InvariantRule(r); got != "ConfigMap cm1 must exist: kept" {
		t.Errorf("rule %q", got)
	}
}
