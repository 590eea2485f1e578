package serve

import (
	"fmt"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The session channels of a connection: one tutorial per connection.
// An SSH connection can open many session channels (ssh -o
// ControlMaster=yes multiplexes every later ssh through one), each of
// which would be a tutorial with its own screen: one client could fill
// the room over a single connection. The first session channel runs the
// tutorial; another opened while it is open is accepted only to be told
// why it ends, on its stderr, which the client prints.

// agentRequest is OpenSSH's request to forward the client's agent.
const agentRequest = "auth-agent-req@openssh.com"

// channels holds the session channel open on each connection: its done
// is closed when it is counted out.
type channels struct {
	mu   sync.Mutex
	open map[*gossh.ServerConn]chan struct{}
}

func newChannels() *channels { return &channels{open: map[*gossh.ServerConn]chan struct{}{}} }

// take counts a channel of conn in, or gives the done of the one open.
func (c *channels) take(conn *gossh.ServerConn) (release func(), busy <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if done, ok := c.open[conn]; ok {
		return nil, done
	}
	done := make(chan struct{})
	c.open[conn] = done
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			delete(c.open, conn)
			close(done)
		})
	}, nil
}

// closingGrace is how long a new session channel waits for the one open
// on its connection to finish closing: a client that closes a session
// and opens the next at once is not refused for the race between the
// two.
const closingGrace = 2 * time.Second

// sessionChannel is the server's handler of "session" channels: the
// library's, for the one channel of a connection, with agent forwarding
// refused; a refusal for another opened while it is open.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	release, busy := s.channels.take(conn)
	if busy != nil {
		select {
		case <-busy:
			release, busy = s.channels.take(conn)
		case <-time.After(closingGrace):
		}
	}
	if busy != nil {
		s.cfg.Log.Warn("refused: a second session on one connection", "addr", hostOf(conn.RemoteAddr()), "user", conn.User())
		s.room.count(func(st *Stats) { st.RefusedChannel++ })
		refuseChannel(newChan, "conflictlab: one tutorial per connection, and this connection has one open already "+
			"(ssh's ControlMaster shares one connection): run ssh -o ControlPath=none -p PORT HOST for another.")
		return
	}
	defer release()
	// The session is counted out as soon as its tutorial ends
	// (logSession), before the client hears the exit status, or its
	// channel closes; and the tutorial ends when its channel closes,
	// though the connection stays open (a multiplexing client): the
	// context of the library's session is the connection's.
	closed := make(chan struct{})
	go func() { <-closed; release() }()
	ctx.SetValue(channelKey{}, release)
	ctx.SetValue(channelClosedKey{}, (<-chan struct{})(closed))
	ssh.DefaultSessionHandler(srv, conn, noAgent{NewChannel: newChan, closed: closed}, ctx)
}

// channelClosedKey is where sessionChannel leaves a channel closed when
// the session's channel is.
type channelClosedKey struct{}

// channelKey is where sessionChannel leaves the release of the
// connection's session channel.
type channelKey struct{}

// refuseTimeout is how long a refused channel waits for its client to
// ask for the shell the message is written to.
const refuseTimeout = 10 * time.Second

// refuseChannel accepts a session channel only to say msg on its stderr
// and end it with exit status 1. The message goes after the client's
// shell or command request, so that the client shows it as the session's
// output (before that, OpenSSH may not have set up where it goes).
func refuseChannel(newChan gossh.NewChannel, msg string) {
	ch, reqs, err := newChan.Accept()
	if err != nil {
		return
	}
	defer ch.Close()
	timeout := time.NewTimer(refuseTimeout)
	defer timeout.Stop()
	for {
		select {
		case req, ok := <-reqs:
			if !ok {
				return
			}
			switch req.Type {
			case "subsystem":
				_ = req.Reply(false, nil)
				return
			case "shell", "exec":
				_ = req.Reply(true, nil)
				fmt.Fprintf(ch.Stderr(), "%s\r\n", msg)
				_, _ = ch.SendRequest("exit-status", false, gossh.Marshal(struct{ Status uint32 }{1}))
				return
			case "pty-req", "env", "window-change":
				_ = req.Reply(true, nil)
			default:
				_ = req.Reply(false, nil)
			}
		case <-timeout.C:
			return
		}
	}
}

// noAgent is a session channel whose requests to forward an agent are
// refused before the library sees them (it would say yes: nothing would
// be forwarded, but like every other forwarding it is refused).
type noAgent struct {
	gossh.NewChannel
	// closed is closed when the channel's requests end: the channel is
	// closed.
	closed chan struct{}
}

func (n noAgent) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := n.NewChannel.Accept()
	if err != nil {
		close(n.closed)
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(n.closed)
		defer close(out)
		for req := range reqs {
			if req.Type == agentRequest {
				if req.WantReply {
					_ = req.Reply(false, nil)
				}
				continue
			}
			out <- req
		}
	}()
	return ch, out, nil
}
