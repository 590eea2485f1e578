package serve

import (
	"fmt"
	"io"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// What one connection, key and address may take of the room, checked in
// the order a connection meets them:
//
//  1. before the handshake, the connections an address holds open
//     (conns): a client that opens hundreds and never finishes a
//     handshake cannot fill the server's memory. Nothing can be said to
//     such a client (no SSH channel exists yet): it is the one refusal
//     that is a bare close, and only an address already holding more
//     connections than the room has sessions for meets it;
//  2. at login, the connection rate per address (attempts, a token bucket
//     of golang.org/x/time/rate): over it, the pre-auth banner says when
//     to try again and the login is refused — except for an instructor's
//     key, which is never refused;
//  3. per connection, one tutorial session (channel.go);
//  4. per session, the room's sessions, each key's and each address's
//     (sessions); an instructor's sessions are counted apart, so
//     attendees never lock the instructor out.

// attempts is the connection rate per address: a bucket of Burst tokens
// refilled at PerMinute a minute, one taken by each connection.
type attempts struct {
	mu       sync.Mutex
	perMin   int
	burst    int
	clock    func() time.Time
	limiters map[string]*rate.Limiter
}

// maxTrackedAddresses bounds the limiters kept: past it, those whose
// bucket has refilled are forgotten (they would allow a whole burst
// anyway).
const maxTrackedAddresses = 4096

func newAttempts(perMinute, burst int, clock func() time.Time) *attempts {
	return &attempts{perMin: perMinute, burst: burst, clock: clock, limiters: map[string]*rate.Limiter{}}
}

// allow takes a token for host; when there is none, retry is how long
// until there is.
func (a *attempts) allow(host string) (ok bool, retry time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock()
	l, known := a.limiters[host]
	if !known {
		if len(a.limiters) >= maxTrackedAddresses {
			for h, o := range a.limiters {
				if o.TokensAt(now) >= float64(a.burst) {
					delete(a.limiters, h)
				}
			}
		}
		l = rate.NewLimiter(rate.Limit(float64(a.perMin)/60), a.burst)
		a.limiters[host] = l
	}
	if l.AllowN(now, 1) {
		return true, 0
	}
	r := l.ReserveN(now, 1)
	retry = r.DelayFrom(now)
	r.CancelAt(now)
	return false, retry
}

// conns counts the TCP connections each address holds open, from accept
// to close.
type conns struct {
	mu      sync.Mutex
	perHost map[string]int
	total   int
}

func newConns() *conns { return &conns{perHost: map[string]int{}} }

// open counts a connection in, unless host already holds perHost or the
// server total; release counts it out (once).
func (c *conns) open(host string, perHost, total int) (release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perHost[host] >= perHost || c.total >= total {
		return nil, false
	}
	c.perHost[host]++
	c.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.total--
			if c.perHost[host]--; c.perHost[host] <= 0 {
				delete(c.perHost, host)
			}
		})
	}, true
}

// closeHook is a connection that tells when it is closed.
type closeHook struct {
	net.Conn
	once    sync.Once
	onClose func()
}

func (c *closeHook) Close() error {
	c.once.Do(c.onClose)
	return c.Conn.Close()
}

// sessions counts the sessions open: the room's, each attendee's and
// each address's, and the instructors' apart.
type sessions struct {
	mu          sync.Mutex
	total       int
	perID       map[string]int
	perHost     map[string]int
	instructors int
}

func newSessions() *sessions {
	return &sessions{perID: map[string]int{}, perHost: map[string]int{}}
}

// refusal is why a session was not let in: what the person is told, and
// the reason it is logged and counted under.
type refusal struct {
	reason string // "full", "key", "address", "name", "instructors"
	msg    string
}

// maxInstructorSessions bounds the instructors' sessions, which the
// room's limits do not count: a room view or two each, and a spare.
const maxInstructorSessions = 16

// take counts a session of attendee id from host in, or says why not.
func (s *sessions) take(c Config, id, host string, byName, instructor bool) (release func(), no *refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if instructor {
		if s.instructors >= maxInstructorSessions {
			return nil, &refusal{"instructors", fmt.Sprintf("the instructors' %d sessions are all open: close one first.", maxInstructorSessions)}
		}
		s.instructors++
		return s.releaser(func() { s.instructors-- }), nil
	}
	perID := c.MaxPerKey
	switch {
	case byName && s.perID[id] > 0:
		return nil, &refusal{"name", fmt.Sprintf("the name %q is in use by a session open now: log in with another name, or close that session first.", nameOf(id))}
	case s.total >= c.MaxSessions:
		return nil, &refusal{"full", fmt.Sprintf("the room is full (%d sessions): try again in a minute, or ask the instructor.", c.MaxSessions)}
	case !byName && s.perID[id] >= perID:
		return nil, &refusal{"key", fmt.Sprintf("this key has %d sessions open, the most one key may: close one of them first.", perID)}
	case s.perHost[host] >= c.MaxPerAddress:
		return nil, &refusal{"address", fmt.Sprintf("%d sessions are open from your address (%s), the most one address may: close one, or ask the instructor.", c.MaxPerAddress, host)}
	}
	s.total++
	s.perID[id]++
	s.perHost[host]++
	return s.releaser(func() {
		s.total--
		if s.perID[id]--; s.perID[id] <= 0 {
			delete(s.perID, id)
		}
		if s.perHost[host]--; s.perHost[host] <= 0 {
			delete(s.perHost, host)
		}
	}), nil
}

// live reports whether attendee id has a session open.
func (s *sessions) live(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.perID[id] > 0
}

// releaser runs f once, under s.mu.
func (s *sessions) releaser(f func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			f()
		})
	}
}

// retryIn says a wait the way the refusal does: whole seconds, rounded
// up, at least one.
func retryIn(d time.Duration) string {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", s)
}

// hostOf is the address part of a remote address.
func hostOf(a net.Addr) string {
	if a == nil {
		return "unknown"
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
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
