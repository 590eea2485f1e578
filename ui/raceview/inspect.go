package raceview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
)

// The inspect panel shows everything about the selected row: the request
// as sent, the server's whole answer, and the version it produced with its
// diff and its managedFields. ←/→ move to the next row with the panel
// open; ↑/↓ (or K/J) scroll it; i or esc closes it.

// Inspecting reports whether the inspect panel is open.
func (m Model) Inspecting() bool { return m.inspect }

// inspectLines is the panel's whole text for the selected step (the
// frame cache's: callers copy before changing it).
func (m Model) inspectLines(w int) []string {
	return cachedLines(m, func(d *frameData) *map[verKey][]string { return &d.inspect }, verKey{i: m.idx, w: w},
		func() []string { return m.renderInspect(w) })
}

// renderInspect is inspectLines for the selected step.
func (m Model) renderInspect(w int) []string {
	st := m.st
	o := m.run.Outcome
	if m.idx < 0 || m.idx >= len(o.Steps) {
		return []string{layout.Rule("inspect", w, st.Heading), st.Faint.Render("  no row selected yet: → steps to the first row")}
	}
	s := o.Steps[m.idx]
	title := fmt.Sprintf("step %d/%d · %s · %s", s.Index+1, len(o.Steps), s.Actor, strings.TrimSpace(report.Lane(s, true, "")))
	out := []string{layout.Rule(title, w, st.Heading)}
	field := func(k, v string) {
		for i, l := range layout.Lines(layout.Wrap(v, max(10, w-17))) {
			if i == 0 {
				out = append(out, "  "+layout.Pad(st.Faint.Render(k), 15)+l)
			} else {
				out = append(out, strings.Repeat(" ", 17)+l)
			}
		}
	}
	section := func(name string) { out = append(out, st.Bold.Render(name)) }
	if s.Purpose != "" {
		field("why", s.Purpose)
	}
	switch s.Kind {
	case "watch":
		section("watch event")
		field("event", s.Event)
		field("cache now at", "RV "+s.RV+" (the server is at "+fmt.Sprint(s.ServerRV)+")")
		return m.inspectVersion(out, s, w)
	case "lister":
		section("lister read (no request: the informer's cache)")
		field("got", listerGot(s)) // lifecycle.go
		return out
	}
	section("request")
	field("method", report.Method(s))
	field("path", requestPath(o.Target, s)) // lifecycle.go
	if s.PatchType != "" {
		field("content type", s.PatchType)
	}
	if s.Verb != api.Get && s.Verb != api.List {
		field("precondition", precondition(s))
		if s.HeldRV != "" {
			field("read copy", "RV "+s.HeldRV+" (what the controller read before this write)")
		}
		if s.FieldManager != "" {
			field("field manager", s.FieldManager)
		}
		if s.PatchType == string(api.ApplyPatch) {
			field("force", fmt.Sprint(s.Force))
		}
	}
	section("answer")
	code := fmt.Sprint(s.Code)
	if s.Reason != "" {
		code += " " + s.Reason
	} else if s.OK() {
		code += " OK"
	}
	field("code", code)
	if s.Message != "" {
		field("message", s.Message)
	}
	for _, c := range s.Causes {
		text := c.Message
		if c.Field != "" {
			text = c.Field + ": " + text
		}
		if c.Type != "" {
			text += " (" + c.Type + ")"
		}
		field("cause", text)
	}
	if s.OK() && s.RV != "" {
		field("object at", "RV "+s.RV)
	}
	out = m.inspectVersion(out, s, w)
	// The body comes last: an update sends the whole object, and the
	// answer should not scroll away behind it.
	if len(s.Body) > 0 {
		out = append(out, st.Bold.Render("request body, as sent"))
		for _, l := range bodyLines(s.Body) {
			out = append(out, layout.Truncate("  "+l, w))
		}
	}
	return out
}

// inspectVersion adds the version the step wrote, with its diff and its
// managedFields (owners, operation, fields).
func (m Model) inspectVersion(out []string, s race.Step, w int) []string {
	st := m.st
	o := m.run.Outcome
	if s.Version < 0 || s.Version >= len(o.Versions) {
		if s.Kind == race.StepRequest && s.OK() && s.Verb != api.Get && s.Verb != api.List {
			out = append(out, st.Bold.Render("version"), "  "+st.Faint.Render("none: the write changed nothing, so the object kept its version"))
		}
		return out
	}
	v := o.Versions[s.Version]
	out = append(out, st.Bold.Render("version it produced: RV "+v.RV))
	var prev map[string]any
	prevRV := ""
	ref := api.RefOf(&unstructured.Unstructured{Object: v.Object})
	for i := s.Version - 1; i >= 0; i-- {
		if api.RefOf(&unstructured.Unstructured{Object: o.Versions[i].Object}) == ref {
			prev, prevRV = o.Versions[i].Object, o.Versions[i].RV
			break
		}
	}
	for _, c := range v.Changes {
		out = append(out, layout.Truncate("  "+report.FormatChange(c), w))
	}
	if len(v.Changes) == 0 && prev != nil {
		out = append(out, m.unchangedLines(prev, v.Object, prevRV, v.RV, w)...)
	}
	out = append(out, "  "+st.Faint.Render("managedFields:"))
	for _, ow := range owners(v.Object) {
		for i, l := range layout.Lines(layout.Wrap(ow.Describe(), max(10, w-6))) {
			lead := "    "
			if i > 0 {
				lead = "      "
			}
			out = append(out, lead+l)
		}
	}
	return out
}

// precondition says in words what the write asked the server to check.
func precondition(s race.Step) string {
	if p, ok := lifecyclePrecondition(s); ok { // lifecycle.go
		return p
	}
	switch p := report.Precondition(s); {
	case s.SentRV != "":
		return p + ": metadata.resourceVersion " + s.SentRV + " is sent; the server refuses the write (409) if the object has moved on"
	case p == "test":
		return "a JSON patch test op: the server refuses the patch (422) if the tested value differs"
	case s.PatchType == string(api.ApplyPatch):
		return "none: apply checks field ownership, not versions"
	}
	return "none (no rv): the server takes the write whatever changed since it was read"
}

// apiPath is the URL path of a request to the target's kind.
func apiPath(target api.Ref, name, sub string) string {
	info, ok := api.Lookup(target.Kind)
	if !ok {
		return name
	}
	base := "/api/" + info.APIVersion
	if info.Resource.Group != "" {
		base = "/apis/" + info.APIVersion
	}
	p := base
	if target.Namespace != "" {
		p += "/namespaces/" + target.Namespace
	}
	p += "/" + info.Resource.Resource + "/" + name
	if sub != "" {
		p += "/" + sub
	}
	return p
}

// bodyLines is a request body indented for reading: JSON pretty-printed,
// anything else (apply's YAML) as sent.
func bodyLines(body []byte) []string {
	var buf bytes.Buffer
	if json.Indent(&buf, body, "", "  ") == nil {
		return layout.Lines(buf.String())
	}
	return layout.Lines(strings.TrimRight(string(body), "\n"))
}

// viewInspect draws the panel into the view's rectangle, scrolled, with
// its keys on the last line.
func (m Model) viewInspect() string {
	lines := m.inspectLines(m.w)
	h := max(1, m.h-1)
	body := scrollLines(lines, m.iscroll, h)
	for len(body) < h {
		body = append(body, "")
	}
	keys := m.st.Faint.Render("←/→ other row · ↑/↓ J/K scroll · i close")
	return layout.FitLines(append(body, keys), m.w, m.h)
}
