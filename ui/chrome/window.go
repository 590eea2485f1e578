package chrome

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// MaxWidth and MaxHeight are the largest window the screens are drawn
// at. A screen's cost grows with its cells (Bubble Tea keeps cell buffers
// of the window, about 230 bytes a cell: 23 MiB at 500×200, 7 MiB here,
// against 0.7 MiB at 100×30), and a terminal's size is whatever its
// client says: an SSH client can ask for 2³¹−1 × 2³¹−1 cells, which no
// process holds. 320×100 is a full-screen terminal on a 1920×1080
// display at a 6×10 font, and more than the widest pane of the course
// uses; a larger window is drawn at this size, in its top left corner,
// and a line under the screen says so.
const (
	MaxWidth  = 320
	MaxHeight = 100
)

// Window is the size a terminal offers and the size its program draws.
// Bound makes one for a program; Bubble Tea's filter and the program's
// Update both run on the program's event loop, so it needs no lock.
type Window struct {
	offerW, offerH int
	// echo is the first size given to Bubble Tea (tea.WithWindowSize),
	// which it sends back as the program's first WindowSizeMsg: that one
	// is already bounded, and is not an offer.
	echo        tea.WindowSizeMsg
	echoPending bool
}

// Bound wraps a program's model so that every window size that reaches
// it, and Bubble Tea's renderer, is at most MaxWidth×MaxHeight: w×h is
// the terminal's size as its program starts (0×0 when not known), and
// the options (a filter on window sizes, and the first size when one is
// known) go to tea.NewProgram with the returned model, after any option
// of the same kind. A program has one filter: the others it needs are
// given here, and run after the bound.
func Bound(inner tea.Model, w, h int, filters ...func(tea.Model, tea.Msg) tea.Msg) (tea.Model, []tea.ProgramOption) {
	win := &Window{}
	opts := []tea.ProgramOption{tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
		msg = win.filter(m, msg)
		for _, f := range filters {
			if msg == nil {
				break
			}
			msg = f(m, msg)
		}
		return msg
	})}
	if w > 0 || h > 0 {
		win.offerW, win.offerH = w, h
		win.echo, win.echoPending = win.drawn(), true
		opts = append(opts, tea.WithWindowSize(win.echo.Width, win.echo.Height))
	}
	return bounded{inner: inner, win: win}, opts
}

// Inner is the model Bound wrapped (m itself when it is not bounded), for
// reading the program's final model.
func Inner(m tea.Model) tea.Model {
	if b, ok := m.(bounded); ok {
		return b.inner
	}
	return m
}

// Fit is the size drawn for a terminal of w×h: at most MaxWidth×MaxHeight,
// a side of 0 (a terminal that does not say) read as 80 columns or 24
// rows, as terminals and Bubble Tea do.
func Fit(w, h int) (int, int) {
	if w <= 0 {
		w = MinWidth
	}
	if h <= 0 {
		h = MinHeight
	}
	return min(w, MaxWidth), min(h, MaxHeight)
}

// over reports whether the terminal offers more than is drawn.
func (win *Window) over() bool {
	return win.offerW > MaxWidth || win.offerH > MaxHeight
}

// drawn is the size the renderer is given: the screen, and the notice's
// line under it when the terminal is larger than the screen — taken from
// the rows the bound freed, or from the screen's last row when only the
// width was bounded.
func (win *Window) drawn() tea.WindowSizeMsg {
	w, h := Fit(win.offerW, win.offerH)
	if win.over() && win.offerH > MaxHeight {
		h++
	}
	return tea.WindowSizeMsg{Width: w, Height: h}
}

// screen is the size the wrapped model is given.
func (win *Window) screen() tea.WindowSizeMsg {
	d := win.drawn()
	if win.over() {
		d.Height--
	}
	return d
}

// Resize is a terminal's new size, as the program's owner sends it (an
// SSH session's window change, a terminal's SIGWINCH). Bubble Tea drops a
// WindowSizeMsg it finds implausible (over 4096 a side) before any filter
// sees it, so such a resize would leave the screen at its old size
// without a word; a Resize always reaches the bound.
type Resize struct{ Width, Height int }

// filter bounds every window size before Bubble Tea's renderer and the
// model see it.
func (win *Window) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	var size tea.WindowSizeMsg
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		size = m
	case Resize:
		// The echo may still be on its way (Bubble Tea sends it from a
		// goroutine of its own): it stays expected.
		win.offerW, win.offerH = m.Width, m.Height
		return win.drawn()
	default:
		return msg
	}
	if win.echoPending && size == win.echo {
		win.echoPending = false
		return size
	}
	win.offerW, win.offerH = size.Width, size.Height
	return win.drawn()
}

// Notice is the line under a bounded screen.
func (win *Window) Notice() string {
	s := win.screen()
	return fmt.Sprintf("This terminal is %d×%d: Conflict Lab draws at most %d×%d, here %d×%d in the top left corner.",
		win.offerW, win.offerH, MaxWidth, MaxHeight, s.Width, s.Height)
}

type bounded struct {
	inner tea.Model
	win   *Window
}

func (b bounded) Init() tea.Cmd { return b.inner.Init() }

func (b bounded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		msg = b.win.screen()
	}
	var cmd tea.Cmd
	b.inner, cmd = b.inner.Update(msg)
	return b, cmd
}

func (b bounded) View() tea.View {
	v := b.inner.View()
	if !b.win.over() {
		return v
	}
	d := b.win.drawn()
	line := ansi.Truncate(b.win.Notice(), d.Width, "…")
	if b.win.screen().Height > 0 {
		line = "\n" + line
	}
	v.Content += line
	return v
}
