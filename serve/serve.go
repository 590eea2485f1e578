// Package serve is `conflictlab serve`: the tutorial over SSH for a
// workshop room. Each connection gets its own program (ui.Session) at its
// terminal's size (bounded: chrome.Bound), colour profile and resize
// events; attendees are known by their public key (or a name asked at
// login), their progress kept under the state folder with the progress
// package's lock and merge; the instructor's keys get the room view
// (ui/room) instead of the tutorial.
//
// A session passes through wish middleware, as soft-serve composes it
// (middleware.go): recover, logging, the command and pty checks
// (activeterm), the room's limits, then the attendee's tutorial or the
// instructor's room view (the bubbletea middleware). Everything a room
// can exhaust is bounded (limits.go) and logged at start: connections
// per address, the connection rate, one session per connection, sessions
// per key, per address and in all, idle time, and what one exploration
// may take (time, memory, work, and how many run at once). Every refusal
// reaches the person as a message their ssh prints.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/sandbox"
)

// Config is the server's settings; Defaults fills what is left zero.
type Config struct {
	// Listen is the address to listen on (":2222").
	Listen string
	// State is the room's folder: the host key (unless HostKey says
	// otherwise) and each attendee's progress.
	State string
	// HostKey is the host's private key file, created (0600) on the first
	// start and kept, so that attendees' known_hosts stay valid.
	HostKey string
	// Seed, when set, is the room's quiz seed: everyone gets the same
	// questions in the same order ("": the date, as for everyone).
	Seed string
	// InstructorKeys is an authorized_keys file: those keys get the room
	// view, and no limit of the room refuses them.
	InstructorKeys string
	// AllowNames lets attendees without a key in: they are asked a name
	// at login (keyboard-interactive), and known by it. A name is not
	// authentication.
	AllowNames bool
	// MaxSessions bounds the attendees' sessions open at once;
	// MaxPerKey those of one key, MaxPerAddress those from one address
	// (a room behind one NAT is one address).
	MaxSessions, MaxPerKey, MaxPerAddress int
	// IdleTimeout ends a session that has sent no key for this long (its
	// progress is saved, as when the attendee quits).
	IdleTimeout time.Duration
	// AttemptsPerMinute bounds the connections one address may open per
	// minute; AttemptBurst is how many it may open at once (0: as many as
	// AttemptsPerMinute).
	AttemptsPerMinute, AttemptBurst int
	// Explore is each exploration's budget; ParallelExplores how many
	// run at once in the whole server (others wait their turn, on screen).
	Explore          sandbox.ExploreBudget
	ParallelExplores int
	// AllowLive turns on the player's replays on a cluster, with
	// Kubeconfig's (off by default: the cluster is the instructor's).
	AllowLive  bool
	Kubeconfig string
	// Pack is the course taught (nil: the built-in course). It is shared
	// by every session and never changed.
	Pack *lessons.Pack
	// Log receives the server's log (nil: discarded).
	Log *slog.Logger
	// Clock is the wall clock (tests stop it; nil: time.Now).
	Clock func() time.Time
}

// The defaults are for a room of 60 behind one NAT (one address for all)
// on a two-core machine: two sessions each in all, 90 from one address
// (the room and a second terminal for half of it, leaving a third of the
// room's sessions to other addresses), three per key; a connection rate
// that lets the whole room connect at once and again within the minute,
// and holds a scanner or a reconnect loop to two a second; the sandbox's
// explorer one at a time per core pair, within 20 s and 64 MiB (every
// example and challenge explores in under 40 MiB). The
// room's measured capacity is in BENCHMARKS.md ("serve").
const (
	DefaultListen            = ":2222"
	DefaultMaxSessions       = 120
	DefaultMaxPerKey         = 3
	DefaultMaxPerAddress     = 90
	DefaultIdleTimeout       = 30 * time.Minute
	DefaultAttemptsPerMinute = 120
	DefaultExploreSchedules  = 200_000
	DefaultExploreTimeout    = 20 * time.Second
	DefaultExploreMemory     = 64 << 20
	// connsPerSession is how many TCP connections an address may hold
	// open per session it may have: room for connections being refused,
	// handshakes in flight and reconnects.
	connsPerSession = 2
	// handshakeTimeout ends a connection that has not logged in (a name
	// being typed included).
	handshakeTimeout = 30 * time.Second
)

