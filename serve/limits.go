package serve

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
)

// attempts limits the connections each address opens: a token bucket per
// address, AttemptBurst deep, refilled at AttemptsPerMinute. A room behind
// one NAT shares an address, hence a burst as large as a table of laptops
// connecting together.
type attempts struct {
	mu      sync.Mutex
	perMin  float64
	burst   float64
	clock   func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newAttempts(perMinute, burst int, clock func() time.Time) *attempts {
	return &attempts{perMin: float64(perMinute), burst: float64(burst), clock: clock, buckets: map[string]*bucket{}}
}

// allow takes a token for host, or reports that it has none left.
func (a *attempts) allow(host string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock()
	b, ok := a.buckets[host]
	if !ok {
		// Forget addresses whose bucket has refilled: the map stays as
		// small as the set of recent clients.
		for h, o := range a.buckets {
			if o.tokens+now.Sub(o.at).Minutes()*a.perMin >= a.burst {
				delete(a.buckets, h)
			}
		}
		b = &bucket{tokens: a.burst, at: now}
		a.buckets[host] = b
	}
	b.tokens = min(a.burst, b.tokens+now.Sub(b.at).Minutes()*a.perMin)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// admit is the server's connection callback: over the address's budget,
// the connection is closed before the SSH handshake (and logged).
func (s *Server) admit(ctx ssh.Context, conn net.Conn) net.Conn {
	host, _, err := net.SplitHostPort(conn.RemoteAddr().String())
	if err != nil {
		host = conn.RemoteAddr().String()
	}
	if !s.attempts.allow(host) {
		s.cfg.Log.Warn("connection refused: too many attempts from this address", "addr", host,
			"limit_per_minute", s.cfg.AttemptsPerMinute, "burst", s.cfg.AttemptBurst)
		s.room.count(func(st *Stats) { st.RefusedRate++ })
		conn.Close()
		return nil
	}
	return conn
}

// takeSlot counts a session in, or reports the room full.
func (s *Server) takeSlot() (release func(), ok bool) {
	select {
	case s.slots <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-s.slots }) }, true
	default:
		return nil, false
	}
}

// idleInput is a session's input that remembers when the attendee last
// pressed a key.
type idleInput struct {
	r    io.Reader
	last atomic.Int64 // unix nanoseconds
	now  func() time.Time
}

func newIdleInput(r io.Reader, now func() time.Time) *idleInput {
	in := &idleInput{r: r, now: now}
	in.last.Store(now().UnixNano())
	return in
}

func (in *idleInput) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if n > 0 {
		in.last.Store(in.now().UnixNano())
	}
	return n, err
}

// idleFor is how long since the last key.
func (in *idleInput) idleFor() time.Duration {
	return in.now().Sub(time.Unix(0, in.last.Load()))
}
