package sandbox

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/userfile"
)

type promptKind int

const (
	savePrompt promptKind = iota
	loadPrompt
	exportPrompt
)

// prompt asks for a file name, then, if the file exists and is to be
// written, whether to overwrite it.
type prompt struct {
	kind    promptKind
	input   textinput.Model
	confirm bool
	// data is what will be written once the overwrite is confirmed.
	data []byte
	path string
	err  string
	// shareText, when set, is what a save writes: a level's text.
	shareText string
}

func (p *prompt) verb() string {
	return [...]string{"save", "load", "export"}[p.kind]
}

func (m *Model) openPrompt(k promptKind) {
	ti := textinput.New()
	s := textinput.DefaultStyles(m.st.Dark)
	s.Cursor.Blink = false
	ti.SetStyles(s)
	ti.Prompt = "› "
	switch k {
	case savePrompt:
		name := m.file
		if name == "" {
			name = m.sc.Name + ".yaml"
		}
		ti.SetValue(name)
	case exportPrompt:
		ti.SetValue(m.sc.Name + ".md")
	case loadPrompt:
		// A pasted level's text is bounded like any level's.
		ti.CharLimit = 4 * level.MaxText
	}
	ti.CursorEnd()
	ti.Focus()
	m.prompt = &prompt{kind: k, input: ti}
	m.stopAuto()
}

func (m Model) promptKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	p := m.prompt
	k := m.Keys
	if p.confirm {
		switch {
		case key.Matches(msg, k.Yes):
			p.confirm = false
			return m, writeFile(m.env, p.kind, p.path, p.data, true)
		case key.Matches(msg, k.No):
			p.confirm, p.err = false, "not overwritten: give another name"
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Back):
		m.prompt = nil
		return m, nil
	case key.Matches(msg, k.Enter):
		path := strings.TrimSpace(p.input.Value())
		if path == "" {
			p.err = "type a file name"
			return m, nil
		}
		p.path, p.err = path, ""
		if p.kind == loadPrompt {
			return m, loadFile(m.env, path)
		}
		data, err := m.fileData(p.kind, path)
		if err != nil {
			p.err = err.Error()
			return m, nil
		}
		p.data = data
		return m, writeFile(m.env, p.kind, path, data, false)
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return m, cmd
}

// fileWritten is a save or an export carried out off the UI loop.
type fileWritten struct {
	kind   promptKind
	path   string
	exists bool // not written: the file is there, and overwrite was not asked
	err    error
}

func (fileWritten) sandboxMsg() {}

// writeFile writes in a command: Update never touches a file, which could
// be a FIFO that waits for a reader (and the screen with it).
func writeFile(env Env, k promptKind, path string, data []byte, overwrite bool) tea.Cmd {
	return func() tea.Msg {
		var err error
		if overwrite {
			// Never os.WriteFile: on a FIFO it would wait for a reader.
			err = userfile.Overwrite(env.resolve(path), data)
		} else {
			err = writeNew(env.resolve(path), data)
		}
		if errors.Is(err, fs.ErrExist) {
			return fileWritten{kind: k, path: path, exists: true}
		}
		return fileWritten{kind: k, path: path, err: err}
	}
}

func (m Model) onWritten(msg fileWritten) Model {
	p := m.prompt
	if p == nil || p.kind != msg.kind || p.path != msg.path {
		return m // the prompt was closed or changed meanwhile
	}
	switch {
	case msg.exists:
		p.confirm = true // never overwrite without asking
	case msg.err != nil:
		p.err = msg.err.Error()
	default:
		m.wrote(p)
	}
	return m
}

// writeNew creates path with data, failing with fs.ErrExist if it is
// there: the check and the creation are one system call, so no file that
// appears between them is clobbered.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (m *Model) wrote(p *prompt) {
	m.prompt = nil
	switch p.kind {
	case savePrompt:
		if p.shareText != "" {
			m.setNotice(false, "the level's text is in %s · conflictlab sandbox --level \"$(cat %s)\" opens it", p.path, p.path)
			return
		}
		m.file = p.path
		m.markClean()
		m.setNotice(false, "%s saved to %s · conflictlab sandbox -f %s opens it", m.sc.Name, p.path, p.path)
	case exportPrompt:
		m.setNotice(false, "the run so far (%d turns) is in %s", len(m.play.taken()), p.path)
	}
}

