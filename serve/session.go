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
	"charm.land/wish/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/live/replay"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui"
	"github.com/conflictlab/conflictlab/ui/room"
	"github.com/conflictlab/conflictlab/userfile"
)

// handle runs one SSH session: the tutorial for an attendee, the room
// view for an instructor, and nothing else (no command, no shell).
func (s *Server) handle(sess ssh.Session) {
	log := s.cfg.Log.With("addr", sess.RemoteAddr().String(), "user", sess.User())
	if len(sess.Command()) > 0 || sess.Subsystem() != "" {
		log.Warn("refused: a command or subsystem was asked", "command", strings.Join(sess.Command(), " "), "subsystem", sess.Subsystem())
		wish.Fatalln(sess, "conflictlab serve runs the tutorial and nothing else: connect with ssh -p PORT HOST, with no command.")
		return
	}
	pty, windows, ok := sess.Pty()
	if !ok {
		wish.Fatalln(sess, "the tutorial needs a terminal: connect with ssh -t -p PORT HOST.")
		return
	}
	who, ok := attendeeOf(sess)
	if !ok {
		wish.Fatalln(sess, "no key and no name: connect with an SSH key.")
		return
	}
	release, ok := s.takeSlot()
	if !ok {
		log.Warn("refused: the room is full", "max_sessions", s.cfg.MaxSessions)
		s.room.count(func(st *Stats) { st.RefusedFull++ })
		wish.Fatalln(sess, fmt.Sprintf("the room is full (%d sessions): try again in a minute, or ask the instructor.", s.cfg.MaxSessions))
		return
	}
	defer release()
	s.wg.Add(1)
	defer s.wg.Done()

	env := append(sess.Environ(), "TERM="+pty.Term)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	go func() {
		select {
		case <-s.ctx.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	in := newIdleInput(sess, s.cfg.Clock)

	var send func(tea.Msg)
	var run func() error
	var leave func()
	if s.isInstructor(sess) {
		log.Info("instructor connected", "key", who.Fingerprint)
		id := s.room.joinLeader(who)
		screen := room.NewScreen(environ(env, "NO_COLOR") != "", func(a room.Action) {
			n := s.room.broadcast(announcement(a, s.room))
			log.Info("instructor action", "lesson", a.Lesson, "quiz", a.Quiz, "sessions", n)
		})
		p := tea.NewProgram(screen, tea.WithInput(in), tea.WithOutput(sess), tea.WithContext(ctx),
			tea.WithEnvironment(env), tea.WithWindowSize(pty.Window.Width, pty.Window.Height),
			tea.WithColorProfile(colorprofile.Env(env)), tea.WithoutSignalHandler())
		stop := s.room.watch(p.Send)
		send = p.Send
		run = func() error { _, err := p.Run(); return err }
		leave = func() { stop(); s.room.leave(id) }
	} else {
		path := s.progressPath(who)
		if err := s.remember(who); err != nil {
			log.Error("attendee folder", "err", err)
		}
		loaded := readProgress(path) // the session's own store reports a bad file on screen
		var id int
		sessUI := ui.NewSession(ui.Options{
			// Nothing of the server's environment: the client's, for
			// NO_COLOR and the terminal's type.
			In: in, Out: sess, Context: ctx,
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
		log.Info("attendee connected", "attendee", who.ID, "name", who.Name, "session", id)
		send, run = sessUI.Send, sessUI.Run
		leave = func() { s.room.leave(id) }
	}
	defer leave()

	// Resizes reach the program as window sizes; a session idle past the
	// timeout is ended (its progress saved like on q).
	go func() {
		idle := time.NewTimer(s.cfg.IdleTimeout)
		defer idle.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case w := <-windows:
				send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			case <-idle.C:
				if d := in.idleFor(); d < s.cfg.IdleTimeout {
					idle.Reset(s.cfg.IdleTimeout - d)
					continue
				}
				log.Info("session ended: idle", "idle_timeout", s.cfg.IdleTimeout.String(), "attendee", who.ID)
				s.room.count(func(st *Stats) { st.IdleEnded++ })
				fmt.Fprintf(sess.Stderr(), "\r\nconflictlab: no key for %s: session ended, progress saved.\r\n", s.cfg.IdleTimeout)
				cancel()
				return
			}
		}
	}()
	err := run()
	if err != nil && ctx.Err() == nil {
		log.Error("session ended with an error", "err", err, "attendee", who.ID)
	}
	log.Info("session ended", "attendee", who.ID)
	_ = sess.Exit(0)
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
