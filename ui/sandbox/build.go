package sandbox

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

type rowKind int

const (
	rowName rowKind = iota
	rowKindChoice
	rowObject
	rowController
	rowSetting
	rowMutation
	rowAddMutation
	rowAddController
	rowInvariant
	rowAddInvariant
)

// row is one line of the editor.
type row struct {
	kind    rowKind
	ctl     int
	mut     int // the mutation's index, or the invariant's
	setting draft.Setting
}

// buildState is the editor: a flat list of rows, one of them perhaps
// being typed in.
type buildState struct {
	cursor, scroll int
	// input edits one line (a name, a mutation); area edits the object.
	input  *textinput.Model
	area   *textarea.Model
	target row
	err    string
}

func (b buildState) editing() bool { return b.input != nil || b.area != nil }

// rows lists the editor's lines: the race, its object, and each
// controller's name, read, mutations and write settings, in the order a
// reconcile does them.
func (m Model) rows() []row {
	rs := []row{{kind: rowName}, {kind: rowKindChoice}, {kind: rowObject}}
	for i, c := range m.sc.Controllers {
		rs = append(rs, row{kind: rowController, ctl: i})
		for _, s := range draft.Settings {
			if !s.Shown(m.sc, i) {
				continue
			}
			rs = append(rs, row{kind: rowSetting, ctl: i, setting: s})
			if s.Key == "read" {
				for k := range c.Mutations {
					rs = append(rs, row{kind: rowMutation, ctl: i, mut: k})
				}
				rs = append(rs, row{kind: rowAddMutation, ctl: i})
			}
		}
	}
	if len(m.sc.Controllers) < draft.MaxControllers {
		rs = append(rs, row{kind: rowAddController})
	}
	for i := range m.sc.Invariants {
		rs = append(rs, row{kind: rowInvariant, mut: i})
	}
	if len(m.sc.Invariants) < scenario.LimitInvariants {
		rs = append(rs, row{kind: rowAddInvariant})
	}
	return rs
}

// locked says why a row cannot be changed now ("" when it can): during
// a challenge the race is the level's, played in the race tab.
func (m Model) locked(r row) string {
	if m.playing() {
		return "the race is the challenge's: play it in the race tab (esc leaves the challenge)"
	}
	return ""
}

func (m Model) buildKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	rs := m.rows()
	m.build.cursor = min(m.build.cursor, len(rs)-1)
	r := rs[m.build.cursor]
	switch {
	case key.Matches(msg, k.Up):
		m.build.cursor = max(0, m.build.cursor-1)
		m.notice = ""
		return m, nil
	case key.Matches(msg, k.Down):
		m.build.cursor = min(len(rs)-1, m.build.cursor+1)
		m.notice = ""
		return m, nil
	}
	change := key.Matches(msg, k.Left, k.Right, k.Enter, k.Delete)
	if !change {
		return m, nil
	}
	if why := m.locked(r); why != "" {
		m.setNotice(true, "locked: %s", why)
		return m, nil
	}
	delta := 1
	if key.Matches(msg, k.Left) {
		delta = -1
	}
	var err error
	switch {
	case key.Matches(msg, k.Delete):
		switch r.kind {
		case rowMutation:
			muts := m.sc.Controllers[r.ctl].Mutations
			if len(muts) == 1 {
				m.setNotice(true, "a controller needs at least one mutation: edit this one instead")
				return m, nil
			}
			m.sc.Controllers[r.ctl].Mutations = append(muts[:r.mut:r.mut], muts[r.mut+1:]...)
		case rowController:
			err = draft.RemoveController(m.sc, r.ctl)
		case rowInvariant:
			draft.RemoveInvariant(m.sc, r.mut)
		default:
			return m, nil
		}
	case r.kind == rowKindChoice:
		kinds := draft.Kinds
		at := 0
		for i, kd := range kinds {
			if kd == draft.Kind(m.sc) {
				at = i
			}
		}
		next := kinds[((at+delta)%len(kinds)+len(kinds))%len(kinds)]
		draft.SetKind(m.sc, next)
		m.changed()
		m.setNotice(false, "the object and every controller's mutations are %s's defaults now", next)
		return m, nil
	case r.kind == rowSetting && !r.setting.Free:
		err = r.setting.Cycle(m.sc, r.ctl, delta)
	case r.kind == rowAddController && key.Matches(msg, k.Enter):
		err = draft.AddController(m.sc, m.reservedNames()...)
	case key.Matches(msg, k.Enter):
		m.startEdit(r)
		return m, nil
	default:
		return m, nil
	}
	if err != nil {
		m.setNotice(true, "%v", err)
		return m, nil
	}
	m.changed()
	return m, nil
}