// fileData is what Save (the scenario, with the schedule played so far)
// or Export (the run so far: markdown with a Mermaid diagram for .md, the
// aligned text timeline otherwise) writes.
func (m Model) fileData(k promptKind, path string) ([]byte, error) {
	if k == savePrompt && m.prompt != nil && m.prompt.shareText != "" {
		return []byte(m.prompt.shareText), nil
	}
	if k == savePrompt {
		sc := draft.Clone(m.sc)
		sc.Schedule = append([]scenario.Move(nil), m.play.taken()...)
		return scenario.Marshal(sc)
	}
	out := m.play.out
	if m.playing() {
		// The challenge's race as it stands on its stage.
		out = nil
		if r := m.chal.play.Race().Run(); r != nil {
			out = r.Outcome
		}
	}
	if out == nil {
		return nil, errors.New("there is no run to export: the race cannot run, or the challenge has no race on show yet")
	}
	var b bytes.Buffer
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md":
		err = report.Markdown(&b, out)
	case ".svg":
		err = report.SVG(&b, out)
	default:
		err = report.Text(&b, out)
	}
	return b.Bytes(), err
}

// fileLoaded is a scenario file read and parsed off the UI loop: a path
// can name a FIFO or a device, and Update must never wait on a file.
type fileLoaded struct {
	path  string
	sc    *scenario.Scenario
	level *level.Level
	err   error
}

func (fileLoaded) sandboxMsg() {}

// loadFile reads the file in a command; level.Load reads only a regular
// file, of at most scenario.MaxFileSize: a scenario, or a level. What
// starts with a level's prefix is a level's text, pasted, not a file.
func loadFile(env Env, path string) tea.Cmd {
	return func() tea.Msg {
		var l *level.Level
		var err error
		if strings.HasPrefix(path, level.Prefix) {
			l, err = level.Decode(path)
		} else {
			l, err = level.Load(env.resolve(path))
		}
		if err != nil {
			return fileLoaded{path: path, err: err}
		}
		return fileLoaded{path: path, sc: l.Race, level: l}
	}
}

func (m Model) onLoaded(msg fileLoaded) Model {
	p := m.prompt
	if p == nil || p.kind != loadPrompt || p.path != msg.path {
		// The prompt was closed (or another name given) meanwhile.
		return m
	}
	err := msg.err
	from := msg.path
	if strings.HasPrefix(from, level.Prefix) {
		from, msg.path = "a level's text", ""
	}
	if err == nil {
		err = m.OpenLevel(msg.level, msg.path)
	}
	if err != nil {
		p.err = err.Error()
		return m
	}
	m.prompt = nil
	m.setNotice(false, "loaded %s from %s", termsafe.Escape(msg.level.Title), from)
	return m
}

// promptLines draw the open prompt at the bottom of the sandbox.
func (m Model) promptLines() []string {
	st := m.st
	p := m.prompt
	var lines []string
	about := map[promptKind]string{
		savePrompt:   "Save the race as a scenario file (with the steps played so far as its schedule):",
		loadPrompt:   "Load a scenario or level file (a race saved here, an example), or paste a level's text (clab1:…):",
		exportPrompt: "Export the run so far: a name ending .svg gets a picture of the race view (for slides), .md a markdown transcript with a Mermaid diagram, any other the aligned text timeline:",
	}[p.kind]
	lines = append(lines, layout.Rule("", m.w, st.Border))
	lines = append(lines, hang(about, m.w, 0)...)
	if p.confirm {
		for _, l := range hang(styles.Warn+" "+p.path+" exists: overwrite it? y overwrites · n keeps it", m.w, 2) {
			lines = append(lines, st.Warn.Render(l))
		}
		return lines
	}
	p.input.SetWidth(max(10, m.w-4))
	lines = append(lines, p.input.View())
	if p.err != "" {
		for _, l := range hang(styles.Bad+" "+p.err, m.w, 2) {
			lines = append(lines, st.Bad.Render(l))
		}
	}
	return lines
}
