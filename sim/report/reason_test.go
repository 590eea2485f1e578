package report

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
)

func TestPossessive(t *testing.T) {
	for name, want := range map[string]string{"you": "your", "b": "b's", "scaler": "scaler's"} {
		if got := Possessive(name); got != want {
			t.Errorf("Possessive(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestReasonsSpeakToTheLearner: a cause about the learner's own
// controller is said in the second person ("your PATCH", "your write"),
// never "you's".
func TestReasonsSpeakToTheLearner(t *testing.T) {
	for _, c := range []struct {
		l    race.Loss
		want string
	}{
		{race.Loss{Owner: "setup", Cause: race.LossCause{Kind: race.CauseCollateral, Actor: "you", Value: "example.com/z", Request: "PATCH json cm1", HeldRV: "102"}},
			"you removed example.com/z, which nobody meant to remove: your PATCH json cm1 was computed from its copy at RV 102, and the list had changed since"},
		{race.Loss{Owner: "you", Cause: race.LossCause{Kind: race.CauseMissedPosition, Value: "example.com/z"}},
			"your write removed example.com/z instead: it named a position in a list that had changed since its copy was read"},
		{race.Loss{Owner: "you", Cause: race.LossCause{Kind: race.CauseStaleCopy, Actor: "b", Request: "UPDATE cm1", HeldRV: "101"}},
			"b's UPDATE cm1 did not mean to change it: it sent a copy read at RV 101, before your change"},
		{race.Loss{Owner: "you", Cause: race.LossCause{Kind: race.CauseNotMade, Actor: "you"}},
			"your reconcile returned without making it"},
		{race.Loss{Owner: "ctl", Cause: race.LossCause{Kind: race.CauseOwnApplyDropped, Actor: "next", Value: "ctl"}},
			"next applied as ctl, the field manager that had set it, and left it out: an apply gives up the fields its manager no longer declares, and a field nobody owns is removed"},
		{race.Loss{Owner: "user", Cause: race.LossCause{Kind: race.CauseNamedInBody, Actor: "you", Request: "APPLY w1", Value: "0"}},
			"your APPLY w1 named it in its body, as 0"},
	} {
		got := Reason(c.l)
		if got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.l.Cause, got, c.want)
		}
		if strings.Contains(got, "you's") {
			t.Errorf("grammar: %s", got)
		}
	}
}

// TestEveryCauseIsWorded: no cause falls through to its bare kind, and
// Word fills in the JSON's reason.
func TestEveryCauseIsWorded(t *testing.T) {
	kinds := []race.CauseKind{race.CauseNeverVisible, race.CauseDeliberate, race.CauseStaleCopy, race.CauseOlderCount,
		race.CauseStaleCount, race.CauseRoundedIncrement, race.CauseIgnoredStatus, race.CauseIgnoredSpec,
		race.CauseIgnoredAllButStatus, race.CauseNotShown, race.CauseManagedFieldsReset, race.CauseDefaulted,
		race.CauseCollateral, race.CauseMissedPosition, race.CauseNotMade, race.CauseOwnApplyDropped, race.CauseNamedInBody}
	for _, k := range kinds {
		if got := Reason(race.Loss{Cause: race.LossCause{Kind: k}}); got == string(k) || got == "" {
			t.Errorf("%s is not worded: %q", k, got)
		}
	}
	o := &race.Outcome{Lost: []race.Loss{{Cause: race.LossCause{Kind: race.CauseNeverVisible}}}}
	Word(o)
	if o.Lost[0].Reason != "never visible on the server" {
		t.Errorf("Word: %q", o.Lost[0].Reason)
	}
}

// TestLossNoWriteErasedSaysWhy: a loss no write erased (never visible,
// never made) prints its cause and no eraser.
func TestLossNoWriteErasedSaysWhy(t *testing.T) {
	var b strings.Builder
	writeVerdict(&b, &race.Outcome{Verdict: race.VerdictLost, Lost: []race.Loss{{Field: "data.you", Owner: "you", Intended: "set data.you=1",
		ErasedAtStep: -1, Cause: race.LossCause{Kind: race.CauseNotMade, Actor: "you"}}}})
	if !strings.Contains(b.String(), "✗ LOST data.you — you wanted \"set data.you=1\"\n      your reconcile returned without making it") || strings.Contains(b.String(), "erased by") {
		t.Errorf("%s", b.String())
	}
}
