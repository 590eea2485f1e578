package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/room"
)

// The room as a hostile attendee tries it (issue 25), each attack with a
// real SSH client against a real server on loopback, while a
// well-behaved attendee keeps answering.

// TestHugeFirstWindow: a pty request of 0×0, 1×1, 65535×65535 and
// 2³¹−1 either way, then resizes to the same sizes, all at once: the
// process stays under 150 MB, every session draws, a larger terminal is
// told that it gets at most chrome.MaxWidth×MaxHeight, and another
// attendee's session answers meanwhile.
func TestHugeFirstWindow(t *testing.T) {
	peak := watchRSS(t)
	srv := startServer(t, Config{})
	const huge = 1<<31 - 1
	sizes := [][2]int{{0, 0}, {1, 1}, {65535, 65535}, {huge, huge}, {huge, 24}, {80, huge}}
	var terms []*term
	for _, sz := range sizes {
		tm := connect(t, srv.addr, newKey(t), sz[0], sz[1])
		terms = append(terms, tm)
	}
	notice := fmt.Sprintf("draws at most %d×%d", chrome.MaxWidth, chrome.MaxHeight)
	for i, tm := range terms {
		switch w, h := sizes[i][0], sizes[i][1]; {
		case w > chrome.MaxWidth || h > chrome.MaxHeight:
			tm.waitFor(0, notice)
			tm.waitFor(0, "Conflict Lab")
		case w == 0:
			tm.waitFor(0, lesson1.Title) // drawn at 80×24
		default: // 1×1: the start of what it says, cut to one cell
			tm.waitFor(0, "C")
		}
	}
	// Every resize of every session to every size.
	for _, tm := range terms {
		for _, sz := range sizes {
			if err := tm.sess.WindowChange(sz[1], sz[0]); err != nil {
				t.Fatal(err)
			}
		}
		m := tm.mark()
		if err := tm.sess.WindowChange(huge, huge); err != nil {
			t.Fatal(err)
		}
		tm.waitFor(m, notice)
	}
	good := connect(t, srv.addr, newKey(t), 100, 30)
	answerLesson1(good)
	underRSS(t, peak, 150<<20, fmt.Sprintf("with %d hostile sizes and one attendee", len(sizes)))
}

// underRSS fails the test when the process's peak resident set passed
// limit bytes. The race detector's shadow memory multiplies a process's
// resident set (5–10×, its documentation says), so under -race the peak
// is only logged: the run without -race holds the bound.
func underRSS(t *testing.T, peak func() uint64, limit uint64, what string) {
	t.Helper()
	got := peak()
	switch {
	case raceEnabled:
		t.Logf("peak RSS %d MiB %s (under -race, not held to %d MiB)", got>>20, what, limit>>20)
	case got > limit:
		t.Fatalf("the process reached %d MiB %s, over %d MiB", got>>20, what, limit>>20)
	default:
		t.Logf("peak RSS %d MiB %s", got>>20, what)
	}
}

// watchRSS samples the process's resident set until the test ends, from
// a start with the memory earlier tests left given back; peak is the
// most seen so far.
func watchRSS(t *testing.T) (peak func() uint64) {
	t.Helper()
	debug.FreeOSMemory()
	var mu sync.Mutex
	top := rss()
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				r := rss()
				mu.Lock()
				top = max(top, r)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { close(done) })
	return func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		return max(top, rss())
	}
}

// TestEndlessEscapeSequence: a megabyte after ESC ] (an operating-system
// command never ended), then more as a bracketed paste that never ends,
// then keys as fast as the connection takes them: the server reads them
// at a person's pace (the client's sends wait), its memory stays small,
// and another attendee is served meanwhile. The input reader used to
// keep all of it, scanning it again on every read.
func TestEndlessEscapeSequence(t *testing.T) {
	peak := watchRSS(t)
	srv := startServer(t, Config{})
	tm := connect(t, srv.addr, newKey(t), 100, 30)
	tm.waitFor(0, lesson1.Title)
	sent := make(chan error, 1)
	go func() {
		_, err := io.WriteString(tm.in, "\x1b]"+strings.Repeat("Z", 1<<20)+"\x1b[200~"+strings.Repeat("Z", 4<<20))
		sent <- err
	}()
	answerLesson1(connect(t, srv.addr, newKey(t), 100, 30))
	select {
	case err := <-sent:
		t.Fatalf("5 MiB of input were taken at once (%v): the session is not paced", err)
	case <-time.After(2 * time.Second): // the 2 MiB window and what the pace let through, at most
	}
	underRSS(t, peak, 150<<20, "after the endless sequences")
}

