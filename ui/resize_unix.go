//go:build unix

package ui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/conflictlab/conflictlab/ui/chrome"
)

// readsOwnSize: on this system the session reads its terminal's size
// and follows SIGWINCH itself (Session.tty), so every size is bounded
// before Bubble Tea's renderer sees it.
const readsOwnSize = true

// watchResize sends tty's size to p on every SIGWINCH, and once at once
// if it changed since the session was made (w×h); stop ends it.
func watchResize(p *tea.Program, tty term.File, w, h int) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for first := true; ; first = false {
			if !first {
				select {
				case <-done:
					return
				case <-ch:
				}
			}
			nw, nh, err := term.GetSize(tty.Fd())
			if err != nil || (nw == w && nh == h) {
				continue
			}
			w, h = nw, nh
			p.Send(chrome.Resize{Width: w, Height: h})
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
