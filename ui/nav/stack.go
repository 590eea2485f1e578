package nav

import (
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/styles"
)

// Stack is the screens on show, the bottom one first, and those kept to
// come back to: a value, like the models it holds (every change copies
// what it changes, so an older root model still draws what it drew).
// The stack sizes and styles every screen it holds, and gives each new
// one the size and styles it has.
type Stack struct {
	entries []entry
	kept    map[string]Screen
	w, h    int
	st      *styles.Styles
}

type entry struct {
	name   string
	keep   bool
	screen Screen
}

// NewStack is a stack of one screen, the bottom one.
func NewStack(name string, s Screen, st *styles.Styles) Stack {
	return Stack{entries: []entry{{name: name, screen: s.SetStyles(st)}}, st: st}
}

// Top is the screen on top.
func (s Stack) Top() Screen { return s.entries[len(s.entries)-1].screen }

// Name is the name of the screen on top.
func (s Stack) Name() string { return s.entries[len(s.entries)-1].name }

// Depth is how many screens are on the stack.
func (s Stack) Depth() int { return len(s.entries) }

// Names are the names on the stack, the bottom one first (tests).
func (s Stack) Names() []string {
	out := make([]string, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.name
	}
	return out
}

// Find is the screen of that name, on the stack or kept.
func (s Stack) Find(name string) (Screen, bool) {
	for _, e := range s.entries {
		if e.name == name {
			return e.screen, true
		}
	}
	k, ok := s.kept[name]
	return k, ok
}

func (s Stack) fit(x Screen) Screen { return x.SetStyles(s.st).SetSize(s.w, s.h) }

// Push carries out p (see Push); the commands are the new screen's first
// and those of the screens that leave the top.
func (s Stack) Push(p Push) (Stack, tea.Cmd) {
	var cmds []tea.Cmd
	at := -1
	for i, e := range s.entries {
		if e.name == p.Name {
			at = i
		}
	}
	if at >= 0 && p.Keep {
		// Back to it as it was: the screens above it leave.
		for len(s.entries) > at+1 {
			var cmd tea.Cmd
			s, cmd = s.pop()
			cmds = append(cmds, cmd)
		}
		return s, tea.Batch(cmds...)
	}
	if at >= 0 {
		for len(s.entries) > at {
			var cmd tea.Cmd
			s, cmd = s.pop()
			cmds = append(cmds, cmd)
		}
	} else if len(s.entries) > 0 {
		cmds = append(cmds, s.Top().Leave())
	}
	x, first := s.make(p)
	s.entries = append(s.entries[:len(s.entries):len(s.entries)], entry{name: p.Name, keep: p.Keep, screen: x})
	return s, tea.Batch(append(cmds, first)...)
}

// make is p's screen: the one kept under its name, or a new one.
func (s *Stack) make(p Push) (Screen, tea.Cmd) {
	if x, ok := s.kept[p.Name]; ok && p.Keep {
		s.kept = without(s.kept, p.Name)
		return s.fit(x), nil
	}
	x, cmd := p.New(s.st)
	return s.fit(x), cmd
}

// Replace puts p's screen in place of the one on top.
func (s Stack) Replace(p Push) (Stack, tea.Cmd) {
	var leave tea.Cmd
	if len(s.entries) > 0 {
		s, leave = s.pop()
	}
	next, cmd := s.Push(p)
	return next, tea.Batch(leave, cmd)
}

// Pop takes the top screen off, unless it is the bottom one.
func (s Stack) Pop() (Stack, tea.Cmd) {
	if len(s.entries) < 2 {
		return s, nil
	}
	return s.pop()
}

// Home pops every screen but the bottom one.
func (s Stack) Home() (Stack, tea.Cmd) {
	var cmds []tea.Cmd
	for len(s.entries) > 1 {
		var cmd tea.Cmd
		s, cmd = s.pop()
		cmds = append(cmds, cmd)
	}
	return s, tea.Batch(cmds...)
}

// pop takes the top off, keeping it when it is to be kept.
func (s Stack) pop() (Stack, tea.Cmd) {
	n := len(s.entries) - 1
	e := s.entries[n]
	s.entries = s.entries[:n:n]
	if e.keep {
		kept := make(map[string]Screen, len(s.kept)+1)
		for k, v := range s.kept {
			kept[k] = v
		}
		kept[e.name] = e.screen
		s.kept = kept
	}
	return s, e.screen.Leave()
}

func without(m map[string]Screen, name string) map[string]Screen {
	out := make(map[string]Screen, len(m))
	for k, v := range m {
		if k != name {
			out[k] = v
		}
	}
	return out
}

// UpdateTop gives msg (a key, the mouse) to the screen on top.
func (s Stack) UpdateTop(msg tea.Msg) (Stack, tea.Cmd) {
	s.entries = append([]entry(nil), s.entries...)
	e := &s.entries[len(s.entries)-1]
	var cmd tea.Cmd
	e.screen, cmd = e.screen.Update(msg)
	return s, cmd
}

// Update gives msg to every screen the stack holds, on it or kept: each
// takes its own messages (a race computed, an explorer's count) and
// ignores the others, so that work a screen started goes on while
// another is on top.
func (s Stack) Update(msg tea.Msg) (Stack, tea.Cmd) {
	var cmds []tea.Cmd
	s.each(func(x Screen) Screen {
		next, cmd := x.Update(msg)
		cmds = append(cmds, cmd)
		return next
	})
	return s, tea.Batch(cmds...)
}

// each replaces every screen x the stack holds with f(x).
func (s *Stack) each(f func(Screen) Screen) {
	s.entries = append([]entry(nil), s.entries...)
	for i := range s.entries {
		s.entries[i].screen = f(s.entries[i].screen)
	}
	if len(s.kept) > 0 {
		kept := make(map[string]Screen, len(s.kept))
		for k, v := range s.kept {
			kept[k] = f(v)
		}
		s.kept = kept
	}
}

// SetSize sizes every screen.
func (s Stack) SetSize(w, h int) Stack {
	s.w, s.h = w, h
	s.each(func(x Screen) Screen { return x.SetSize(w, h) })
	return s
}

// SetStyles restyles every screen.
func (s Stack) SetStyles(st *styles.Styles) Stack {
	s.st = st
	s.each(func(x Screen) Screen { return x.SetStyles(st) })
	return s
}

// Leave is every screen's Leave, for the end of the program: the top
// one's first.
func (s Stack) Leave() []tea.Cmd {
	var out []tea.Cmd
	for i := len(s.entries) - 1; i >= 0; i-- {
		out = append(out, s.entries[i].screen.Leave())
	}
	for _, k := range s.kept {
		out = append(out, k.Leave())
	}
	return out
}