// Defaults fills the zero fields of c.
func (c Config) Defaults() Config {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.State == "" {
		c.State = "conflictlab-room"
	}
	if c.HostKey == "" {
		c.HostKey = filepath.Join(c.State, "host_ed25519")
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.MaxPerKey <= 0 {
		c.MaxPerKey = DefaultMaxPerKey
	}
	if c.MaxPerAddress <= 0 {
		c.MaxPerAddress = min(DefaultMaxPerAddress, c.MaxSessions)
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.AttemptsPerMinute <= 0 {
		c.AttemptsPerMinute = DefaultAttemptsPerMinute
	}
	if c.AttemptBurst <= 0 {
		c.AttemptBurst = c.AttemptsPerMinute
	}
	if c.Explore.MaxSchedules <= 0 {
		c.Explore.MaxSchedules = DefaultExploreSchedules
	}
	if c.Explore.Timeout <= 0 {
		c.Explore.Timeout = DefaultExploreTimeout
	}
	if c.Explore.MaxMemory == 0 {
		c.Explore.MaxMemory = DefaultExploreMemory
	}
	if c.ParallelExplores <= 0 {
		c.ParallelExplores = max(1, runtime.NumCPU()/2)
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	return c
}

// Server is a running room.
type Server struct {
	cfg         Config
	ssh         *ssh.Server
	room        *Room
	instructors []ssh.PublicKey
	attempts    *attempts
	conns       *conns
	channels    *channels
	sessions    *sessions
	explores    chan struct{}
	// inject, when set (tests), is a middleware run inside the recover
	// middleware, before the room's own.
	inject wish.Middleware
	// ctx ends every session when the server shuts down.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New prepares a server: the state folder, the host key (created once),
// the instructors' keys and the course. Nothing listens yet.
func New(cfg Config) (*Server, error) {
	cfg = cfg.Defaults()
	if cfg.AllowLive && cfg.Kubeconfig == "" {
		return nil, errors.New("--allow-live needs --kubeconfig FILE: the cluster attendees replay races on")
	}
	// The attendees' folder is there from the start: an export before
	// anyone connected is an empty room, not an error.
	if err := os.MkdirAll(filepath.Join(cfg.State, "attendees"), 0o700); err != nil {
		return nil, fmt.Errorf("state folder: %w", err)
	}
	pack := cfg.Pack
	if pack == nil {
		var err error
		if pack, err = lessons.Course(); err != nil {
			return nil, fmt.Errorf("the course does not load: %w", err)
		}
		cfg.Pack = pack
	}
	s := &Server{cfg: cfg, attempts: newAttempts(cfg.AttemptsPerMinute, cfg.AttemptBurst, cfg.Clock),
		conns: newConns(), channels: newChannels(), sessions: newSessions(),
		explores: make(chan struct{}, cfg.ParallelExplores)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.room = newRoom(pack, cfg.Seed)
	if cfg.InstructorKeys != "" {
		keys, err := readAuthorizedKeys(cfg.InstructorKeys)
		if err != nil {
			return nil, err
		}
		s.instructors = keys
	}
	opts := []ssh.Option{
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(cfg.HostKey),
		wish.WithPublicKeyAuth(s.allowKey),
		wish.WithBannerHandler(s.banner),
		ssh.WrapConn(s.admit),
		wish.WithMiddleware(s.middleware()...),
	}
	if cfg.AllowNames {
		opts = append(opts, wish.WithKeyboardInteractiveAuth(s.askName))
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	// No shell, exec, subsystem (sftp), port or agent forwarding: the
	// session handler runs the tutorial and nothing else, the forwarding
	// callbacks are left nil, which denies them, and session channels go
	// through sessionChannel (one per connection, no agent).
	srv.SubsystemHandlers = nil
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
	srv.HandshakeTimeout = handshakeTimeout
	s.ssh = srv
	return s, nil
}

// Room is the room's state (the instructor's view reads it).
func (s *Server) Room() *Room { return s.room }

// Config is the server's configuration, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// LogLimits says what the room is bounded by, once, at start.
func (s *Server) LogLimits() {
	c := s.cfg
	s.cfg.Log.Info("limits",
		"max_sessions", c.MaxSessions,
		"max_per_key", c.MaxPerKey,
		"max_per_address", c.MaxPerAddress,
		"sessions_per_connection", 1,
		"idle_timeout", c.IdleTimeout.String(),
		"attempts_per_minute_per_address", c.AttemptsPerMinute,
		"attempt_burst", c.AttemptBurst,
		"window_max", fmt.Sprintf("%dx%d", chrome.MaxWidth, chrome.MaxHeight),
		"explore_max_schedules", c.Explore.MaxSchedules,
		"explore_timeout", c.Explore.Timeout.String(),
		"explore_memory_mib", c.Explore.MaxMemory>>20,
		"parallel_explores", c.ParallelExplores,
		"live", liveWord(c.AllowLive),
		"names", strconv.FormatBool(c.AllowNames),
		"seed", c.Seed)
}

// LogState says what the room holds now — sessions open, refusals so
// far, goroutines and heap — for an instructor who asks mid-workshop
// (conflictlab serve logs it on SIGUSR1) and for the soak, which asks
// once every attendee has left: a room that has emptied holds about the
// goroutines it started with.
func (s *Server) LogState() {
	s.sessions.mu.Lock()
	open, instructors := s.sessions.total, s.sessions.instructors
	s.sessions.mu.Unlock()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := s.room.Stats()
	s.cfg.Log.Info("room state",
		"sessions", open,
		"instructor_sessions", instructors,
		"refused", st.Refused(),
		"idle_ended", st.IdleEnded,
		"panics", st.Panics,
		"goroutines", runtime.NumGoroutine(),
		"heap_mib", ms.HeapAlloc>>20)
}

func liveWord(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	err := s.ssh.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on Config.Listen.
func (s *Server) ListenAndServe() error {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	s.cfg.Log.Info("listening", "addr", l.Addr().String(), "state", s.cfg.State, "host_key", s.cfg.HostKey)
	return s.Serve(l)
}

// Shutdown stops accepting, ends every session (each saves its progress)
// and waits for them until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	err := s.ssh.Close()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// acquireExplore waits for a turn of the server's explorer.
func (s *Server) acquireExplore(ctx context.Context) (func(), error) {
	select {
	case s.explores <- struct{}{}:
		return func() { <-s.explores }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