// changed follows an edit: the race restarts (its schedule may name a
// controller that is gone) and the explorer's tally no longer applies.
func (m *Model) changed() {
	m.notice = ""
	if err := draft.Check(m.sc); err != nil {
		m.setNotice(true, "%v", err)
	}
	m.ex = exploreState{}
	m.restart()
}

// startEdit opens a text field on a row.
func (m *Model) startEdit(r row) {
	b := &m.build
	b.target, b.err = r, ""
	if r.kind == rowObject {
		ta := textarea.New()
		s := textarea.DefaultStyles(m.st.Dark)
		s.Cursor.Blink = false
		ta.SetStyles(s)
		ta.ShowLineNumbers = false
		ta.Prompt = "│ "
		ta.CharLimit = 0
		ta.MaxHeight = 0
		ta.SetValue(draft.ObjectYAML(m.sc))
		ta.MoveToBegin()
		ta.Focus()
		b.area = &ta
		return
	}
	ti := textinput.New()
	s := textinput.DefaultStyles(m.st.Dark)
	s.Cursor.Blink = false
	ti.SetStyles(s)
	ti.Prompt = "› "
	switch r.kind {
	case rowName:
		ti.SetValue(m.sc.Name)
	case rowController:
		ti.SetValue(m.sc.Controllers[r.ctl].Name)
	case rowSetting:
		ti.SetValue(r.setting.Get(m.sc, r.ctl))
	case rowMutation:
		ti.SetValue(draft.FormatMutation(m.sc.Controllers[r.ctl].Mutations[r.mut]))
	case rowAddMutation:
		ti.Placeholder = "set data.key = value (tab completes)"
	case rowInvariant:
		ti.SetValue(draft.FormatInvariant(m.sc.Invariants[r.mut], m.sc))
	case rowAddInvariant:
		ti.Placeholder = "name " + m.sc.Objects[0].GetName() + " is 1: why it must hold"
	}
	if r.kind == rowMutation || r.kind == rowAddMutation {
		// Tab completes the change as it is typed (draft.Complete).
		ti.ShowSuggestions = true
		ti.SetSuggestions(draft.Complete(ti.Value(), m.sc))
	}
	ti.CursorEnd()
	ti.Focus()
	b.input = &ti
}

func (m *Model) stopEdit() {
	m.build.input, m.build.area, m.build.err = nil, nil, ""
}

func (m Model) editKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	b := &m.build
	switch {
	case key.Matches(msg, m.Keys.Back):
		m.stopEdit()
		return m, nil
	case b.area != nil && key.Matches(msg, m.Keys.Commit), b.input != nil && key.Matches(msg, m.Keys.Enter):
		if err := m.commitEdit(); err != nil {
			b.err = err.Error()
			return m, nil
		}
		m.stopEdit()
		m.changed()
		return m, nil
	}
	var cmd tea.Cmd
	if b.area != nil {
		ta, c := b.area.Update(msg)
		b.area, cmd = &ta, c
	} else {
		ti, c := b.input.Update(msg)
		if ti.ShowSuggestions {
			ti.SetSuggestions(draft.Complete(ti.Value(), m.sc))
		}
		b.input, cmd = &ti, c
	}
	return m, cmd
}

