package raceview

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

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

func (m Model) findTargetVersions() []int {
	o := m.run.Outcome
	out := []int{}
	for i := range o.Versions {
		if isTarget(o, i) {
			out = append(out, i)
		}
	}
	return out
}

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

// mark is how a line of the object differs from the previous version.
type mark int

const (
	same mark = iota
	added
	changed
	removed
	lost
)

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

// showGeneration says whether the object pane shows metadata.generation,
// which it otherwise hides with the server's other bookkeeping. The
// generation matters to a race in two cases: some version of the target
// carries status.observedGeneration (a status that says which spec it
// describes only makes sense beside the generation it is compared with),
// or the generation differs between the target's versions (a write
// changed the spec, and the generation is how the object counts that).
// A race in which neither happens shows no generation line: a ConfigMap
// has none, and a widget whose generation sits at 1 throughout would only
// add a line to read.
//
// The rule looks at the versions the learner may see: all of the
// outcome's, except while the race is hidden, when the setup shows the
// object as created and so may depend only on the versions written before
// the race (whether a line appears must not hint at how the race ends).
// In an open run (a play step, the sandbox) the versions are those so
// far, so the line appears from the step that makes it matter.
func (m Model) showGeneration() bool {
	o := m.run.Outcome
	first := ""
	for _, i := range m.targetVersions() {
		v := o.Versions[i]
		if m.hidden && v.Step >= 0 {
			break
		}
		if _, ok, _ := unstructured.NestedFieldNoCopy(v.Object, "status", "observedGeneration"); ok {
			return true
		}
		g, ok, _ := unstructured.NestedFieldNoCopy(v.Object, "metadata", "generation")
		if !ok {
			continue
		}
		if first == "" {
			first = fmt.Sprint(g)
		} else if fmt.Sprint(g) != first {
			return true
		}
	}
	return false
}

// generationMark is how the generation line of cur differs from prev's:
// the diff of an outcome (race.Diff) leaves the generation out, as the
// server's bookkeeping, so the pane compares it itself.
func generationMark(prev, cur map[string]any) mark {
	g, ok, _ := unstructured.NestedFieldNoCopy(cur, "metadata", "generation")
	pg, pok, _ := unstructured.NestedFieldNoCopy(prev, "metadata", "generation")
	switch {
	case ok && !pok:
		return added
	case ok && fmt.Sprint(g) != fmt.Sprint(pg):
		return changed
	}
	return same
}

