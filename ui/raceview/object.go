package raceview

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// targetVersions lists the indexes in Versions of the race's target
// object, oldest first (a race may write other objects too).
func (m Model) targetVersions() []int {
	fc := m.frames()
	t := fc.targets
	fc.mu.Unlock()
	if t == nil {
		t = m.findTargetVersions()
		fc = m.frames()
		fc.targets = t
		fc.mu.Unlock()
	}
	return t
}

func (m Model) findTargetVersions() []int { return report.TargetVersions(m.run.Outcome) }

// versionAt returns the target's newest version written by steps[0..idx]
// and the one before it (-1 when there is none).
func (m Model) versionAt(idx int) (cur, prev int) {
	cur, prev = -1, -1
	for _, i := range m.targetVersions() {
		if m.run.Outcome.Versions[i].Step > idx {
			break
		}
		prev, cur = cur, i
	}
	return cur, prev
}

// objectLines renders the target at the selected step. Full is the YAML
// with each changed line marked and each removed one kept as a ghost;
// otherwise only the changes are listed (for short windows). The lines
// are the frame cache's: callers copy before changing them.
func (m Model) objectLines(w int, full bool) []string {
	idx := m.idx
	if m.hidden {
		idx = -1
	}
	vi, pi := m.versionAt(idx)
	k := objKey{cur: vi, prev: pi, w: w, full: full, setup: m.hidden}
	return cachedLines(m, func(d *frameData) *map[objKey][]string { return &d.obj }, k,
		func() []string { return m.renderObject(vi, pi, w, full) })
}

// showGeneration says whether the object pane shows metadata.generation
// (report.GenerationMatters): while the race is hidden, by the versions
// written before the race alone — whether the line appears must not hint
// at how the race ends. In an open run (a play step, the sandbox) the
// versions are those so far, so the line appears from the step that
// makes it matter.
func (m Model) showGeneration() bool {
	return report.GenerationMatters(m.run.Outcome, m.targetVersions(), m.hidden)
}

// renderObject is objectLines for version vi, whose previous one is pi.
func (m Model) renderObject(vi, pi, w int, full bool) []string {
	st := m.st
	o := m.run.Outcome
	if vi < 0 {
		return []string{st.Faint.Render("(the object does not exist yet)")}
	}
	v := o.Versions[vi]
	lines := []string{layout.Rule(report.VersionTitle(v, o.Target), w, st.Heading)}
	var prevObj map[string]any
	prevRV := ""
	if pi >= 0 {
		prevObj, prevRV = o.Versions[pi].Object, o.Versions[pi].RV
	}
	losses := report.VersionLosses(o, v)
	showGen := m.showGeneration()
	if !full {
		if pi < 0 {
			return append(lines, st.Faint.Render("  as created: no write has changed it yet"))
		}
		if prevRV != v.RV {
			lines = append(lines, st.Changed.Render(fmt.Sprintf("~ metadata.resourceVersion: %s → %s", prevRV, v.RV)))
		}
		if showGen && report.GenerationMark(prevObj, v.Object) != report.LineSame {
			pg, _, _ := unstructured.NestedFieldNoCopy(prevObj, "metadata", "generation")
			g, _, _ := unstructured.NestedFieldNoCopy(v.Object, "metadata", "generation")
			text, style := fmt.Sprintf("~ metadata.generation: %v → %v", pg, g), st.Changed
			if pg == nil {
				text, style = fmt.Sprintf("+ metadata.generation: %v", g), st.Added
			}
			lines = append(lines, style.Render(text))
		}
		for _, c := range v.Changes {
			text := report.FormatChange(c)
			style := st.Changed
			switch c.Op {
			case race.ChangeAdded:
				style = st.Added
			case race.ChangeRemoved:
				style = st.Removed
			}
			if l, ok := report.LossFor(losses, c.Path); ok {
				text = fmt.Sprintf("%s %s LOST (%s change)", text, styles.Bad, report.Possessive(l.Owner))
				style = st.Bad
			}
			// A long change goes on under its path, never cut: the
			// value after the arrow is what the write left.
			for _, l := range hang(text, w, 4, ",") {
				lines = append(lines, style.Render(l))
			}
		}
		if len(v.Changes) == 0 {
			lines = append(lines, m.unchangedLines(o.Versions[pi].Object, v.Object, prevRV, v.RV, w)...)
		}
		return lines
	}
	for _, l := range report.ObjectYAML(o, m.targetVersions(), vi, pi, showGen) {
		lines = append(lines, m.objectLine(l, w)...)
	}
	if pi >= 0 && len(v.Changes) == 0 {
		lines = append(lines, m.unchangedLines(prevObj, v.Object, prevRV, v.RV, w)...)
	}
	return lines
}

// unchangedLines explains a version in which no field changed. A write
// that changes nothing keeps its version; one that moves only the
// managedFields (a new owner, an owner's fields) is a change the server
// stores, so it gets a new resourceVersion, and this says which.
func (m Model) unchangedLines(prev, cur map[string]any, prevRV, rv string, w int) []string {
	st := m.st
	if prevRV == rv {
		return []string{st.Faint.Render("  no field changed since RV " + prevRV)}
	}
	moved := ownershipChanges(prev, cur)
	if len(moved) == 0 {
		return []string{st.Faint.Render("  no field changed since RV " + prevRV)}
	}
	text := fmt.Sprintf("no field of the object changed, yet the version moved %s → %s: the server stores who owns each field (metadata.managedFields), and that changed:", prevRV, rv)
	var out []string
	for _, l := range layout.Lines(layout.Wrap(text, max(10, w-2))) {
		out = append(out, st.Changed.Render("  "+l))
	}
	for _, c := range moved {
		for i, l := range layout.Lines(layout.Wrap(c, max(10, w-6))) {
			lead := "  ~ "
			if i > 0 {
				lead = "    "
			}
			out = append(out, st.Changed.Render(lead+l))
		}
	}
	return out
}

// objectLine styles a line of the object (report.ObjectYAML): its
// gutter says how it changed, its colour says it again; a lost field's
// note wraps under it.
func (m Model) objectLine(l report.ObjectLine, w int) []string {
	st := m.st
	if l.Note {
		wrapped := layout.Lines(layout.Wrap(l.Text, max(10, w-6)))
		out := make([]string, len(wrapped))
		for i, t := range wrapped {
			if i > 0 {
				t = "  " + t
			}
			out[i] = st.Bad.Render("    " + t)
		}
		return out
	}
	switch l.Mark {
	case report.LineAdded:
		return []string{st.Added.Render(l.String())}
	case report.LineChanged:
		return []string{st.Changed.Render(l.String())}
	case report.LineRemoved:
		return []string{st.Removed.Render(l.String())}
	case report.LineLost:
		return []string{st.Bad.Render(l.String())}
	}
	return []string{l.String()}
}
