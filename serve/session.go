package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/live/replay"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/room"
	"github.com/conflictlab/conflictlab/userfile"
)

// tutorial runs an attendee's session: their tutorial, until they quit,
// the connection drops, the idle timeout or the server's shutdown. An
// instructor's session goes on to the room view.
//
// The tutorial is not a Bubble Tea program the bubbletea middleware can
// run: ui.Session saves the progress from the program's final model,
// which the middleware does not hand back. So the resizes are forwarded
// here, as the middleware forwards them.
func (s *Server) tutorial(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if s.isInstructor(sess) {
			s.instructorSession(sess, next)
			return
		}
		who, log := attendeeIn(sess), s.logger(sess)
		pty, windows, _ := sess.Pty()
		env := append(sess.Environ(), "TERM="+pty.Term)
		ctx, cancel := s.sessionContext(sess)
		defer cancel()
		in := newIdleInput(newInputGuard(ctx, sess), s.cfg.Clock)
		path := s.progressPath(who)
		if err := s.remember(who); err != nil {
			log.Error("attendee folder", "err", err)
		}
		loaded := readProgress(path) // the session's own store reports a bad file on screen
		var id int
		sessUI := ui.NewSession(ui.Options{
			// Nothing of the server's environment: the client's, for
			// NO_COLOR and the terminal's type. The input is decoded here
			// (decodeInput says why).
			In: noInput{ctx}, Out: sess, Context: ctx,
			Environ: env, Width: pty.Window.Width, Height: pty.Window.Height,
			Profile:      colorprofile.Env(env),
			Pack:         s.cfg.Pack,
			ProgressPath: path,
			QuizSeed:     s.cfg.Seed,
			SandboxEnv:   s.sandboxEnv(),
			Replays:      s.replays(path),
			Notice:       s.liveNotice(),
			NoSignals:    true,
			// An attendee's code never runs here: the exercises' screen
			// says how to run them on one's own machine.
			ExercisesRemote: true,
			Observe:         func(a ui.Activity) { s.room.observe(id, a) },
		})
		id = s.room.join(who, loaded, sessUI.Send)
		defer s.room.leave(id)
		log.Info("attendee connected", "attendee", who.ID, "name", who.Name, "session", id,
			"width", pty.Window.Width, "height", pty.Window.Height)
		go s.guard("resizes", func() { forwardResizes(ctx, windows, sessUI.Send) })
		go s.guard("input", func() { decodeInput(ctx, in, pty.Term, sessUI.Send) })
		go s.guard("idle timeout", func() { s.endWhenIdle(ctx, cancel, sess, in, who) })
		err := sessUI.Run()
		if err != nil && ctx.Err() == nil {
			log.Error("session ended with an error", "err", err, "attendee", who.ID)
		}
		log.Info("session ended", "attendee", who.ID)
		_ = sess.Exit(0)
	}
}

// resizeEvery is the least time between two resizes given to a session's
// program: a window dragged by its edge sends a few dozen a second, each
// of which lays the screen out again; a client can send thousands.
const resizeEvery = 50 * time.Millisecond

// forwardResizes gives the program the window's sizes: the first at once,
// then at most one per resizeEvery, the last of those that came meanwhile.
func forwardResizes(ctx context.Context, windows <-chan ssh.Window, send func(tea.Msg)) {
	var pending *ssh.Window
	var next <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case w, ok := <-windows:
			if !ok {
				return
			}
			if next != nil {
				pending = &w
				continue
			}
			send(chrome.Resize{Width: w.Width, Height: w.Height})
			next = time.After(resizeEvery)
		case <-next:
			next = nil
			if pending != nil {
				send(chrome.Resize{Width: pending.Width, Height: pending.Height})
				pending, next = nil, time.After(resizeEvery)
			}
		}
	}
}

// sessionContext ends with the connection, the session's channel, the
// server's shutdown, or cancel.
func (s *Server) sessionContext(sess ssh.Session) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(sess.Context())
	stop := context.AfterFunc(s.ctx, cancel)
	if closed, ok := sess.Context().Value(channelClosedKey{}).(<-chan struct{}); ok {
		go func() {
			select {
			case <-closed:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, func() { stop(); cancel() }
}

// endWhenIdle ends the session once it has sent no key for the idle
// timeout (its progress is saved, as on q).
func (s *Server) endWhenIdle(ctx context.Context, cancel func(), sess ssh.Session, in *idleInput, who Attendee) {
	idle := time.NewTimer(s.cfg.IdleTimeout)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-idle.C:
			if d := in.idleFor(); d < s.cfg.IdleTimeout {
				idle.Reset(s.cfg.IdleTimeout - d)
				continue
			}
			s.logger(sess).Info("session ended: idle", "idle_timeout", s.cfg.IdleTimeout.String(), "attendee", who.ID)
			s.room.count(func(st *Stats) { st.IdleEnded++ })
			fmt.Fprintf(sess.Stderr(), "\r\nconflictlab: no key for %s: session ended, progress saved.\r\n", s.cfg.IdleTimeout)
			cancel()
			return
		}
	}
}

