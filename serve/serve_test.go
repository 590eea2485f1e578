package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/room"
)

// keyID is the attendee ID the server gives a key.
func keyID(k gossh.Signer) string {
	sum := sha256.Sum256(k.PublicKey().Marshal())
	return "key-" + hex.EncodeToString(sum[:12])
}

// onDisk reads an attendee's progress file.
func onDisk(state, id string) (*progress.Progress, error) {
	data, err := os.ReadFile(attendeeProgress(state, id))
	if err != nil {
		return nil, err
	}
	return progress.Decode(data)
}

// answered polls the attendee's file until lesson's step has an answer,
// and returns it.
func answered(t *testing.T, state, id, lesson string, step int) progress.Answer {
	t.Helper()
	var got progress.Answer
	poll(t, fmt.Sprintf("%s's answer to %s step %d on disk", id, lesson, step), func() (bool, string) {
		p, err := onDisk(state, id)
		if err != nil {
			return false, err.Error()
		}
		l := p.Lessons[lesson]
		if l == nil {
			return false, "no record of the lesson"
		}
		a, ok := l.Answers[step]
		got = a
		return ok && a.Picked != "", fmt.Sprintf("%+v", l)
	})
	return got
}

var (
	lesson1 = course.Lessons[0] // step 0 reads, step 1 predicts
	lesson2 = course.Lessons[1] // step 0 predicts
)

// answerLesson1 plays lesson 1 to its question and answers it with the
// first option, as an attendee does from the home screen.
func answerLesson1(tm *term) { answerLesson1With(tm, "1") }

// answerLesson2 opens lesson 2 from the home screen and answers its first
// step with option.
func answerLesson2(tm *term, option string) {
	tm.t.Helper()
	tm.waitFor(0, lesson2.Title)
	m := tm.mark()
	tm.press("down", "down", "enter")
	tm.waitFor(m, lesson2.Steps[0].Title)
	m = tm.mark()
	tm.press(option)
	tm.waitFor(m, "decides it") // the feedback, right or wrong
}

func answerLesson1With(tm *term, option string) {
	tm.t.Helper()
	tm.waitFor(0, lesson1.Title)
	m := tm.mark()
	tm.press("enter")
	tm.waitFor(m, lesson1.Steps[0].Title)
	m = tm.mark()
	tm.press("n")
	tm.waitFor(m, lesson1.Steps[1].Title)
	m = tm.mark()
	tm.press(option)
	tm.waitFor(m, "decides it") // the feedback, right or wrong
}

// TestSessionOverSSH: a pty request gives the tutorial at that size; a
// window change redraws it at the new one; keys play lesson 1's question;
// the answer is in the attendee's progress file, under their key's folder.
func TestSessionOverSSH(t *testing.T) {
	srv := startServer(t, Config{})
	key := newKey(t)
	tm := connect(t, srv.addr, key, 100, 30)
	tm.waitFor(0, "Conflict Lab")
	tm.waitFor(0, lesson1.Title)

	m := tm.mark()
	if err := tm.sess.WindowChange(20, 60); err != nil {
		t.Fatal(err)
	}
	tm.waitFor(m, "needs a terminal of at least 80×24")
	m = tm.mark()
	if err := tm.sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	tm.waitFor(m, lesson1.Title)

	answerLesson1(tm)
	a := answered(t, srv.cfg.State, keyID(key), lesson1.ID, 1)
	if a.Attempts != 1 || a.Picked != lesson1.Steps[1].Options[0].ID {
		t.Fatalf("the answer on disk is %+v, want one attempt picking %s", a, lesson1.Steps[1].Options[0].ID)
	}
	if fi, err := os.Stat(srv.cfg.HostKey); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key %s: %v, mode %v; want 0600", srv.cfg.HostKey, err, fi.Mode())
	}
}

