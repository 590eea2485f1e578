package fakes

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Comparison is one race played on several backends, the first (the
// simulator) being the reference the others are compared with.
type Comparison struct {
	Scenario string    `json:"scenario"`
	Runs     []*Result `json:"runs"`
	// Divergences say, for every backend after the first, where it
	// answered otherwise; an empty one means it ran the race alike.
	Divergences []Divergence `json:"divergences"`
}

// Divergence is where one backend's run differs from the reference's.
type Divergence struct {
	Backend Name `json:"backend"`
	// FirstStep is the first step (from 1) whose actor, request or answer
	// differs, 0 if none does; Step describes it.
	FirstStep int    `json:"firstStep,omitempty"`
	Step      string `json:"step,omitempty"`
	// Codes lists every step whose answer differs, as "N: got (reference)".
	Codes []string `json:"codes,omitempty"`
	// Final lists the fields of the final object that differ.
	Final   []FieldDiff  `json:"final,omitempty"`
	Lost    []string     `json:"lost,omitempty"`
	RefLost []string     `json:"referenceLost,omitempty"`
	Verdict race.Verdict `json:"verdict,omitempty"`
	// RefVerdict is the reference's verdict, set when Verdict differs.
	RefVerdict race.Verdict `json:"referenceVerdict,omitempty"`
	Skipped    []Skip       `json:"skipped,omitempty"`
	Notes      []string     `json:"notes,omitempty"`
}

// Same reports whether the backend ran the race as the reference did.
func (d Divergence) Same() bool {
	return d.FirstStep == 0 && len(d.Final) == 0 && d.RefVerdict == "" && len(d.Lost) == 0 && len(d.RefLost) == 0 && len(d.Skipped) == 0
}

// FieldDiff is one field of the final object on two backends ("" for absent).
type FieldDiff struct {
	Path string `json:"path"`
	Got  string `json:"got"`
	Ref  string `json:"reference"`
}

// Compare plays the race on each backend, the first being the reference.
func Compare(sc *scenario.Scenario, sched race.Schedule, backends []Name) (*Comparison, error) {
	c := &Comparison{Scenario: sc.Name}
	for _, n := range backends {
		r, err := Run(n, sc, sched)
		if err != nil {
			return nil, err
		}
		c.Runs = append(c.Runs, r)
	}
	for _, r := range c.Runs[1:] {
		c.Divergences = append(c.Divergences, diverge(c.Runs[0], r))
	}
	return c, nil
}

// answered lists the steps a person compares: requests and Lister reads,
// not watch deliveries (whose numbering is each backend's own).
func answered(o *race.Outcome) []race.Step {
	var out []race.Step
	for _, s := range o.Steps {
		if s.Kind != race.StepWatch {
			out = append(out, s)
		}
	}
	return out
}

func stepLine(s race.Step) string {
	line := fmt.Sprintf("%s %s %d", s.Actor, s.Request, s.Code)
	switch {
	case s.Reason != "":
		line += " " + s.Reason
	case !s.OK() && s.Message != "":
		// Not a Status: a plain Go error, which no apierrors helper matches.
		line += " (plain error)"
	}
	return line
}

func diverge(ref, r *Result) Divergence {
	d := Divergence{Backend: r.Backend, Skipped: r.Skipped, Notes: r.Backend.Notes()}
	rs, gs := answered(ref.Outcome), answered(r.Outcome)
	for i := 0; i < max(len(rs), len(gs)); i++ {
		var a, b string
		if i < len(rs) {
			a = stepLine(rs[i])
		}
		if i < len(gs) {
			b = stepLine(gs[i])
		}
		if a == b {
			continue
		}
		if d.FirstStep == 0 {
			d.FirstStep = i + 1
			d.Step = fmt.Sprintf("%s (%s: %s)", orNone(b), ref.Backend, orNone(a))
			if i < len(gs) && gs[i].Message != "" && (i >= len(rs) || gs[i].Message != rs[i].Message) {
				d.Step += "; " + string(r.Backend) + " said: " + gs[i].Message
			}
		}
		if i < len(rs) && i < len(gs) && rs[i].Actor == gs[i].Actor && rs[i].Request == gs[i].Request && rs[i].Code != gs[i].Code {
			d.Codes = append(d.Codes, fmt.Sprintf("%d: %s %d (%s: %d)", i+1, gs[i].Request, gs[i].Code, ref.Backend, rs[i].Code))
		}
	}
	d.Final = finalDiff(ref.Outcome, r.Outcome)
	rl, gl := lostFields(ref.Outcome), lostFields(r.Outcome)
	d.Lost, d.RefLost = minus(gl, rl), minus(rl, gl)
	d.Verdict = r.Outcome.Verdict
	if r.Outcome.Verdict != ref.Outcome.Verdict {
		d.RefVerdict = ref.Outcome.Verdict
	}
	return d
}

func orNone(s string) string {
	if s == "" {
		return "no such step"
	}
	return s
}

func lostFields(o *race.Outcome) []string {
	var out []string
	for _, l := range o.Lost {
		out = append(out, fmt.Sprintf("%s (%s's)", l.Field, l.Owner))
	}
	sort.Strings(out)
	return out
}

// minus lists what a has and b has not.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// comparedMetadata are the metadata fields a controller writes; the rest
// (resourceVersion, uid, creationTimestamp, generation, managedFields) is
// the server's bookkeeping, which the fakes do not keep — the notes say so.
var comparedMetadata = []string{"labels", "annotations", "finalizers", "deletionTimestamp", "ownerReferences"}

func finalDiff(ref, got *race.Outcome) []FieldDiff {
	a, b := leaves(comparable(ref)), leaves(comparable(got))
	paths := map[string]bool{}
	for p := range a {
		paths[p] = true
	}
	for p := range b {
		paths[p] = true
	}
	var out []FieldDiff
	for p := range paths {
		if a[p] != b[p] {
			out = append(out, FieldDiff{Path: p, Got: b[p], Ref: a[p]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func comparable(o *race.Outcome) map[string]any {
	out := map[string]any{}
	if o.Final == nil {
		return out
	}
	for k, v := range o.Final {
		if k != "metadata" && k != "apiVersion" && k != "kind" {
			out[k] = v
		}
	}
	if md, ok := o.Final["metadata"].(map[string]any); ok {
		keep := map[string]any{}
		for _, k := range comparedMetadata {
			if v, ok := md[k]; ok {
				keep[k] = v
			}
		}
		if len(keep) > 0 {
			out["metadata"] = keep
		}
	}
	if o.Deleted {
		out = map[string]any{"(deleted)": true}
	}
	return out
}

// leaves flattens an object into path → JSON value; lists stay whole (a
// list's order and content are what differs).
func leaves(m map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if mm, ok := v.(map[string]any); ok && len(mm) > 0 {
			for k, x := range mm {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, x)
			}
			return
		}
		data, _ := json.Marshal(v)
		out[prefix] = string(data)
	}
	walk("", m)
	return out
}

// WriteText prints the comparison: the answers step by step, one column a
// backend (≠ marks an answer that differs from the reference's), the
// verdicts and lost fields, then where each backend diverges and why.
func (c *Comparison) WriteText(w io.Writer) error {
	ref := c.Runs[0]
	fmt.Fprintf(w, "race %s on %d backends (reference: %s), schedule %s\n\n", c.Scenario, len(c.Runs), ref.Backend,
		strings.Join(scenario.Tokens(ref.Outcome.Schedule), ","))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"step"}
	cols := make([][]race.Step, len(c.Runs))
	rows := 0
	for i, r := range c.Runs {
		head = append(head, string(r.Backend))
		cols[i] = answered(r.Outcome)
		rows = max(rows, len(cols[i]))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for row := 0; row < rows; row++ {
		line := []string{fmt.Sprint(row + 1)}
		for i := range c.Runs {
			cell := "-"
			if row < len(cols[i]) {
				cell = stepLine(cols[i][row])
			}
			if i > 0 && cell != refCell(cols[0], row) {
				cell += " ≠"
			}
			line = append(line, cell)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	summary := func(label string, f func(r *Result) string) {
		line := []string{label}
		for i, r := range c.Runs {
			v := f(r)
			if i > 0 && v != f(ref) {
				v += " ≠"
			}
			line = append(line, v)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	fmt.Fprintln(tw, strings.Repeat("\t", len(c.Runs)))
	summary("verdict", func(r *Result) string { return string(r.Outcome.Verdict) })
	summary("lost", func(r *Result) string { return orDash(strings.Join(lostFields(r.Outcome), ", ")) })
	summary("final RV", func(r *Result) string { return fmt.Sprintf("%q", finalRV(r.Outcome)) })
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, d := range c.Divergences {
		if d.Same() {
			fmt.Fprintf(w, "%s: ran the race as %s did\n", d.Backend, ref.Backend)
		} else {
			fmt.Fprintf(w, "%s diverges from %s:\n", d.Backend, ref.Backend)
		}
		if d.FirstStep > 0 {
			fmt.Fprintf(w, "  first at step %d: %s\n", d.FirstStep, d.Step)
		}
		for _, g := range groupSkips(d.Skipped) {
			fmt.Fprintf(w, "  %s\n", g)
		}
		if d.RefVerdict != "" {
			fmt.Fprintf(w, "  verdict %s (%s: %s)\n", d.Verdict, ref.Backend, d.RefVerdict)
		}
		for _, l := range d.Lost {
			fmt.Fprintf(w, "  lost here only: %s\n", l)
		}
		for _, l := range d.RefLost {
			fmt.Fprintf(w, "  lost on %s only: %s\n", ref.Backend, l)
		}
		for _, f := range d.Final {
			fmt.Fprintf(w, "  final %s: %s (%s: %s)\n", f.Path, orAbsent(f.Got), ref.Backend, orAbsent(f.Ref))
		}
		for _, n := range d.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	return nil
}

func refCell(col []race.Step, row int) string {
	if row < len(col) {
		return stepLine(col[row])
	}
	return "-"
}

func finalRV(o *race.Outcome) string {
	if md, ok := o.Final["metadata"].(map[string]any); ok {
		if rv, ok := md["resourceVersion"].(string); ok {
			return rv
		}
	}
	return ""
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

// groupSkips says "schedule steps 5-8 (b) skipped: it had finished" once
// for a run of steps skipped alike.
func groupSkips(skips []Skip) []string {
	var out []string
	for i := 0; i < len(skips); {
		j := i
		for j+1 < len(skips) && skips[j+1].Token == skips[i].Token && skips[j+1].Why == skips[i].Why && skips[j+1].Step == skips[j].Step+1 {
			j++
		}
		steps := fmt.Sprintf("step %d", skips[i].Step)
		if j > i {
			steps = fmt.Sprintf("steps %d-%d", skips[i].Step, skips[j].Step)
		}
		out = append(out, fmt.Sprintf("schedule %s (%s) skipped: %s", steps, skips[i].Token, skips[i].Why))
		i = j + 1
	}
	return out
}
