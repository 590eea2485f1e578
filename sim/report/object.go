package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
)

// The object pane's words: a version of the race's target as YAML, one
// line per field, each marked with how it changed since the version
// before, a removed field kept as a ghost line, a lost field marked with a
// note under it saying whose change it was and which write erased it. The
// terminal's race view styles these lines; the picture for slides draws
// them beside the lanes.

// LineMark is how a line of the object differs from the version before.
type LineMark int

const (
	LineSame LineMark = iota
	LineAdded
	LineChanged
	LineRemoved
	LineLost
)

// Gutter is a mark's two columns before the line, which say it without
// colour: "+ ", "~ ", "- ", "✗ ", or blank.
func (k LineMark) Gutter() string {
	switch k {
	case LineAdded:
		return "+ "
	case LineChanged:
		return "~ "
	case LineRemoved:
		return "- "
	case LineLost:
		return MarkBad + " "
	}
	return "  "
}

// ObjectLine is one line of the object: its text, indented as YAML, and
// its mark. Note marks the line under a lost field's first line, which
// says whose change it was ("└ set by a at step 3 (…); erased by b's
// UPDATE cm1 at step 4"); a note's text has no indent and no gutter.
type ObjectLine struct {
	Text string
	Mark LineMark
	Note bool
}

// String is the line as plain text: its gutter, its text, and LOST after
// a lost field; a note is indented under the field.
func (l ObjectLine) String() string {
	switch {
	case l.Note:
		return "    " + l.Text
	case l.Mark == LineLost:
		return l.Mark.Gutter() + l.Text + "   LOST"
	}
	return l.Mark.Gutter() + l.Text
}

// TargetVersions lists the indexes in o.Versions of the race's target
// object, oldest first (a race may write other objects too).
func TargetVersions(o *race.Outcome) []int {
	out := []int{}
	for i := range o.Versions {
		if IsTarget(o, i) {
			out = append(out, i)
		}
	}
	return out
}

// IsTarget reports whether version i is of the race's target.
func IsTarget(o *race.Outcome, i int) bool {
	return api.RefOf(&unstructured.Unstructured{Object: o.Versions[i].Object}) == o.Target
}

// VersionLosses are the fields the write that made version v erased,
// by field.
func VersionLosses(o *race.Outcome, v race.Version) map[string]race.Loss {
	losses := map[string]race.Loss{}
	for _, l := range o.Lost {
		if l.ErasedRV == v.RV && v.Step >= 0 {
			losses[l.Field] = l
		}
	}
	return losses
}

// LossFor finds the loss a changed path belongs to (the path, or a field
// inside it).
func LossFor(losses map[string]race.Loss, path string) (race.Loss, bool) {
	for f, l := range losses {
		if path == f || strings.HasPrefix(path, f+".") || strings.HasPrefix(path, f+"[") {
			return l, true
		}
	}
	return race.Loss{}, false
}

// ObjectYAML is version vi of the outcome's target (targets are its
// versions, TargetVersions) as YAML lines marked against version pi (-1:
// none, and nothing is marked): the server's bookkeeping left out, the
// generation too unless showGen.
func ObjectYAML(o *race.Outcome, targets []int, vi, pi int, showGen bool) []ObjectLine {
	v := o.Versions[vi]
	e := emitter{o: o, targets: targets, vi: vi, rv: v.RV, losses: VersionLosses(o, v), hasPrev: pi >= 0, showGen: showGen}
	var prevObj map[string]any
	if pi >= 0 {
		prevObj, e.prevRV = o.Versions[pi].Object, o.Versions[pi].RV
		e.ch = map[string]race.Change{}
		for _, c := range v.Changes {
			e.ch[c.Path] = c
		}
		e.genMark = GenerationMark(prevObj, v.Object)
	}
	e.mapping("", 0, v.Object, prevObj, false)
	return e.out
}

// VersionTitle heads a version of the object: its own object's name (a
// race may make objects other than its target: a child, a name created
// again), its RV, and which write made it: "cm1 @ RV 103 · written by b
// at step 4 (UPDATE cm1)", steps numbered as the rows.
func VersionTitle(v race.Version, target api.Ref) string {
	name := target.Name
	if md, ok := v.Object["metadata"].(map[string]any); ok {
		if n, ok := md["name"].(string); ok && n != "" {
			name = n
		}
	}
	title := fmt.Sprintf("%s @ RV %s", name, v.RV)
	if v.Step < 0 {
		title += " · as created before the race"
	} else {
		title += fmt.Sprintf(" · written by %s at step %d (%s)", v.Actor, v.Step+1, v.Request)
	}
	if v.Deleted {
		title += " · deleted"
	}
	return title
}

