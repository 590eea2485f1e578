package race_test

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestReportOnServerDefaultedItems: the lost-field report on the races of
// conformance/testdata/report, which the real server plays alike. A
// container appended by an update, or by an apply under a second
// manager, is there though the server filled in its defaults; a merge
// patch that sends a containers list read before the append erases it,
// and the report blames that patch; a write of managedFields: [{}] is the
// server's reset, not a loss, and the next apply conflicts with
// "before-first-apply".
func TestReportOnServerDefaultedItems(t *testing.T) {
	load := func(name string) *race.Outcome {
		t.Helper()
		sc, err := scenario.Load("../../conformance/testdata/report/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		o, err := race.Run(sc, race.Schedule{})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	for _, name := range []string{"container-append-update", "container-append-apply"} {
		if o := load(name); o.Verdict != race.VerdictNoLoss || len(o.Lost)+len(o.Overwritten) != 0 {
			t.Errorf("%s: %s, lost %v, overwritten %v", name, o.Verdict, o.Lost, o.Overwritten)
		}
	}

	o := load("container-removed-by-merge-patch")
	if o.Verdict != race.VerdictLost || len(o.Lost) != 1 {
		t.Fatalf("merge patch: %s, lost %v", o.Verdict, o.Lost)
	}
	l := o.Lost[0]
	if l.Owner != "side" || l.ErasedBy != "bump" || l.Cause.Kind != race.CauseStaleCopy ||
		!strings.HasPrefix(report.Reason(l), "bump's PATCH merge web did not mean to change it") {
		t.Errorf("merge patch: %+v (%s)", l, report.Reason(l))
	}

	o = load("managedfields-empty-entry")
	if len(o.Lost) != 0 || len(o.Overwritten) != 1 || o.Overwritten[0].Cause.Kind != race.CauseManagedFieldsReset {
		t.Fatalf("managedFields [{}]: lost %v, overwritten %v", o.Lost, o.Overwritten)
	}
	if got := report.Reason(o.Overwritten[0]); !strings.Contains(got, "managedFields: [{}] asks the field manager to drop every entry") {
		t.Errorf("managedFields [{}]: %s", got)
	}
	last := o.Steps[len(o.Steps)-1]
	if last.Code != 409 || !strings.Contains(last.Message, `conflict with "before-first-apply" using v1: .data.x`) {
		t.Errorf("the apply after the reset: %d %s", last.Code, last.Message)
	}
}