// commitEdit applies the text typed to the row being edited.
func (m *Model) commitEdit() error {
	r := m.build.target
	if m.build.area != nil {
		return draft.SetObjectYAML(m.sc, m.build.area.Value())
	}
	v := strings.TrimSpace(m.build.input.Value())
	switch r.kind {
	case rowName:
		if v == "" {
			return fmt.Errorf("the race needs a name")
		}
		m.sc.Name = v
	case rowController:
		return draft.Rename(m.sc, r.ctl, v)
	case rowSetting:
		return r.setting.Set(m.sc, r.ctl, v)
	case rowMutation, rowAddMutation:
		mu, err := draft.ParseMutation(v, draft.Kind(m.sc))
		if err != nil {
			return err
		}
		c := &m.sc.Controllers[r.ctl]
		if r.kind == rowMutation {
			c.Mutations[r.mut] = mu
		} else {
			c.Mutations = append(c.Mutations, mu)
		}
	case rowInvariant, rowAddInvariant:
		i := r.mut
		if r.kind == rowAddInvariant {
			i = len(m.sc.Invariants)
		}
		return draft.SetInvariant(m.sc, i, v)
	}
	return nil
}

// summary is the object in one line: its name and its top-level fields.
func summary(obj map[string]any) string {
	var parts []string
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "apiVersion" || k == "kind" || k == "metadata" {
			continue
		}
		if sub, ok := obj[k].(map[string]any); ok {
			var fs []string
			for f := range sub {
				fs = append(fs, f)
			}
			sort.Strings(fs)
			parts = append(parts, k+": "+strings.Join(fs, ", "))
		} else {
			parts = append(parts, k)
		}
	}
	name, _ := obj["metadata"].(map[string]any)["name"].(string)
	return name + " · " + strings.Join(parts, " · ")
}

// label and value of a row, and what it means.
func (m Model) describeRow(r row) (section, label, value, explain string) {
	sc := m.sc
	switch r.kind {
	case rowName:
		return "race", "name", sc.Name, "the race's name: Save suggests it as the file name, exports use it as the title"
	case rowKindChoice:
		k := draft.Kind(sc)
		return "object", "kind", string(k), string(k) + ": " + draft.KindExplain[k] + " (changing it resets the object and the mutations)"
	case rowObject:
		return "", "content", summary(sc.Objects[0].Object), "the object as it is before the race: enter edits its YAML"
	case rowController:
		c := sc.Controllers[r.ctl]
		return c.Name, "name", c.Name, "its name: its lane and its schedule token; in the race tab " + m.stepKeysText(r.ctl) + " · d removes it"
	case rowSetting:
		return "", r.setting.Label, r.setting.Get(sc, r.ctl), r.setting.Label + ": " + r.setting.Explain(sc, r.ctl)
	case rowMutation:
		mu := sc.Controllers[r.ctl].Mutations[r.mut]
		return "", fmt.Sprintf("change %d", r.mut+1), draft.FormatMutation(mu),
			"it " + draft.ExplainMutation(mu) + dependsNote(mu.DependsOnRead()) + " · enter edits it · d removes it"
	case rowAddMutation:
		return "", "+ change", "", "enter adds a change to the copy it read: " + draft.MutationSyntax
	case rowAddController:
		return "+ controller", "", "", fmt.Sprintf("enter adds a controller (a race has at most %d)", draft.MaxControllers)
	case rowInvariant:
		section := ""
		if r.mut == 0 {
			section = "must hold"
		}
		return section, fmt.Sprintf("invariant %d", r.mut+1), draft.FormatInvariant(sc.Invariants[r.mut], sc),
			"what must be true when the race ends, whatever else happened; a race that breaks it ends ⚠ · enter edits it · d removes it"
	case rowAddInvariant:
		section := ""
		if len(sc.Invariants) == 0 {
			section = "must hold"
		}
		return section, "+ invariant", "", "enter adds an invariant: " + draft.InvariantSyntax
	}
	return "", "", "", ""
}

func dependsNote(depends bool) string {
	if depends {
		return " (depends on the value read: safe only with a conditional write)"
	}
	return ""
}