// instructorSession holds an instructor's place in the room around the
// room view, which the bubbletea middleware runs (roomProgram).
func (s *Server) instructorSession(sess ssh.Session, next ssh.Handler) {
	who := attendeeIn(sess)
	s.logger(sess).Info("instructor connected", "key", who.Fingerprint)
	id := s.room.joinLeader(who)
	defer s.room.leave(id)
	ctx, cancel := s.sessionContext(sess)
	defer cancel()
	in := newIdleInput(newInputGuard(ctx, sess), s.cfg.Clock)
	go s.guard("idle timeout", func() { s.endWhenIdle(ctx, cancel, sess, in, who) })
	h := &roomHold{ctx: ctx, in: in}
	sess.Context().SetValue(roomKey{}, h)
	next(sess)
	if h.stop != nil {
		h.stop()
	}
}

// roomHold is what instructorSession gives roomProgram: the session's
// context and input, and back the end of the room's updates.
type roomHold struct {
	ctx  context.Context
	in   *idleInput
	stop func()
}

type roomKey struct{}

// roomProgram is the bubbletea middleware's program for an instructor's
// session (nil for anyone else): the room view, its window bounded as
// the tutorial's is, fed a snapshot of the room after every change. The
// middleware forwards resizes as tea.WindowSizeMsg, which Bubble Tea
// drops past 4096 a side: the view then keeps its last size (bounded),
// without the notice an attendee gets.
func (s *Server) roomProgram(sess ssh.Session) *tea.Program {
	h, ok := sess.Context().Value(roomKey{}).(*roomHold)
	if !ok || !s.isInstructor(sess) {
		return nil
	}
	log := s.logger(sess)
	pty, _, _ := sess.Pty()
	env := append(sess.Environ(), "TERM="+pty.Term)
	screen := room.NewScreen(environ(env, "NO_COLOR") != "", func(a room.Action) {
		n := s.room.broadcast(announcement(a, s.room))
		log.Info("instructor action", "lesson", a.Lesson, "quiz", a.Quiz, "sessions", n)
	})
	// A suspend over SSH would stop the server: the middleware's filter
	// turns it into a resume, and runs after the bound.
	model, bound := chrome.Bound(screen, pty.Window.Width, pty.Window.Height, func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(tea.SuspendMsg); ok {
			return tea.ResumeMsg{}
		}
		return msg
	})
	opts := append(bubbletea.MakeOptions(sess), tea.WithInput(noInput{h.ctx}),
		tea.WithEnvironment(env), tea.WithColorProfile(colorprofile.Env(env)), tea.WithoutSignalHandler())
	p := tea.NewProgram(model, append(opts, bound...)...)
	// The idle timeout and the server's shutdown end the view as q does
	// (the middleware itself quits it when the connection ends).
	unwatch, unquit := s.room.watch(p.Send), context.AfterFunc(h.ctx, p.Quit)
	h.stop = func() { unwatch(); unquit() }
	go s.guard("input", func() { decodeInput(h.ctx, h.in, pty.Term, p.Send) })
	return p
}

// announcement is the message an instructor's action sends to the room.
func announcement(a room.Action, r *Room) ui.Announce {
	if a.Quiz {
		return ui.Announce{Quiz: true, Text: "the instructor opened the quiz for the room"}
	}
	title := a.Lesson
	for _, l := range r.pack.Lessons {
		if l.ID == a.Lesson {
			title = l.Title
		}
	}
	return ui.Announce{Lesson: a.Lesson, Text: "the instructor moved the room to: " + title}
}

func (s *Server) sandboxEnv() ui.SandboxEnv {
	b := s.cfg.Explore
	b.Acquire = s.acquireExplore
	b.Lift = "the workshop's server sets it: conflictlab serve --explore-timeout, --explore-memory"
	return ui.SandboxEnv{Explore: b, NoFiles: true}
}

// replays are a session's replays on the workshop's cluster, journalled
// beside the attendee's progress; nil unless the server allows them.
func (s *Server) replays(progressPath string) ui.Replays {
	if !s.cfg.AllowLive {
		return nil
	}
	return replay.New(live.JournalIn(filepath.Dir(progressPath)), s.cfg.Kubeconfig)
}

// liveNotice tells attendees, on the home screen, whose cluster a replay
// runs on.
func (s *Server) liveNotice() string {
	if !s.cfg.AllowLive {
		return ""
	}
	return "Live mode is on: L replays a race on the workshop's cluster, not on yours."
}

// remember writes who an attendee is beside their progress (for export).
func (s *Server) remember(a Attendee) error {
	dir := filepath.Dir(s.progressPath(a))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	f := filepath.Join(dir, "who.json")
	if old, err := os.ReadFile(f); err == nil && string(old) == string(data) {
		return nil
	}
	tmp := f + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, f)
}

// environ reads key from a KEY=VALUE list.
func environ(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// readProgress is the attendee's progress on disk, for the room; a file
// that is missing or does not decode is none (the session's store deals
// with it, and says so on the attendee's screen).
func readProgress(path string) *progress.Progress {
	data, err := userfile.Read(path, progress.MaxFileSize)
	if err != nil {
		return progress.New()
	}
	p, err := progress.Decode(data)
	if err != nil {
		return progress.New()
	}
	return p
}