// renderObject is objectLines for version vi, whose previous one is pi.
func (m Model) renderObject(vi, pi, w int, full bool) []string {
	st := m.st
	o := m.run.Outcome
	if vi < 0 {
		return []string{st.Faint.Render("(the object does not exist yet)")}
	}
	v := o.Versions[vi]
	title := fmt.Sprintf("%s @ RV %s", versionName(v, o.Target), v.RV) // lifecycle.go
	if v.Step < 0 {
		title += " · as created before the race"
	} else {
		title += fmt.Sprintf(" · written by %s at step %d (%s)", v.Actor, v.Step+1, v.Request)
	}
	if v.Deleted {
		title += " · deleted"
	}
	lines := []string{layout.Rule(title, w, st.Heading)}
	var prevObj map[string]any
	prevRV := ""
	if pi >= 0 {
		prevObj, prevRV = o.Versions[pi].Object, o.Versions[pi].RV
	}
	losses := map[string]race.Loss{}
	for _, l := range o.Lost {
		if l.ErasedRV == v.RV && v.Step >= 0 {
			losses[l.Field] = l
		}
	}
	ch := map[string]race.Change{}
	for _, c := range v.Changes {
		ch[c.Path] = c
	}
	if pi < 0 {
		ch = nil // the first version is not a change of anything
	}
	showGen := m.showGeneration()
	if !full {
		if pi < 0 {
			return append(lines, st.Faint.Render("  as created: no write has changed it yet"))
		}
		if prevRV != v.RV {
			lines = append(lines, st.Changed.Render(fmt.Sprintf("~ metadata.resourceVersion: %s → %s", prevRV, v.RV)))
		}
		if showGen && generationMark(prevObj, v.Object) != same {
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
			if l, ok := lossFor(losses, c.Path); ok {
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
	e := emitter{m: m, w: w, ch: ch, losses: losses, prevRV: prevRV, rv: v.RV, vi: vi, hasPrev: pi >= 0, showGen: showGen}
	if pi >= 0 {
		e.genMark = generationMark(prevObj, v.Object)
	}
	e.mapping("", 0, v.Object, prevObj, false)
	lines = append(lines, e.out...)
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

// lossFor finds the loss a changed path belongs to (the path, or a field
// inside it).
func lossFor(losses map[string]race.Loss, path string) (race.Loss, bool) {
	for f, l := range losses {
		if path == f || strings.HasPrefix(path, f+".") || strings.HasPrefix(path, f+"[") {
			return l, true
		}
	}
	return race.Loss{}, false
}

// emitter writes an object as YAML, one line per field, with a two-column
// gutter saying how each line changed.
type emitter struct {
	m       Model
	w       int
	ch      map[string]race.Change
	losses  map[string]race.Loss
	prevRV  string
	rv      string
	vi      int
	hasPrev bool
	// showGen: the generation line is shown (showGeneration), and
	// genMark is how it moved since the previous version.
	showGen bool
	genMark mark
	out     []string
}

// hidden fields are server bookkeeping that says nothing about the race.
// metadata.generation is one unless the race makes it matter
// (showGeneration).
var hidden = map[string]bool{"metadata.managedFields": true, "metadata.uid": true,
	"metadata.creationTimestamp": true, "metadata.generation": true}

var firstKeys = map[string][]string{
	"":         {"apiVersion", "kind", "metadata", "spec", "data", "status"},
	"metadata": {"name", "namespace", "resourceVersion", "generation", "labels", "annotations", "finalizers"},
}

// childPath mirrors race.Diff's field paths, so lines match changes.
func childPath(prefix, k string) string {
	switch {
	case strings.ContainsAny(k, "./[]"):
		return prefix + fmt.Sprintf("[%q]", k)
	case prefix != "":
		return prefix + "." + k
	}
	return k
}

func orderedKeys(prefix string, cur, prev map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, k := range firstKeys[prefix] {
		_, a := cur[k]
		_, b := prev[k]
		if a || b {
			keys = append(keys, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range cur {
		if !seen[k] {
			rest = append(rest, k)
			seen[k] = true
		}
	}
	for k := range prev {
		if !seen[k] {
			rest = append(rest, k)
			seen[k] = true
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// mapping emits a map's fields; prev is the same map in the version
// before, whose fields missing now are shown as removed (ghost) lines.
func (e *emitter) mapping(prefix string, depth int, cur, prev map[string]any, gone bool) {
	for _, k := range orderedKeys(prefix, cur, prev) {
		path := childPath(prefix, k)
		if hidden[path] && !(path == "metadata.generation" && e.showGen) {
			continue
		}
		v, inCur := cur[k]
		if !inCur || gone {
			if !e.hasPrev {
				continue
			}
			pv := prev[k]
			if gone {
				pv = v
			}
			e.value(path, k, depth, pv, nil, true)
			continue
		}
		var pv any
		if prev != nil {
			pv = prev[k]
		}
		e.value(path, k, depth, v, pv, false)
	}
}

func (e *emitter) value(path, k string, depth int, v, pv any, gone bool) {
	indent := strings.Repeat("  ", depth)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			e.line(path, indent+k+": {}", gone)
			return
		}
		e.line(path, indent+k+":", gone && e.isRemoved(path))
		pm, _ := pv.(map[string]any)
		e.mapping(path, depth+1, x, pm, gone)
	case []any:
		if len(x) == 0 {
			e.line(path, indent+k+": []", gone)
			return
		}
		e.line(path, indent+k+":", gone)
		for _, item := range x {
			if im, ok := item.(map[string]any); ok {
				first := true
				for _, ik := range orderedKeys("", im, nil) {
					lead := indent + "  "
					if first {
						lead = indent + "- "
					}
					e.line(path, lead+ik+": "+scalar(im[ik]), gone)
					first = false
				}
				continue
			}
			e.line(path, indent+"- "+scalar(item), gone)
		}
	default:
		e.line(path, indent+k+": "+scalar(v), gone)
	}
}

func (e *emitter) isRemoved(path string) bool {
	for p, c := range e.ch {
		if c.Op == race.ChangeRemoved && (p == path || strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[")) {
			return true
		}
	}
	return false
}

// line writes one YAML line with its gutter, and under a lost field the
// note saying whose change it was and which write erased it.
func (e *emitter) line(path, text string, gone bool) {
	st := e.m.st
	mk := same
	if e.ch != nil {
		switch {
		case gone:
			mk = removed
		case path == "metadata.resourceVersion" && e.prevRV != "" && e.prevRV != e.rv:
			mk = changed
		case path == "metadata.generation":
			mk = e.genMark
		default:
			if c, ok := e.ch[path]; ok {
				if c.Op == race.ChangeAdded {
					mk = added
				} else {
					mk = changed
				}
			}
		}
	}
	l, isLost := lossFor(e.losses, path)
	if isLost && mk != same && mk != added {
		mk = lost
	}
	var out string
	switch mk {
	case added:
		out = st.Added.Render("+ " + text)
	case changed:
		out = st.Changed.Render("~ " + text)
	case removed:
		out = st.Removed.Render("- " + text)
	case lost:
		out = st.Bad.Render(styles.Bad + " " + text + "   " + "LOST")
	default:
		out = "  " + text
	}
	e.out = append(e.out, out)
	if mk == lost && !e.noted(l) {
		e.out = append(e.out, e.lostNote(l)...)
	}
}

// noted keeps a loss's note to one place (a lost map has many lines).
func (e *emitter) noted(l race.Loss) bool {
	for i := range e.out {
		if strings.Contains(e.out[i], "└ set by "+l.Owner) || strings.Contains(e.out[i], "└ "+report.Possessive(l.Owner)+" change") {
			return true
		}
	}
	return false
}

// lostNote says who set the field, when, and which write erased it.
func (e *emitter) lostNote(l race.Loss) []string {
	o := e.m.run.Outcome
	setAt, eraser := "", ""
	for _, i := range e.m.targetVersions() {
		v := o.Versions[i]
		if v.RV == l.ErasedRV {
			eraser = v.Request
		}
		if i >= e.vi || v.Actor != l.Owner {
			continue
		}
		for _, c := range v.Changes {
			if c.Path == l.Field || strings.HasPrefix(c.Path, l.Field+".") {
				setAt = fmt.Sprintf(" at step %d", v.Step+1)
			}
		}
	}
	text := fmt.Sprintf("└ set by %s%s (%s); erased by %s %s at step %d", l.Owner, setAt, l.Intended, report.Possessive(l.ErasedBy), eraser, l.ErasedAtStep+1)
	if l.ErasedBy == l.Owner {
		text = fmt.Sprintf("└ %s change (%s): %s", report.Possessive(l.Owner), l.Intended, report.Reason(l))
	}
	wrapped := layout.Lines(layout.Wrap(text, max(10, e.w-6)))
	out := make([]string, len(wrapped))
	for i, w := range wrapped {
		if i > 0 {
			w = "  " + w
		}
		out[i] = e.m.st.Bad.Render("    " + w)
	}
	return out
}

// scalar formats a leaf the way YAML would, quoting strings that would
// otherwise read as numbers, booleans or null.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if needsQuote(x) {
			return strconv.Quote(x)
		}
		return x
	case bool:
		return strconv.FormatBool(x)
	case map[string]any, []any:
		return flow(v)
	}
	return fmt.Sprint(v)
}

// flow writes a map or a list on one line as YAML's flow style does
// ({} and [] when empty, as kubectl prints them), for a value inside a
// list item that the block style does not reach.
func flow(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = scalar(k) + ": " + flow(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = flow(item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return scalar(v)
}

func needsQuote(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\n") {
		return true
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	return false
}
