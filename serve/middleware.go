package serve

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/bubbletea"
	wishrecover "charm.land/wish/v2/recover"
)

// middleware is the session's path through the server, composed as
// soft-serve composes its own: wish.WithMiddleware runs the last first,
// and the recover middleware runs its list the same way, so read each
// list from the bottom up. Recover keeps a panic in any of them to the
// one session (logged with its stack, and counted); the goroutines a
// session starts recover on their own (guard).
func (s *Server) middleware() []wish.Middleware {
	chain := []wish.Middleware{
		// 6. The instructor's room view (nothing for an attendee: the
		// tutorial has ended by then).
		bubbletea.MiddlewareWithProgramHandler(s.roomProgram),
		// 5. The attendee's tutorial; an instructor goes on.
		s.tutorial,
		// 4. The room's limits: sessions in all, per key, per address.
		s.limit,
		// 3. A terminal (the pty request's size is bounded later, where
		// it reaches a renderer: chrome.Bound).
		activeterm.Middleware(),
		s.needTerminal,
		// 2. No command, no subsystem.
		s.onlyTutorial,
		// 1. Every session logged, from start to end.
		s.logSession,
	}
	chain = append(chain, func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			if s.inject != nil {
				next = s.inject(next)
			}
			next(sess)
		}
	})
	return []wish.Middleware{wishrecover.MiddlewareWithLogger(panicLog{s}, chain...)}
}

// panicLog is recover's logger: the server's log, and the room's count.
type panicLog struct{ s *Server }

func (p panicLog) Printf(format string, v ...any) {
	p.s.room.count(func(st *Stats) { st.Panics++ })
	msg := fmt.Sprintf(format, v...)
	first, stack, _ := strings.Cut(msg, "\n")
	p.s.cfg.Log.Error("session ended by a panic (the server goes on)", "panic", first, "stack", stack)
}

// guard runs f, and a panic in it ends only what f was doing (logged and
// counted like a session's).
func (s *Server) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			panicLog{s}.Printf("%s: %v\n%s", what, r, stackOf())
		}
	}()
	f()
}

// logSession logs a session's start and end.
func (s *Server) logSession(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		// The pty is read once, here: the library writes its window on
		// every window change without a lock, so a read after the
		// session's start races with the client's resizes.
		pty, windows, hasPty := sess.Pty()
		s.cfg.Log.Debug("session", "addr", sess.RemoteAddr().String(), "user", sess.User(), "term", pty.Term,
			"width", pty.Window.Width, "height", pty.Window.Height)
		next(sess)
		if release, ok := sess.Context().Value(channelKey{}).(func()); ok {
			release()
		}
		if hasPty {
			// The library hands each window change to this channel and
			// waits until it is taken: one that came after the session's
			// end would wedge the connection (its requests, its close),
			// for ever. The library closes the channel with the session.
			go func() {
				for range windows {
				}
			}()
		}
		s.cfg.Log.Debug("session closed", "addr", sess.RemoteAddr().String(), "user", sess.User(), "duration", time.Since(start).String())
	}
}

// onlyTutorial refuses a command or a subsystem: the server runs the
// tutorial and nothing else.
func (s *Server) onlyTutorial(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.Command()) > 0 || sess.Subsystem() != "" {
			s.cfg.Log.Warn("refused: a command or subsystem was asked", "addr", sess.RemoteAddr().String(),
				"command", strings.Join(sess.Command(), " "), "subsystem", sess.Subsystem())
			wish.Fatalln(sess, "conflictlab serve runs the tutorial and nothing else: connect with ssh -p PORT HOST, with no command.")
			return
		}
		next(sess)
	}
}

// needTerminal says how to ask for a terminal, before activeterm ends a
// session without one.
func (s *Server) needTerminal(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, _, ok := sess.Pty(); !ok {
			wish.Errorln(sess, "the tutorial needs a terminal: connect with ssh -t -p PORT HOST.\r")
		}
		next(sess)
	}
}

// limit counts the session in — the room's sessions, the key's, the
// address's — or tells the person why not; an instructor's sessions are
// counted apart, so attendees never lock the instructor out.
func (s *Server) limit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		who, ok := attendeeOf(sess)
		if !ok {
			wish.Fatalln(sess, "no key and no name: connect with an SSH key.")
			return
		}
		host := hostOf(sess.RemoteAddr())
		release, no := s.sessions.take(s.cfg, who.ID, host, who.Fingerprint == "", s.isInstructor(sess))
		if no != nil {
			s.cfg.Log.Warn("refused: "+no.msg, "reason", no.reason, "addr", host, "attendee", who.ID)
			s.room.count(func(st *Stats) { st.refused(no.reason) })
			wish.Fatalln(sess, "conflictlab: "+no.msg)
			return
		}
		defer release()
		s.wg.Add(1)
		defer s.wg.Done()
		sess.Context().SetValue(attendeeKey{}, who)
		next(sess)
	}
}

// attendeeKey is where limit leaves who the session is.
type attendeeKey struct{}

func attendeeIn(sess ssh.Session) Attendee {
	a, _ := sess.Context().Value(attendeeKey{}).(Attendee)
	return a
}

// logger is the session's log.
func (s *Server) logger(sess ssh.Session) *slog.Logger {
	return s.cfg.Log.With("addr", sess.RemoteAddr().String(), "user", sess.User())
}

func stackOf() string { return string(debug.Stack()) }