// TestHostKeyKept: a second start uses the host key the first created.
func TestHostKeyKept(t *testing.T) {
	state := t.TempDir()
	hostKey := func() gossh.PublicKey {
		srv := startServer(t, Config{State: state})
		var got gossh.PublicKey
		c, err := gossh.Dial("tcp", srv.addr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
			HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error { got = k; return nil }, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		return got
	}
	first, second := hostKey(), hostKey()
	if first == nil || string(first.Marshal()) != string(second.Marshal()) {
		t.Fatalf("the host key changed between two starts on %s", state)
	}
}

// TestThirtySessionsAtOnce: thirty attendees answer at the same time;
// every answer is on disk, in each one's own file.
func TestThirtySessionsAtOnce(t *testing.T) {
	// One address for all: a room behind one NAT.
	srv := startServer(t, Config{AttemptBurst: 64})
	const n = 30
	keys := make([]gossh.Signer, n)
	terms := make([]*term, n)
	for i := range keys {
		keys[i] = newKey(t)
		terms[i] = connect(t, srv.addr, keys[i], 100, 30)
	}
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range terms {
		wg.Add(1)
		go func(tm *term) {
			defer wg.Done()
			rec := &recorder{TB: t}
			tm.t = rec
			defer func() {
				if r := recover(); r != nil && r != errStop {
					panic(r)
				}
				if rec.msg != "" {
					errs <- rec.msg
				}
			}()
			answerLesson1(tm)
		}(terms[i])
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	for _, k := range keys {
		answered(t, srv.cfg.State, keyID(k), lesson1.ID, 1)
	}
}

// recorder lets goroutines fail a test: Fatalf records and stops the
// goroutine instead of calling runtime.Goexit on the wrong one.
type recorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

var errStop = errors.New("stop")

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(f string, a ...any) {
	r.mu.Lock()
	r.msg = fmt.Sprintf(f, a...)
	r.mu.Unlock()
	panic(errStop)
}

// TestTwoSessionsOneAttendee: the same key in two sessions answers two
// lessons; neither answer is lost, on disk or in the room.
func TestTwoSessionsOneAttendee(t *testing.T) {
	srv := startServer(t, Config{})
	key := newKey(t)
	a := connect(t, srv.addr, key, 100, 30)
	b := connect(t, srv.addr, key, 100, 30)
	answerLesson1(a)
	answerLesson2(b, "2")
	answered(t, srv.cfg.State, keyID(key), lesson1.ID, 1)
	answered(t, srv.cfg.State, keyID(key), lesson2.ID, 0)
	p, ok := srv.room.Progress(keyID(key))
	if !ok || len(p.Lessons[lesson1.ID].Answers) != 1 || len(p.Lessons[lesson2.ID].Answers) != 1 {
		t.Fatalf("the room holds %+v for the attendee", p)
	}
}

// TestWrongKeyAndClosedConnection: another key is another attendee, who
// changes nothing of the first's; a password is refused; a connection
// dropped while the screen is being written loses no answer.
func TestWrongKeyAndClosedConnection(t *testing.T) {
	srv := startServer(t, Config{})
	alice, mallory := newKey(t), newKey(t)
	a := connect(t, srv.addr, alice, 100, 30)
	answerLesson1(a)
	before := answered(t, srv.cfg.State, keyID(alice), lesson1.ID, 1)

	if _, err := dial(t, srv.addr, gossh.Password("alice")); err == nil {
		t.Fatal("a password login was let in without --allow-names")
	}
	answerLesson1With(connect(t, srv.addr, mallory, 100, 30), "2")
	answered(t, srv.cfg.State, keyID(mallory), lesson1.ID, 1)
	after, err := onDisk(srv.cfg.State, keyID(alice))
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Lessons[lesson1.ID].Answers[1]; got != before {
		t.Fatalf("another key changed the first attendee's answer: %+v, was %+v", got, before)
	}

	// Lesson 2's race plays on after the answer: the connection is cut
	// while those frames are written.
	c := connect(t, srv.addr, alice, 100, 30)
	answerLesson2(c, "1")
	c.client.Conn.Close()
	answered(t, srv.cfg.State, keyID(alice), lesson2.ID, 0)
	if got, _ := onDisk(srv.cfg.State, keyID(alice)); got.Lessons[lesson1.ID].Answers[1] != before {
		t.Fatalf("lesson 1's answer changed: %+v", got.Lessons[lesson1.ID].Answers[1])
	}
}

// TestOnlyTheTutorial: no command, no subsystem (sftp), no port
// forwarding; a session without a pty is told to ask for one.
func TestOnlyTheTutorial(t *testing.T) {
	srv := startServer(t, Config{})
	c, err := dial(t, srv.addr, gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, _ := c.NewSession()
	out, err := s.CombinedOutput("cat /etc/passwd")
	if err == nil || !strings.Contains(string(out), "nothing else") || strings.Contains(string(out), "root:") {
		t.Fatalf("a command: err %v, output %q", err, out)
	}
	s, _ = c.NewSession()
	if err := s.RequestSubsystem("sftp"); err == nil {
		t.Fatal("the sftp subsystem was granted")
	}
	s.Close() // as sftp does when refused: a connection has one session at a time
	if _, err := c.Dial("tcp", srv.addr); err == nil {
		t.Fatal("port forwarding was granted")
	}
	if _, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Fatal("reverse port forwarding was granted")
	}
	s, _ = c.NewSession()
	out, _ = s.CombinedOutput("")
	if !strings.Contains(string(out), "needs a terminal") {
		t.Fatalf("no pty: %q", out)
	}
}

// TestLimits: the room full, the connection rate and the idle timeout are
// each hit, told to the client where it can be, and logged.
func TestLimits(t *testing.T) {
	t.Run("sessions", func(t *testing.T) {
		srv := startServer(t, Config{MaxSessions: 1})
		first := connect(t, srv.addr, newKey(t), 100, 30)
		first.waitFor(0, lesson1.Title)
		second := connect(t, srv.addr, newKey(t), 100, 30)
		second.waitEnd()
		if !strings.Contains(second.screen(), "the room is full (1 sessions)") {
			t.Fatalf("the second session was told %q", second.screen())
		}
		if !strings.Contains(srv.log.String(), "refused: the room is full") || srv.room.Stats().RefusedFull != 1 {
			t.Fatalf("not logged and counted: %s", srv.log.String())
		}
		// The first is untouched and answers.
		answerLesson1(first)
	})
	t.Run("attempts", func(t *testing.T) {
		stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		srv := startServer(t, Config{AttemptsPerMinute: 1, AttemptBurst: 2, Clock: func() time.Time { return stopped }})
		key := newKey(t)
		for i := range 2 {
			c, err := dial(t, srv.addr, gossh.PublicKeys(key))
			if err != nil {
				t.Fatalf("attempt %d of the burst: %v", i+1, err)
			}
			c.Close()
		}
		if _, err := dial(t, srv.addr, gossh.PublicKeys(key)); err == nil {
			t.Fatal("a third attempt within the burst's minute got in")
		}
		if !strings.Contains(srv.log.String(), "too many attempts from this address") || srv.room.Stats().RefusedRate != 1 {
			t.Fatalf("not logged and counted: %s", srv.log.String())
		}
	})
	t.Run("idle", func(t *testing.T) {
		srv := startServer(t, Config{IdleTimeout: 500 * time.Millisecond})
		key := newKey(t)
		tm := connect(t, srv.addr, key, 100, 30)
		answerLesson1(tm)
		tm.waitEnd()
		if !strings.Contains(tm.screen(), "session ended, progress saved") || !strings.Contains(srv.log.String(), "session ended: idle") {
			t.Fatalf("screen %q, log %s", tm.screen(), srv.log.String())
		}
		answered(t, srv.cfg.State, keyID(key), lesson1.ID, 1)
	})
	t.Run("explorer", func(t *testing.T) {
		srv := startServer(t, Config{ParallelExplores: 1})
		release, err := srv.acquireExplore(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := srv.acquireExplore(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a second exploration got a turn while one ran: %v", err)
		}
		release()
		again, err := srv.acquireExplore(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		again()
		env := srv.sandboxEnv()
		if !env.NoFiles || env.Explore.MaxSchedules != DefaultExploreSchedules || env.Explore.Timeout != DefaultExploreTimeout {
			t.Fatalf("an attendee's sandbox gets %+v", env)
		}
		if !strings.Contains(logLimits(srv), "explore_timeout=20s") {
			t.Fatalf("limits not logged: %s", srv.log.String())
		}
	})
}

func logLimits(srv *testServer) string {
	srv.LogLimits()
	return srv.log.String()
}

// TestNamesAtLogin: with --allow-names, a client without a key gives a
// name and is known by it.
func TestNamesAtLogin(t *testing.T) {
	srv := startServer(t, Config{AllowNames: true})
	answer := func(name string) gossh.AuthMethod {
		return gossh.KeyboardInteractive(func(_, _ string, q []string, _ []bool) ([]string, error) {
			if len(q) != 1 {
				return nil, fmt.Errorf("%d questions", len(q))
			}
			return []string{name}, nil
		})
	}
	if _, err := dial(t, srv.addr, answer("../../etc")); err == nil {
		t.Fatal("a name that is a path was accepted")
	}
	c, err := dial(t, srv.addr, answer("Ada"))
	if err != nil {
		t.Fatal(err)
	}
	tm := openTerm(t, c, 100, 30)
	answerLesson1(tm)
	answered(t, srv.cfg.State, "name-ada", lesson1.ID, 1)
}

// TestInstructorRoom: the instructor's key gets the room view, which
// shows an attendee's wrong answer live; sending the room to lesson 2
// opens it on the attendee's screen.
func TestInstructorRoom(t *testing.T) {
	teacher := newKey(t)
	keys := filepath.Join(t.TempDir(), "instructors")
	os.WriteFile(keys, gossh.MarshalAuthorizedKey(teacher.PublicKey()), 0o600)
	srv := startServer(t, Config{InstructorKeys: keys, Seed: "42"})
	room := connect(t, srv.addr, teacher, 120, 40)
	room.waitFor(0, "Attendees")
	room.waitFor(0, "quiz seed 42")

	attendee := connect(t, srv.addr, newKey(t), 100, 30)
	answerLesson1(attendee)
	wrong := lesson1.Steps[1].Options[0]
	if wrong.Correct {
		t.Fatal("the test expects lesson 1's first option to be wrong")
	}
	room.waitFor(0, "1/1 wrong")
	room.waitFor(0, "1× "+wrong.Label[:20])

	m, am := room.mark(), attendee.mark()
	room.press("right", "enter")
	room.waitFor(m, "Send everyone to lesson 2")
	room.press("y")
	attendee.waitFor(am, "the instructor moved the room to")
	attendee.waitFor(am, lesson2.Steps[0].Title)
	poll(t, "the room sees the attendee in lesson 2", func() (bool, string) {
		s := srv.room.Snapshot()
		return len(s.Attendees) == 1 && strings.HasPrefix(s.Attendees[0].Where, "lesson 2"), fmt.Sprintf("%+v", s.Attendees)
	})
}

var _ = room.Snapshot{}