// TestOneTutorialPerConnection: one connection opens 80 session
// channels, each with a pty and a shell; the first is the tutorial, the
// 79 others are told why not on their stderr and end with status 1; the
// room counts one session.
func TestOneTutorialPerConnection(t *testing.T) {
	srv := startServer(t, Config{})
	c, err := dial(t, srv.addr, gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	first := openTerm(t, c, 100, 30)
	first.waitFor(0, lesson1.Title)
	var wg sync.WaitGroup
	errs := make(chan string, 80)
	for range 79 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.NewSession()
			if err != nil {
				errs <- err.Error()
				return
			}
			defer s.Close()
			var stderr bytes.Buffer
			s.Stderr = &stderr
			if err := s.RequestPty("xterm", 30, 100, gossh.TerminalModes{}); err != nil {
				errs <- err.Error()
				return
			}
			err = s.Run("")
			var exit *gossh.ExitError
			if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(stderr.String(), "one tutorial per connection") {
				errs <- fmt.Sprintf("a second session: %v, stderr %q", err, stderr.String())
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if st := srv.room.Stats(); st.RefusedChannel != 79 {
		t.Fatalf("refusals counted: %+v", st)
	}
	if n := len(srv.room.Snapshot().Attendees); n != 1 {
		t.Fatalf("the room holds %d attendees", n)
	}
	answerLesson1(first) // the first is untouched
	// Once it has ended, the connection may open its next one.
	first.sess.Close()
	poll(t, "the first session counted out", func() (bool, string) {
		srv.channels.mu.Lock()
		defer srv.channels.mu.Unlock()
		return len(srv.channels.open) == 0, fmt.Sprint(srv.channels.open)
	})
	again := openTerm(t, c, 100, 30)
	again.waitFor(0, lesson1.Title)
}

// TestClosedChannelEndsItsSession: a client that closes its session's
// channel but keeps the connection (a multiplexing ssh) ends that
// tutorial: its progress saved, its place in the room's limits given
// back, no program left running for the idle timeout.
func TestClosedChannelEndsItsSession(t *testing.T) {
	srv := startServer(t, Config{})
	key := newKey(t)
	c, err := dial(t, srv.addr, gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		tm := openTerm(t, c, 100, 30)
		tm.waitFor(0, lesson1.Title)
		tm.sess.Close()
	}
	poll(t, "every closed session counted out", func() (bool, string) {
		srv.sessions.mu.Lock()
		defer srv.sessions.mu.Unlock()
		return srv.sessions.total == 0, fmt.Sprint(srv.sessions.total, " open")
	})
	answerLesson1(openTerm(t, c, 100, 30))
	answered(t, srv.cfg.State, keyID(key), lesson1.ID, 1)
}

// TestSessionsPerKeyAndAddress: a key opens at most MaxPerKey sessions,
// an address MaxPerAddress; each refusal is written to the session; the
// instructor, over every limit, still gets the room view.
func TestSessionsPerKeyAndAddress(t *testing.T) {
	teacher := newKey(t)
	keys := filepath.Join(t.TempDir(), "instructors")
	os.WriteFile(keys, gossh.MarshalAuthorizedKey(teacher.PublicKey()), 0o600)
	srv := startServer(t, Config{MaxPerKey: 2, MaxPerAddress: 3, MaxSessions: 3, InstructorKeys: keys})
	alice := newKey(t)
	a1, a2 := connect(t, srv.addr, alice, 100, 30), connect(t, srv.addr, alice, 100, 30)
	a1.waitFor(0, lesson1.Title)
	a2.waitFor(0, lesson1.Title)
	a3 := connect(t, srv.addr, alice, 100, 30)
	a3.waitEnd()
	if !strings.Contains(a3.screen(), "this key has 2 sessions open, the most one key may") {
		t.Fatalf("a third session of one key was told %q", a3.screen())
	}
	b := connect(t, srv.addr, newKey(t), 100, 30)
	b.waitFor(0, lesson1.Title)
	c := connect(t, srv.addr, newKey(t), 100, 30)
	c.waitEnd()
	if !strings.Contains(c.screen(), "the room is full (3 sessions)") {
		t.Fatalf("a session past the room's was told %q", c.screen())
	}
	st := srv.room.Stats()
	if st.RefusedKey != 1 || st.RefusedFull != 1 {
		t.Fatalf("counted %+v", st)
	}
	room := connect(t, srv.addr, teacher, 120, 40)
	room.waitFor(0, "Attendees")
	// The address's own limit, with room in the room.
	srv2 := startServer(t, Config{MaxPerAddress: 1, MaxSessions: 10})
	connect(t, srv2.addr, newKey(t), 100, 30).waitFor(0, lesson1.Title)
	d := connect(t, srv2.addr, newKey(t), 100, 30)
	d.waitEnd()
	if !strings.Contains(d.screen(), "1 sessions are open from your address (127.0.0.1)") || srv2.room.Stats().RefusedAddress != 1 {
		t.Fatalf("a second session from one address was told %q (%+v)", d.screen(), srv2.room.Stats())
	}
}

// TestRateLimitSaysWhenToRetry: past the address's connection rate, the
// pre-auth banner says when to try again and the login is refused; the
// burst follows --attempts-per-minute; an instructor's key still gets in.
func TestRateLimitSaysWhenToRetry(t *testing.T) {
	teacher := newKey(t)
	keys := filepath.Join(t.TempDir(), "instructors")
	os.WriteFile(keys, gossh.MarshalAuthorizedKey(teacher.PublicKey()), 0o600)
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := startServer(t, Config{AttemptsPerMinute: 3, Clock: clock, InstructorKeys: keys})
	if srv.cfg.AttemptBurst != 3 {
		t.Fatalf("--attempts-per-minute 3 bursts %d", srv.cfg.AttemptBurst)
	}
	key := newKey(t)
	login := func(k gossh.Signer) (string, error) {
		var banner string
		c, err := gossh.Dial("tcp", srv.addr, &gossh.ClientConfig{User: "learner", Auth: []gossh.AuthMethod{gossh.PublicKeys(k)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
			BannerCallback: func(m string) error { banner += m; return nil }})
		if err == nil {
			c.Close()
		}
		return banner, err
	}
	for i := range 3 {
		if banner, err := login(key); err != nil || banner != "" {
			t.Fatalf("attempt %d of the burst: %v, banner %q", i+1, err, banner)
		}
	}
	banner, err := login(key)
	if err == nil || !strings.Contains(banner, "too many connections from your address (127.0.0.1): at most 3 a minute. Try again in 20 seconds.") {
		t.Fatalf("a fourth attempt within the minute: %v, banner %q", err, banner)
	}
	if _, err := login(teacher); err != nil {
		t.Fatalf("the instructor was refused over the rate: %v", err)
	}
	mu.Lock()
	now = now.Add(20 * time.Second)
	mu.Unlock()
	if banner, err := login(key); err != nil {
		t.Fatalf("20 s later: %v, banner %q", err, banner)
	}
	if !strings.Contains(srv.log.String(), "too many attempts from this address") || srv.room.Stats().RefusedRate != 2 {
		t.Fatalf("not logged and counted: %+v", srv.room.Stats())
	}
}

// TestNamesInUse: with --allow-names, a name held by a live session is
// refused at login, in any case; once that session ends the name logs
// in again, to the same progress.
func TestNamesInUse(t *testing.T) {
	srv := startServer(t, Config{AllowNames: true})
	asked := make(chan string, 8)
	answer := func(names ...string) gossh.AuthMethod {
		i := 0
		return gossh.KeyboardInteractive(func(_, instruction string, q []string, _ []bool) ([]string, error) {
			asked <- instruction
			if i >= len(names) {
				return nil, fmt.Errorf("no more names")
			}
			i++
			return []string{names[i-1]}, nil
		})
	}
	c, err := dial(t, srv.addr, answer("Ada"))
	if err != nil {
		t.Fatal(err)
	}
	if in := <-asked; !strings.Contains(in, "A name is not a password") || !strings.Contains(in, "Ada and ada are one name") {
		t.Fatalf("the login says %q", in)
	}
	ada := openTerm(t, c, 100, 30)
	answerLesson1(ada)
	if _, err := dial(t, srv.addr, answer("ada", "ADA", "Ada")); err == nil {
		t.Fatal("a name in use logged in")
	}
	<-asked
	if in := <-asked; !strings.Contains(in, `the name "ada" is in use by a session open now`) {
		t.Fatalf("the second login was told %q", in)
	}
	for len(asked) > 0 {
		<-asked
	}
	if st := srv.room.Stats(); st.RefusedName != 3 {
		t.Fatalf("counted %+v", st)
	}
	ada.sess.Close()
	ada.client.Close()
	poll(t, "ada's session ended", func() (bool, string) { return !srv.sessions.live("name-ada"), "" })
	c2, err := dial(t, srv.addr, answer("ADA"))
	if err != nil {
		t.Fatalf("the name after its session ended: %v", err)
	}
	again := openTerm(t, c2, 100, 30)
	again.waitFor(0, "1/1 answered") // lesson 1's question, on the home screen
	answered(t, srv.cfg.State, "name-ada", lesson1.ID, 1)
}

// TestNoAgentForwarding: a request to forward the agent is refused.
func TestNoAgentForwarding(t *testing.T) {
	srv := startServer(t, Config{})
	c, err := dial(t, srv.addr, gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := agent.RequestAgentForwarding(s); err == nil {
		t.Fatal("agent forwarding was granted")
	}
}

// TestPanicEndsOnlyItsSession: a panic in a session's handler ends that
// session, is logged with its stack and counted; the server goes on.
func TestPanicEndsOnlyItsSession(t *testing.T) {
	srv := startServerWith(t, Config{}, func(s *Server) {
		s.inject = func(next ssh.Handler) ssh.Handler {
			return func(sess ssh.Session) {
				if sess.User() == "boom" {
					panic("a bug in a session")
				}
				next(sess)
			}
		}
	})
	c, err := gossh.Dial("tcp", srv.addr, &gossh.ClientConfig{User: "boom", Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	boom := openTerm(t, c, 100, 30)
	boom.waitEnd()
	if st := srv.room.Stats(); st.Panics != 1 || !strings.Contains(srv.log.String(), "a bug in a session") ||
		!strings.Contains(srv.log.String(), "stack=") {
		t.Fatalf("not logged and counted: %+v\n%s", st, srv.log.String())
	}
	answerLesson1(connect(t, srv.addr, newKey(t), 100, 30))
}

// TestConnectionsHeldOpen: an address holding open more connections than
// it may (handshakes never finished) gets the next one closed at once;
// once they close, it connects again.
func TestConnectionsHeldOpen(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := startServer(t, Config{MaxPerAddress: 1, AttemptsPerMinute: 4, Clock: clock})
	limit := max(connsPerSession*1, 4)
	var held []net.Conn
	for range limit {
		c, err := net.Dial("tcp", srv.addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		// The server answers with its version: the connection is in.
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Read(make([]byte, 4)); err != nil {
			t.Fatalf("a connection within the limit: %v", err)
		}
	}
	extra, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	extra.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := extra.Read(make([]byte, 4)); err == nil {
		t.Fatalf("a connection past the limit was answered (%d bytes)", n)
	}
	extra.Close()
	if st := srv.room.Stats(); st.RefusedConns != 1 {
		t.Fatalf("counted %+v", st)
	}
	for _, c := range held {
		c.Close()
	}
	poll(t, "the held connections counted out", func() (bool, string) {
		srv.conns.mu.Lock()
		defer srv.conns.mu.Unlock()
		return srv.conns.total == 0, fmt.Sprint(srv.conns.total)
	})
	mu.Lock()
	now = now.Add(time.Minute) // the attempts' bucket refilled
	mu.Unlock()
	connect(t, srv.addr, newKey(t), 100, 30).waitFor(0, lesson1.Title)
}

// TestRoomSnapshotBounded: a room of 3,000 attendees, whose answers name
// options that do not exist in words made of control sequences: the
// snapshot lists the connected first, at most room.MaxAttendees, counts
// them all, and the instructor's view draws it within its window with
// nothing but colour reaching the terminal.
func TestRoomSnapshotBounded(t *testing.T) {
	r := newRoom(course, "")
	for i := range 3000 {
		p := progress.New()
		p.Lesson(lesson1.ID).RecordFirst(1, fmt.Sprintf("\x1b[2J\u202e%d", i%50), false)
		id := r.join(Attendee{ID: fmt.Sprintf("key-%d", i), Name: fmt.Sprintf("a%d\x1b]0;x\x07", i)}, p, nil)
		if i%3 != 0 {
			r.leave(id)
		}
	}
	snap := r.Snapshot()
	if snap.Seen != 3000 || snap.Online != 1000 || len(snap.Attendees) != room.MaxAttendees {
		t.Fatalf("seen %d, online %d, listed %d", snap.Seen, snap.Online, len(snap.Attendees))
	}
	for _, a := range snap.Attendees {
		if a.Sessions == 0 {
			t.Fatal("an attendee who left is listed before one connected")
		}
	}
	sc := room.NewScreen(true, nil)
	next, _ := sc.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	next, _ = next.Update(room.Updated{Snapshot: snap})
	frame := next.View().Content
	if strings.Contains(frame, "\x1b[2J") || strings.Contains(frame, "\x1b]0") || strings.Contains(frame, "\u202e") {
		t.Fatalf("attendee data reached the terminal raw:\n%s", frame)
	}
	if n := len(strings.Split(frame, "\n")); n != 30 {
		t.Fatalf("the view is %d lines", n)
	}
}

// TestResizesCoalesced: a storm of window changes reaches the program as
// at most one resize per resizeEvery, the first at once and the last of
// the storm in the end.
func TestResizesCoalesced(t *testing.T) {
	windows := make(chan ssh.Window)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var got []tea.Msg
	go forwardResizes(ctx, windows, func(m tea.Msg) { mu.Lock(); got = append(got, m); mu.Unlock() })
	start := time.Now()
	for i := range 5000 {
		windows <- ssh.Window{Width: 1 + i%300, Height: 1 + i%90}
	}
	windows <- ssh.Window{Width: 123, Height: 45}
	storm := time.Since(start)
	poll(t, "the storm's last size", func() (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0 && got[len(got)-1] == chrome.Resize{Width: 123, Height: 45}, fmt.Sprint(len(got), " resizes")
	})
	mu.Lock()
	defer mu.Unlock()
	if got[0] != (chrome.Resize{Width: 1, Height: 1}) {
		t.Fatalf("the first resize given is %v", got[0])
	}
	if most := int(storm/resizeEvery) + 2; len(got) > most {
		t.Fatalf("%d resizes given for a storm of %s: at most %d", len(got), storm, most)
	}
	t.Logf("5,001 window changes in %s, %d given to the program", storm, len(got))
}

// TestWindowChangesAfterTheEnd: a client that goes on sending window
// changes while its session ends (here it quits with q) does not wedge
// its connection: the server still takes the client's close, and counts
// the connection out.
func TestWindowChangesAfterTheEnd(t *testing.T) {
	srv := startServer(t, Config{})
	for round := range 5 {
		c, err := dial(t, srv.addr, gossh.PublicKeys(newKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		tm := openTerm(t, c, 100, 30)
		tm.waitFor(0, lesson1.Title)
		stop := make(chan struct{})
		go func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if tm.sess.WindowChange(30+i%10, 100+i%7) != nil {
					return
				}
			}
		}()
		tm.press("q")
		tm.waitEnd()
		close(stop)
		c.Close()
		poll(t, fmt.Sprintf("round %d: the connection closed on the server", round), func() (bool, string) {
			srv.conns.mu.Lock()
			defer srv.conns.mu.Unlock()
			return srv.conns.total == 0, fmt.Sprint(srv.conns.total, " connections open")
		})
	}
}

// TestQuitWithKeysInFlight: sessions that quit with keys still coming
// (q, then a few kilobytes) leave nothing behind once they are gone: no
// goroutine blocked handing an event to a program that has ended,
// holding its connection. (Bubble Tea's own input reader did, once per
// such session.)
func TestQuitWithKeysInFlight(t *testing.T) {
	srv := startServer(t, Config{})
	connect(t, srv.addr, newKey(t), 100, 30).waitFor(0, lesson1.Title) // the server warmed up
	runtime.GC()
	before := runtime.NumGoroutine()
	for range 20 {
		c, err := dial(t, srv.addr, gossh.PublicKeys(newKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		tm := openTerm(t, c, 100, 30)
		tm.waitFor(0, lesson1.Title)
		tm.press("q" + strings.Repeat("jkjkjk", 1000))
		tm.waitEnd()
		c.Close()
	}
	poll(t, "the quit sessions' goroutines gone", func() (bool, string) {
		n := runtime.NumGoroutine()
		return n <= before+4, fmt.Sprintf("%d goroutines, %d before", n, before)
	})
}
