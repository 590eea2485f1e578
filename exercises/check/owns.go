package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/conflictlab/conflictlab/exercises/verdict"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
)

// checkOwns says what is wrong with who owns what at the end of the run
// ("" when the manager's apply owns exactly the fields it must). Only
// its Apply entry of the object itself counts: what it writes to /status
// is recorded apart, and an update records ownership too but is not a
// declaration of intent.
func checkOwns(o *race.Outcome, want *verdict.Owns) string {
	if o.Final == nil {
		return "the object is gone: nobody owns anything"
	}
	var got []string
	for _, ow := range report.Owners(o.Final) {
		if ow.Manager == want.Manager && ow.Operation == "Apply" && ow.Subresource == "" {
			got = append(got, ow.Fields...)
		}
	}
	slices.Sort(got)
	got = slices.Compact(got)
	wantSorted := slices.Sorted(slices.Values(want.Fields))
	if slices.Equal(got, wantSorted) {
		return ""
	}
	var missing, extra []string
	for _, f := range wantSorted {
		if !slices.Contains(got, f) {
			missing = append(missing, f)
		}
	}
	for _, f := range got {
		if !slices.Contains(wantSorted, f) {
			extra = append(extra, f)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("does not own %s", strings.Join(missing, ", ")))
	}
	if len(extra) > 0 {
		parts = append(parts, fmt.Sprintf("owns %s, which it must not", strings.Join(extra, ", ")))
	}
	return fmt.Sprintf("at the end, field manager %q (its apply) %s", want.Manager, strings.Join(parts, " and "))
}
