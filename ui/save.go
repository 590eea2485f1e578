package ui

import (
	"errors"
	"io/fs"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// The learner's progress: the screens read the one Progress of the
// session and send what changes (a progress.Change); the root applies it
// here, on the UI loop, tells the screens (a screen that draws from the
// progress draws again), and saves a copy in a command.

// saved reports a progress write.
type saved struct{ err error }

// record applies a screen's change and saves.
func (m Model) record(c progress.Change) (tea.Model, tea.Cmd) {
	if m.prog == nil {
		return m, nil // no course, no progress (a change sent before the load cannot happen)
	}
	m.prog.Apply(c)
	var told tea.Cmd
	m.stack, told = m.stack.Update(c)
	return m, tea.Batch(told, m.save())
}

// save copies the progress now, on the UI loop (so no other goroutine
// reads it while it changes), and writes the copy in a command: it is
// encoded once, when the store merges it into the file.
func (m *Model) save() tea.Cmd {
	if m.prog == nil || m.store == nil && m.o.Observe == nil {
		return nil
	}
	cp := m.prog.Clone()
	m.saveSeq++
	if m.o.Observe != nil {
		m.observe(cp)
	}
	seq, store := m.saveSeq, m.store
	if store == nil {
		return nil
	}
	return func() tea.Msg { return saved{err: store.WriteCopy(seq, cp)} }
}

// onSaved puts a failed save in the header, where it stays until a save
// works.
func (m Model) onSaved(msg saved) Model {
	m.status = ""
	if msg.err != nil && !errors.Is(msg.err, progress.ErrReadOnly) {
		m.status = styles.Warn + " progress not saved: " + saveProblem(msg.err)
	}
	return m
}

// saveProblem says why a save failed, the reason first: the header may
// have room only for the start ("permission denied in DIR" rather than
// "open DIR/.progress.json.tmp-123: permission denied").
func saveProblem(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error() + " in " + filepath.Dir(pe.Path)
	}
	return err.Error()
}

// saveOnExit writes the final model's progress once the program has
// ended, however it ended: a save still running as a command when the
// program quits would die with the process.
func saveOnExit(final tea.Model) error {
	m, ok := final.(Model)
	if !ok || m.store == nil || m.prog == nil {
		return nil
	}
	if err := m.store.WriteCopy(m.saveSeq+1, m.prog.Clone()); err != nil && !errors.Is(err, progress.ErrReadOnly) {
		return err
	}
	return nil
}

// Activity is what Observe is told: the screen on top, the lesson and
// step when it is a lesson, and a copy of the progress when it has just
// changed (nil otherwise; the copy is the receiver's, which must not
// change it: the store writes the same one).
type Activity struct {
	Screen   string
	Lesson   string
	Step     int
	Progress *progress.Progress
}

// observe tells o.Observe where the learner is, when that changed or a
// copy of the progress (just changed) is given.
func (m Model) observe(p *progress.Progress) {
	where := m.stack.Top().Where()
	a := Activity{Screen: m.Screen(), Lesson: where.Lesson, Step: where.Step, Progress: p}
	last := m.observed
	if p == nil && a.Screen == last.Screen && a.Lesson == last.Lesson && a.Step == last.Step {
		return
	}
	*m.observed = Activity{Screen: a.Screen, Lesson: a.Lesson, Step: a.Step}
	m.o.Observe(a)
}

// leaveOnExit runs what every screen keeps between runs once the program
// has ended (the sandbox writes its race), and returns what they had to
// say of it.
func leaveOnExit(final tea.Model) []string {
	m, ok := final.(Model)
	if !ok {
		return nil
	}
	var said []string
	var run func(tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		case nav.Note:
			said = append(said, msg.Text)
		}
	}
	for _, cmd := range m.stack.Leave() {
		run(cmd)
	}
	return said
}
