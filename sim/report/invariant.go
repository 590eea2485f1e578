package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// MarkInvariant marks an invariant of the scenario that the end of the
// race breaks: every request may have succeeded and nothing been lost,
// so without it the outcome would read as a clean run.
const MarkInvariant = "⚠"

// InvariantCount says what the end of the race holds, against what the
// invariant wants: "2 ConfigMaps match app=web (want 1)", "ConfigMap cm1
// does not exist (want 1)".
func InvariantCount(r race.InvariantResult) string {
	where := invariantWhere(r)
	var got string
	switch {
	case r.Name != "" && r.Got == 0:
		got = fmt.Sprintf("%s %s%s does not exist", r.Kind, r.Name, where)
	case r.Name != "":
		got = fmt.Sprintf("%s %s%s exists", r.Kind, r.Name, where)
	case r.Got == 0:
		got = fmt.Sprintf("no %s%s matches %s", r.Kind, where, r.Selector)
	case r.Got == 1:
		got = fmt.Sprintf("1 %s%s matches %s", r.Kind, where, r.Selector)
	default:
		got = fmt.Sprintf("%d %ss%s match %s", r.Got, r.Kind, where, r.Selector)
	}
	return fmt.Sprintf("%s (want %d)", got, r.Want)
}

// invariantWhere names the invariant's namespace when it is not the
// default one: " in namespace team-a".
func invariantWhere(r race.InvariantResult) string {
	if r.Namespace != "" && r.Namespace != scenario.DefaultNamespace {
		return " in namespace " + r.Namespace
	}
	return ""
}

// InvariantWant says what the invariant asks of the end of the race,
// whatever it holds: "ConfigMap cm1 must exist", "exactly 1 ConfigMap
// must match app=web" (r's count is not read).
func InvariantWant(r race.InvariantResult) string {
	where := invariantWhere(r)
	switch {
	case r.Name != "" && r.Want == 0:
		return fmt.Sprintf("%s %s%s must not exist", r.Kind, r.Name, where)
	case r.Name != "":
		return fmt.Sprintf("%s %s%s must exist", r.Kind, r.Name, where)
	case r.Want == 0:
		return fmt.Sprintf("no %s%s may match %s", r.Kind, where, r.Selector)
	case r.Want == 1:
		return fmt.Sprintf("exactly 1 %s%s must match %s", r.Kind, where, r.Selector)
	default:
		return fmt.Sprintf("exactly %d %ss%s must match %s", r.Want, r.Kind, where, r.Selector)
	}
}

// InvariantRule is InvariantWant with the author's reason: "ConfigMap
// cm1 must exist: maker's new cm1 must survive".
func InvariantRule(r race.InvariantResult) string {
	return InvariantWant(r) + ": " + r.Why
}

// InvariantLine is InvariantCount with the author's reason: "2 ConfigMaps
// match app=web (want 1): the parent needs exactly one child".
func InvariantLine(r race.InvariantResult) string {
	return InvariantCount(r) + ": " + r.Why
}

// writeInvariants lists the broken invariants under the verdict, each
// with the objects it counted; a run that meets them all prints nothing.
func writeInvariants(w io.Writer, o *race.Outcome) {
	for _, r := range o.BrokenInvariants() {
		fmt.Fprintf(w, "  %s invariant broken: %s\n", MarkInvariant, InvariantLine(r))
		if r.Selector != "" && len(r.Matching) > 0 {
			fmt.Fprintf(w, "      matching: %s\n", strings.Join(r.Matching, ", "))
		}
	}
}