func (m Model) viewBuild(w, h int) string {
	st := m.st
	rs := m.rows()
	cur := min(m.build.cursor, len(rs)-1)
	secW, labW := 13, 14
	// Each row is a block: a value too long for its column wraps under
	// itself, never cut.
	var blocks [][]string
	for i, r := range rs {
		section, label, value, _ := m.describeRow(r)
		if r.kind == rowController {
			section = st.Lane(r.ctl).Render(section)
		}
		locked := m.locked(r) != ""
		choice := r.kind == rowKindChoice || r.kind == rowSetting && !r.setting.Free
		switch {
		case i == cur && choice && !locked:
			value = "‹ " + value + " ›"
		case locked:
			value = st.Faint.Render(value)
		}
		lead := "  "
		if i == cur {
			lead = st.Accent.Render(styles.Cursor) + " "
			label = st.Selected.Render(label)
		}
		indent := 2 + secW + labW
		head := lead + layout.Pad(section, secW) + layout.Pad(label, labW)
		if w-indent < 12 {
			// Too narrow for columns: the value under its label.
			blocks = append(blocks, append([]string{layout.Truncate(head, w)}, hang("    "+value, w, 6)...))
			continue
		}
		vals := hang(value, w-indent, 2)
		block := []string{head + vals[0]}
		for _, v := range vals[1:] {
			block = append(block, strings.Repeat(" ", indent)+v)
		}
		blocks = append(blocks, block)
	}
	foot := m.buildFooter(rs[cur], w)
	if m.build.area != nil {
		// The object's YAML takes the body; the footer says how to leave.
		m.build.area.SetWidth(w)
		m.build.area.SetHeight(max(3, h-len(foot)-1))
		head := st.Heading.Render("Object before the race") + st.Faint.Render(" · YAML · ctrl+s keeps it, esc drops the edit")
		return layout.Fit(strings.Join(hang(head, w, 2), "\n")+"\n"+m.build.area.View()+"\n"+strings.Join(foot, "\n"), w, h)
	}
	listH := max(1, h-len(foot)-1)
	// Keep the cursor's row in view, with a row of context below it.
	height := func(a, b int) int {
		n := 0
		for i := a; i <= b; i++ {
			n += len(blocks[i])
		}
		return n
	}
	last := min(len(blocks)-1, cur+1)
	first := 0
	for height(first, last) > listH && first < cur {
		first++
	}
	for last+1 < len(blocks) && height(first, last+1) <= listH {
		last++
	}
	var lines []string
	for i := first; i <= last; i++ {
		lines = append(lines, blocks[i]...)
	}
	return layout.Fit(strings.Join(lines, "\n"), w, listH) + "\n" + layout.Rule("", w, st.Border) + "\n" + strings.Join(foot, "\n")
}

// buildFooter explains the row under the cursor, or holds the text field
// being typed in. Everything wraps, with a hanging indent.
func (m Model) buildFooter(r row, w int) []string {
	st := m.st
	_, label, _, explain := m.describeRow(r)
	var out []string
	if r.kind == rowController || r.kind == rowSetting || r.kind == rowMutation || r.kind == rowAddMutation {
		c := m.sc.Controllers[r.ctl]
		plan := hang(c.Name+": "+draft.PlanLine(c.Program), w, len(c.Name)+2)
		out = append(out, st.Lane(r.ctl).Render(c.Name)+st.Faint.Render(strings.TrimPrefix(plan[0], c.Name)))
		for _, l := range plan[1:] {
			out = append(out, st.Faint.Render(l))
		}
	}
	if why := m.locked(r); why != "" {
		explain = "locked: " + why
	}
	if m.build.input != nil {
		m.build.input.SetWidth(max(10, w-len(label)-6))
		out = append(out, st.Bold.Render(label)+" "+m.build.input.View())
		if m.build.err != "" {
			for _, l := range hang(styles.Bad+" "+m.build.err, w, 2) {
				out = append(out, st.Bad.Render(l))
			}
		}
		switch r.kind {
		case rowMutation, rowAddMutation:
			explain = "tab completes · " + draft.MutationSyntax
		case rowInvariant, rowAddInvariant:
			explain = draft.InvariantSyntax
		}
	} else if m.build.area != nil && m.build.err != "" {
		for _, l := range hang(styles.Bad+" "+m.build.err, w, 2) {
			out = append(out, st.Bad.Render(l))
		}
	}
	for _, l := range hang(explain, w, 2) {
		out = append(out, st.Faint.Render(l))
	}
	return out
}