// GenerationMatters says whether the object is drawn with its
// metadata.generation, which is otherwise left out with the server's
// other bookkeeping. The generation matters to a race in two cases: some
// version of the target carries status.observedGeneration (a status that
// says which spec it describes only makes sense beside the generation it
// is compared with), or the generation differs between the target's
// versions (a write changed the spec, and the generation is how the
// object counts that). A ConfigMap has none, and a widget whose
// generation sits at 1 throughout would only add a line to read. With
// createdOnly only the versions written before the race count (the setup
// shows the object as created).
func GenerationMatters(o *race.Outcome, targets []int, createdOnly bool) bool {
	first := ""
	for _, i := range targets {
		v := o.Versions[i]
		if createdOnly && v.Step >= 0 {
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

// GenerationMark is how the generation line of cur differs from prev's:
// the diff of an outcome (race.Diff) leaves the generation out, as the
// server's bookkeeping, so the pane compares it itself.
func GenerationMark(prev, cur map[string]any) LineMark {
	g, ok, _ := unstructured.NestedFieldNoCopy(cur, "metadata", "generation")
	pg, pok, _ := unstructured.NestedFieldNoCopy(prev, "metadata", "generation")
	switch {
	case ok && !pok:
		return LineAdded
	case ok && fmt.Sprint(g) != fmt.Sprint(pg):
		return LineChanged
	}
	return LineSame
}

// emitter writes an object as YAML lines, each with its mark.
type emitter struct {
	o       *race.Outcome
	targets []int
	vi      int
	ch      map[string]race.Change
	losses  map[string]race.Loss
	prevRV  string
	rv      string
	hasPrev bool
	// showGen: the generation line is shown, and genMark is how it moved
	// since the previous version.
	showGen bool
	genMark LineMark
	noted   map[string]bool
	out     []ObjectLine
}

// hidden fields are server bookkeeping that says nothing about the race.
// metadata.generation is one unless the race makes it matter.
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
					e.line(path, lead+ik+": "+Scalar(im[ik]), gone)
					first = false
				}
				continue
			}
			e.line(path, indent+"- "+Scalar(item), gone)
		}
	default:
		e.line(path, indent+k+": "+Scalar(v), gone)
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

// line adds one YAML line with its mark, and under a lost field's first
// line the note saying whose change it was and which write erased it.
func (e *emitter) line(path, text string, gone bool) {
	mk := LineSame
	if e.ch != nil {
		switch {
		case gone:
			mk = LineRemoved
		case path == "metadata.resourceVersion" && e.prevRV != "" && e.prevRV != e.rv:
			mk = LineChanged
		case path == "metadata.generation":
			mk = e.genMark
		default:
			if c, ok := e.ch[path]; ok {
				if c.Op == race.ChangeAdded {
					mk = LineAdded
				} else {
					mk = LineChanged
				}
			}
		}
	}
	l, isLost := LossFor(e.losses, path)
	if isLost && mk != LineSame && mk != LineAdded {
		mk = LineLost
	}
	e.out = append(e.out, ObjectLine{Text: text, Mark: mk})
	// A lost map has many lines: the note goes under the first of them,
	// once for each controller whose change was lost.
	if mk == LineLost && !e.noted[l.Owner] {
		if e.noted == nil {
			e.noted = map[string]bool{}
		}
		e.noted[l.Owner] = true
		e.out = append(e.out, ObjectLine{Text: e.lostNote(l), Mark: LineLost, Note: true})
	}
}

// lostNote says who set the field, when, and which write erased it.
func (e *emitter) lostNote(l race.Loss) string {
	o := e.o
	setAt, eraser := "", ""
	for _, i := range e.targets {
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
	if ToldByReason(l) {
		return fmt.Sprintf("└ %s change (%s): %s", Possessive(l.Owner), l.Intended, Reason(l))
	}
	return fmt.Sprintf("└ set by %s%s (%s); erased by %s %s at step %d", l.Owner, setAt, l.Intended, Possessive(l.ErasedBy), eraser, l.ErasedAtStep+1)
}

// Scalar formats a leaf the way YAML would, quoting strings that would
// otherwise read as numbers, booleans or null.
func Scalar(v any) string {
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
			parts[i] = Scalar(k) + ": " + flow(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = flow(item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return Scalar(v)
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
