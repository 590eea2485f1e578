package raceview

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
)

// owner is one entry of an object's metadata.managedFields (sim/report
// reads them, for the CLI's checks and this view alike).
type owner = report.Owner

// owners reads metadata.managedFields, in the server's order.
func owners(obj map[string]any) []owner { return report.Owners(obj) }

// usesApply reports whether the race is about field ownership: a
// controller writes with server-side apply.
func (m Model) usesApply() bool {
	for _, c := range m.run.Outcome.Controllers {
		if c.Write == "apply" {
			return true
		}
	}
	return false
}

// ownershipLines is the strip under the timeline in a server-side apply
// race: who owns which field of the version on show.
func (m Model) ownershipLines(w int) []string {
	if !m.usesApply() {
		return nil
	}
	vi, _ := m.versionAt(m.idx)
	if vi < 0 {
		return nil
	}
	return cachedLines(m, func(d *frameData) *map[verKey][]string { return &d.owners }, verKey{i: vi, w: w},
		func() []string { return m.renderOwners(vi, w) })
}

// renderOwners is ownershipLines for version vi.
func (m Model) renderOwners(vi, w int) []string {
	v := m.run.Outcome.Versions[vi]
	st := m.st
	out := []string{st.Heading.Render(layout.Truncate("owners at RV "+v.RV+" (managedFields):", w))}
	for _, o := range owners(v.Object) {
		for i, l := range layout.Lines(layout.Wrap(o.Describe(), max(10, w-4))) {
			if i == 0 {
				l = "  " + l
			} else {
				l = "    " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// ownershipChanges says how managedFields moved from one version to the
// next: the reason a write that changed no field still got a new
// resourceVersion.
func ownershipChanges(prev, cur map[string]any) []string {
	before := map[string]owner{}
	for _, o := range owners(prev) {
		before[o.Manager+"\x00"+o.Operation+"\x00"+o.Subresource] = o
	}
	var out []string
	seen := map[string]bool{}
	for _, o := range owners(cur) {
		k := o.Manager + "\x00" + o.Operation + "\x00" + o.Subresource
		seen[k] = true
		b, ok := before[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s became a field manager (%s): %s", o.Manager, o.Operation, strings.Join(o.Fields, ", ")))
		case strings.Join(b.Fields, ",") != strings.Join(o.Fields, ","):
			out = append(out, fmt.Sprintf("%s (%s) now %s: %s", o.Manager, o.Operation, agree(o.Manager, "owns", "own"), orNoFields(o.Fields)))
		}
	}
	for _, o := range owners(prev) {
		if !seen[o.Manager+"\x00"+o.Operation+"\x00"+o.Subresource] {
			out = append(out, fmt.Sprintf("%s (%s) no longer %s any field", o.Manager, o.Operation, agree(o.Manager, "owns", "own")))
		}
	}
	return out
}

func orNoFields(f []string) string {
	if len(f) == 0 {
		return "no field"
	}
	return strings.Join(f, ", ")
}
