package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/conflictlab/conflictlab/lessons"
)

// The tests drive the server with a real SSH client (x/crypto/ssh) over a
// loopback listener: a pty request, window changes, keys in, the screen
// out (ANSI stripped), and the progress files on disk.

var course = func() *lessons.Pack {
	p, err := lessons.Course()
	if err != nil {
		panic(err)
	}
	return p
}()

// logBuf collects the server's log for the tests to read.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type testServer struct {
	*Server
	addr string
	log  *logBuf
}

// startServer runs a server on 127.0.0.1:0 with cfg (State a temporary
// folder unless set) until the test ends.
func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	return startServerWith(t, cfg, nil)
}

// startServerWith is startServer with change applied to the server
// before it listens.
func startServerWith(t testing.TB, cfg Config, change func(*Server)) *testServer {
	t.Helper()
	if cfg.State == "" {
		cfg.State = t.TempDir()
	}
	if cfg.Pack == nil {
		cfg.Pack = course
	}
	lb := &logBuf{}
	cfg.Log = slog.New(slog.NewTextHandler(lb, nil))
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(srv)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-done
	})
	return &testServer{Server: srv, addr: l.Addr().String(), log: lb}
}

func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dial(t testing.TB, addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	t.Helper()
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "learner", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
}

// term is one SSH session with a pty: keys go in, the screen comes out.
type term struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser
	mu     sync.Mutex
	out    bytes.Buffer
	ended  chan struct{}
}

// connect opens a session as key at w×h.
func connect(t testing.TB, addr string, key gossh.Signer, w, h int) *term {
	t.Helper()
	c, err := dial(t, addr, gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	return openTerm(t, c, w, h)
}

func openTerm(t testing.TB, c *gossh.Client, w, h int) *term {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, client: c, sess: sess, in: in, ended: make(chan struct{})}
	// What the server says on stderr (the room is full, idle) joins the
	// screen, as a terminal shows both.
	sess.Stderr = stderrTo{tm}
	go func() {
		defer close(tm.ended)
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close(); c.Close() })
	return tm
}

// screen is everything the session has written, escapes stripped.
func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return ansi.Strip(tm.out.String())
}

// mark is how much has been written so far: waitFor after a mark looks
// only at what came later.
func (tm *term) mark() int {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.Len()
}

// waitFor polls the output written after mark until it holds want.
func (tm *term) waitFor(mark int, want string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		got := ansi.Strip(string(tm.out.Bytes()[mark:]))
		tm.mu.Unlock()
		if strings.Contains(got, want) {
			return
		}
		select {
		case <-tm.ended:
			tm.mu.Lock()
			got = ansi.Strip(string(tm.out.Bytes()[mark:]))
			tm.mu.Unlock()
			if strings.Contains(got, want) {
				return
			}
			tm.t.Fatalf("the session ended without showing %q; it showed:\n%s", want, got)
		case <-time.After(20 * time.Millisecond):
		}
	}
	tm.t.Fatalf("the screen never showed %q; it showed:\n%s", want, tm.screen())
}

// press sends keys as a terminal would.
func (tm *term) press(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		seq := map[string]string{"enter": "\r", "esc": "\x1b", "down": "\x1b[B", "up": "\x1b[A", "right": "\x1b[C", "left": "\x1b[D"}[k]
		if seq == "" {
			seq = k
		}
		if _, err := io.WriteString(tm.in, seq); err != nil {
			tm.t.Fatalf("key %q: %v", k, err)
		}
	}
}

// waitEnd waits for the server to end the session (and for its stdout
// and stderr to be copied).
func (tm *term) waitEnd() {
	tm.t.Helper()
	waited := make(chan struct{})
	go func() { tm.sess.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		tm.t.Fatalf("the session did not end; it showed:\n%s", tm.screen())
	}
}

// poll retries cond until it holds or the deadline passes.
func poll(t testing.TB, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var why string
	for time.Now().Before(deadline) {
		var ok bool
		if ok, why = cond(); ok {
			return
		}
		time.Sleep(20 * time.Millisecond) // a poll interval, not a wait for an event
	}
	t.Fatalf("%s: never happened: %s", what, why)
}

type stderrTo struct{ tm *term }

func (w stderrTo) Write(p []byte) (int, error) {
	w.tm.mu.Lock()
	defer w.tm.mu.Unlock()
	return w.tm.out.Write(p)
}
