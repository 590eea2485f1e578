package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/conflictlab/conflictlab/procstatus"
)

// TestSoak is the room under load (scripts/soak.sh runs it; BENCHMARKS.md,
// "serve", reports it): a `conflictlab serve` process, and against it N
// well-behaved attendees, all from one address (a room behind one NAT),
// each answering lesson 1 and then stepping through its race, a key every
// half second or so, while a hostile client runs every attack of issue 25
// from addresses of its own. It reports the server's peak RSS, the
// well-behaved sessions' key-to-frame latency (p50, p99: from a key's
// write to the first byte of the frame it causes), the refusals by
// reason, and checks every attendee's progress file after the server
// has stopped.
//
// It runs only when CONFLICTLAB_SOAK_BIN names a conflictlab binary:
//
//	CONFLICTLAB_SOAK_SESSIONS  well-behaved sessions (60)
//	CONFLICTLAB_SOAK_DURATION  how long they play (60s)
//	CONFLICTLAB_SOAK_RAMP      instead: active sessions to step through
//	                           ("20,40,60"), each for the duration, without
//	                           the hostile client — the room's capacity
//	CONFLICTLAB_SOAK_HOSTILE   0 leaves the hostile client out
//	CONFLICTLAB_SOAK_ASSERT    1 fails the test on a lost answer, a session
//	                           that did not play, or a server that died
func TestSoak(t *testing.T) {
	bin := os.Getenv("CONFLICTLAB_SOAK_BIN")
	if bin == "" {
		t.Skip("the soak runs with CONFLICTLAB_SOAK_BIN=conflictlab (scripts/soak.sh)")
	}
	n := envInt("CONFLICTLAB_SOAK_SESSIONS", 60)
	dur := envDuration("CONFLICTLAB_SOAK_DURATION", 60*time.Second)
	if ramp := os.Getenv("CONFLICTLAB_SOAK_RAMP"); ramp != "" {
		soakRamp(t, bin, ramp, dur)
		return
	}
	srv := startSoakServer(t, bin, n, "--allow-names")
	var hostile *hostileClient
	if os.Getenv("CONFLICTLAB_SOAK_HOSTILE") != "0" {
		hostile = &hostileClient{t: t, addr: srv.addr}
	}
	attendees := startAttendees(t, srv.addr, n)
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	if hostile != nil {
		hostile.run(ctx)
	}
	lat := play(ctx, attendees)
	if hostile != nil {
		hostile.wait()
	}
	alive := srv.alive()
	peak := srv.peakRSS()
	// Every attendee leaves; the emptied room holds what it started with.
	for _, p := range attendees {
		p.sess.Close()
		p.client.Close()
	}
	after := srv.emptied(t)
	srv.stop(t)
	lost := checkProgress(t, srv.state, attendees)
	refused := srv.refusals()
	if f := os.Getenv("CONFLICTLAB_SOAK_LOG"); f != "" {
		os.WriteFile(f, []byte(srv.log.String()), 0o644)
	}

	fmt.Printf("soak: %d sessions for %s, hostile %v\n", n, dur, hostile != nil)
	fmt.Printf("server peak RSS: %d MiB (VmHWM); alive at the end: %v\n", peak>>10, alive)
	fmt.Printf("key-to-frame: %s\n", lat.summary())
	fmt.Printf("refused, by reason: %s\n", refused)
	if hostile != nil {
		fmt.Printf("hostile client: %s\n", hostile.summary())
	}
	fmt.Printf("progress files: %d checked, %d answers lost\n", len(attendees), lost)
	fmt.Printf("sessions served: %d; goroutines: %d at the start, %d once every attendee had left (%d sessions open then)\n",
		srv.served(), srv.startGoroutines, after.goroutines, after.sessions)
	if os.Getenv("CONFLICTLAB_SOAK_ASSERT") == "1" {
		switch {
		case !alive:
			t.Fatal("the server died")
		case lost > 0:
			t.Fatalf("%d answers lost", lost)
		case lat.failed > 0:
			t.Fatalf("%d keys got no frame within 10 s", lat.failed)
		case len(lat.samples) < n:
			t.Fatalf("%d keys measured for %d sessions", len(lat.samples), n)
		case after.sessions != 0 || after.goroutines > srv.startGoroutines+20:
			t.Fatalf("the emptied room holds %d sessions and %d goroutines (%d at the start)", after.sessions, after.goroutines, srv.startGoroutines)
		}
	}
}

// soakRamp finds the room's capacity: for each count of active sessions,
// the key-to-frame latency while they all play.
func soakRamp(t *testing.T, bin, ramp string, dur time.Duration) {
	var steps []int
	for _, f := range strings.Split(ramp, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			t.Fatalf("CONFLICTLAB_SOAK_RAMP %q: want counts such as 20,40,60", ramp)
		}
		steps = append(steps, n)
	}
	top := slices.Max(steps)
	srv := startSoakServer(t, bin, top)
	attendees := startAttendees(t, srv.addr, top)
	fmt.Printf("soak ramp: %s each\nactive  p50 ms  p99 ms  keys  server CPU %%\n", dur)
	for _, n := range steps {
		ctx, cancel := context.WithTimeout(context.Background(), dur)
		cpu0, wall0 := srv.cpu(), time.Now()
		lat := play(ctx, attendees[:n])
		cancel()
		cpu := float64(srv.cpu()-cpu0) / float64(time.Since(wall0)) * 100
		fmt.Printf("%6d  %6.1f  %6.1f  %4d  %5.0f\n", n, ms(lat.quantile(0.5)), ms(lat.quantile(0.99)), len(lat.samples), cpu)
	}
	fmt.Printf("server peak RSS: %d MiB\n", srv.peakRSS()>>10)
	srv.stop(t)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func envInt(k string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(k)); err == nil && n > 0 {
		return n
	}
	return def
}

func envDuration(k string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(k)); err == nil && d > 0 {
		return d
	}
	return def
}

// soakServer is a conflictlab serve process.
type soakServer struct {
	cmd   *exec.Cmd
	addr  string
	state string
	log   *logBuf
	ended chan struct{}
	// startGoroutines is the server's count once it listens (0: a build
	// without SIGUSR1's room state).
	startGoroutines int
}

// roomState is the server's answer to SIGUSR1 (Server.LogState).
type roomState struct{ sessions, goroutines int }

var roomStateLine = regexp.MustCompile(`msg="room state" sessions=(\d+) .*goroutines=(\d+)`)

// roomState asks the server for its state and waits for the line.
func (s *soakServer) roomState() (roomState, bool) {
	before := len(roomStateLine.FindAllString(s.log.String(), -1))
	s.cmd.Process.Signal(syscall.SIGUSR1)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if all := roomStateLine.FindAllStringSubmatch(s.log.String(), -1); len(all) > before {
			last := all[len(all)-1]
			n, _ := strconv.Atoi(last[1])
			g, _ := strconv.Atoi(last[2])
			return roomState{n, g}, true
		}
		time.Sleep(20 * time.Millisecond) // polling the log the server writes
	}
	return roomState{}, false
}

// emptied waits until the server holds no session (its connections'
// goroutines ended too, within 30 s) and returns its state then.
func (s *soakServer) emptied(t *testing.T) roomState {
	var st roomState
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var ok bool
		if st, ok = s.roomState(); !ok {
			return st // a build without the state signal
		}
		if st.sessions == 0 && st.goroutines <= s.startGoroutines+20 {
			break
		}
		time.Sleep(500 * time.Millisecond) // the room empties at the connections' pace
	}
	return st
}

// served counts the attendee sessions the server let in.
func (s *soakServer) served() int {
	return strings.Count(s.log.String(), `msg="attendee connected"`)
}

func startSoakServer(t *testing.T, bin string, sessions int, extra ...string) *soakServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	state := t.TempDir()
	// The defaults, but room enough for the sessions asked for.
	args := []string{"serve", "--listen", addr, "--state", state,
		"--max-sessions", strconv.Itoa(max(DefaultMaxSessions, sessions+20)),
		"--attempts-per-minute", strconv.Itoa(max(DefaultAttemptsPerMinute, 2*sessions))}
	// A build from before the per-address limit (for a before/after
	// measurement in one run) has no such flag.
	if help, _ := exec.Command(bin, "serve", "--help").Output(); bytes.Contains(help, []byte("--max-per-address")) {
		args = append(args, "--max-per-address", strconv.Itoa(max(DefaultMaxPerAddress, sessions+10)))
	}
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	s := &soakServer{cmd: cmd, addr: addr, state: state, log: &logBuf{}, ended: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(s.ended) }()
	t.Cleanup(func() { cmd.Process.Kill() })
	poll(t, "the server listening", func() (bool, string) { return strings.Contains(s.log.String(), "listening"), s.log.String() })
	if st, ok := s.roomState(); ok {
		s.startGoroutines = st.goroutines
	}
	return s
}

func (s *soakServer) alive() bool {
	select {
	case <-s.ended:
		return false
	default:
		return true
	}
}

// peakRSS is the server's VmHWM, in KiB.
func (s *soakServer) peakRSS() uint64 { return procKB(s.cmd.Process.Pid, "VmHWM") }

// cpu is the CPU time the server has used.
func (s *soakServer) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// stop ends the server as an instructor does (SIGTERM: every session
// saves, then it exits).
func (s *soakServer) stop(t *testing.T) {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.ended:
	case <-time.After(30 * time.Second):
		t.Errorf("the server did not stop within 30 s of SIGTERM")
	}
}

var reasonField = regexp.MustCompile(`reason=(\w+)`)

// refusals counts the server's log lines of refusal, by reason.
func (s *soakServer) refusals() string {
	counts := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(s.log.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.Contains(l, "too many connections open from this address"):
			counts["connections held open (closed before the handshake)"]++
		case strings.Contains(l, "too many attempts from this address"):
			counts["connection rate (banner)"]++
		case strings.Contains(l, "a second session on one connection"):
			counts["second session on a connection"]++
		case strings.Contains(l, "a name in use"):
			counts["name in use"]++
		case strings.Contains(l, "a command or subsystem"):
			counts["command or subsystem"]++
		case strings.Contains(l, "session ended by a panic"):
			counts["PANIC"]++
		case strings.Contains(l, `msg="refused: `):
			if m := reasonField.FindStringSubmatch(l); m != nil {
				counts["sessions: "+m[1]]++
			}
		}
	}
	if len(counts) == 0 {
		return "none"
	}
	var out []string
	for k, v := range counts {
		out = append(out, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// procKB is a process's status field in KiB (0 if unknown).
func procKB(pid int, field string) uint64 {
	kb, _ := procstatus.KB(pid, field)
	return kb
}

// probe is a well-behaved attendee's session: what the server writes is
// counted as it arrives, so that a key's frame is timed from the moment
// its first byte is read.
type probe struct {
	key    gossh.Signer
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser

	mu      sync.Mutex
	text    bytes.Buffer // what was written, escapes stripped later; reset when read
	n       int          // bytes so far
	arrived chan struct{}
	at      time.Time // when the last bytes arrived
	ended   bool
}

// dialFrom connects from localIP (loopback has every 127.x.y.z: one per
// kind of client).
func dialFrom(addr, localIP string, user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(localIP)}, Timeout: 10 * time.Second}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	cfg := &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second}
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, cfg)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return gossh.NewClient(c, chans, reqs), nil
}

func openProbe(addr string, key gossh.Signer) (*probe, error) {
	c, err := dialFrom(addr, "127.0.0.1", "learner", gossh.PublicKeys(key))
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	p := &probe{key: key, client: c, sess: sess, in: in, arrived: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			now := time.Now()
			p.mu.Lock()
			p.text.Write(buf[:n])
			p.n += n
			p.at = now
			if err != nil {
				p.ended = true
			}
			p.mu.Unlock()
			select {
			case p.arrived <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, err
	}
	return p, nil
}

// waitText waits until the text written since the last waitText holds
// want.
func (p *probe) waitText(want string, within time.Duration) error {
	deadline := time.After(within)
	var seen strings.Builder
	for {
		p.mu.Lock()
		seen.WriteString(p.text.String())
		p.text.Reset()
		ended := p.ended
		p.mu.Unlock()
		if strings.Contains(stripANSI(seen.String()), want) {
			return nil
		}
		if ended {
			return fmt.Errorf("the session ended before showing %q", want)
		}
		select {
		case <-p.arrived:
		case <-deadline:
			return fmt.Errorf("no %q within %s", want, within)
		}
	}
}

// press writes key and returns how long until the first byte after it
// arrived.
func (p *probe) press(key string, within time.Duration) (time.Duration, error) {
	p.mu.Lock()
	mark := p.n
	p.text.Reset()
	p.mu.Unlock()
	start := time.Now()
	if _, err := io.WriteString(p.in, key); err != nil {
		return 0, err
	}
	deadline := time.After(within)
	for {
		p.mu.Lock()
		n, at, ended := p.n, p.at, p.ended
		p.mu.Unlock()
		if n > mark {
			return at.Sub(start), nil
		}
		if ended {
			return 0, errors.New("the session ended")
		}
		select {
		case <-p.arrived:
		case <-deadline:
			return 0, fmt.Errorf("no frame within %s", within)
		}
	}
}

var ansiSeq = regexp.MustCompile(`\x1b(\[[0-9;?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

func stripANSI(s string) string { return ansiSeq.ReplaceAllString(s, "") }

// startAttendees connects n attendees, each answering lesson 1 and
// waiting for its race to finish: then each is paused on the race, ready
// to step.
func startAttendees(t *testing.T, addr string, n int) []*probe {
	t.Helper()
	out := make([]*probe, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := newKey(t)
			p, err := openProbe(addr, key)
			// A build whose connection burst is smaller than the room
			// (before the burst followed --attempts-per-minute) refuses
			// some: they try again, as people do.
			for tries := 0; err != nil && tries < 60; tries++ {
				time.Sleep(time.Second) // a person's retry, not a wait for an event
				p, err = openProbe(addr, key)
			}
			if err == nil {
				err = p.waitText(lesson1.Title, 60*time.Second)
			}
			for _, step := range []struct{ key, want string }{{"\r", lesson1.Steps[0].Title}, {"n", lesson1.Steps[1].Title}, {"1", "decides it"}} {
				if err != nil {
					break
				}
				io.WriteString(p.in, step.key)
				err = p.waitText(step.want, 60*time.Second)
			}
			if err == nil {
				err = p.waitText("finished:", 120*time.Second)
			}
			if err == nil {
				_, err = p.press("\x1b[D", 30*time.Second) // ←: paused, a step back
			}
			if err != nil {
				errs <- fmt.Errorf("attendee %d: %w", i, err)
				return
			}
			out[i] = p
		}()
		time.Sleep(20 * time.Millisecond) // people do not all press enter in the same millisecond
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range out {
			p.sess.Close()
			p.client.Close()
		}
	})
	return out
}

// latencies are key-to-frame times.
type latencies struct {
	mu      sync.Mutex
	samples []time.Duration
	failed  int
}

func (l *latencies) add(d time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.failed++
		return
	}
	l.samples = append(l.samples, d)
}

func (l *latencies) quantile(q float64) time.Duration {
	if len(l.samples) == 0 {
		return 0
	}
	s := slices.Clone(l.samples)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func (l *latencies) summary() string {
	return fmt.Sprintf("p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d keys (%d without a frame within 10 s)",
		ms(l.quantile(0.5)), ms(l.quantile(0.99)), ms(l.quantile(1)), len(l.samples), l.failed)
}

// play makes every attendee step through its race until ctx ends: → and
// ← in turn, a key every 300 to 700 ms, each timed to its frame.
func play(ctx context.Context, attendees []*probe) *latencies {
	lat := &latencies{}
	var wg sync.WaitGroup
	for i, p := range attendees {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := mrand.New(mrand.NewPCG(uint64(i), 7))
			keys := []string{"\x1b[C", "\x1b[D"}
			for k := 0; ; k++ {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Duration(300+rng.IntN(400)) * time.Millisecond):
				}
				lat.add(p.press(keys[k%2], 10*time.Second))
			}
		}()
	}
	wg.Wait()
	return lat
}

// checkProgress reads every attendee's progress file, the server stopped:
// lesson 1's question answered once, with the first option.
func checkProgress(t *testing.T, state string, attendees []*probe) (lost int) {
	for _, p := range attendees {
		prog, err := onDisk(state, keyID(p.key))
		if err != nil {
			t.Errorf("%s: %v", keyID(p.key), err)
			lost++
			continue
		}
		l := prog.Lessons[lesson1.ID]
		if l == nil || l.Answers[1].Attempts != 1 || l.Answers[1].Picked != lesson1.Steps[1].Options[0].ID {
			t.Errorf("%s: lesson 1 on disk is %+v", keyID(p.key), l)
			lost++
		}
	}
	return lost
}

// hostileClient runs every attack of issue 25 against the server, each
// on its own goroutine, again and again until its context ends; it
// counts what happened.
type hostileClient struct {
	t    *testing.T
	addr string
	wg   sync.WaitGroup

	hugeSessions, channelsRefused, resizes, pastedMiB, namesRefused, heldOpen, rateBanners, loginsRefused atomic.Int64
}

// from is the address each kind of attack comes from.
const (
	hostileIP   = "127.0.0.2" // sessions: sizes, channels, resizes, pastes, names
	floodIP     = "127.0.0.3" // connections as fast as it can: the rate
	slowlorisIP = "127.0.0.4" // connections that never finish a handshake
)

func (h *hostileClient) run(ctx context.Context) {
	attacks := map[string]func(context.Context){"sizes": h.hugeSizes, "channels": h.manyChannels, "resizes": h.resizeStorm,
		"paste": h.paste, "names": h.names, "handshakes": h.slowHandshakes, "flood": h.rateFlood}
	only := os.Getenv("CONFLICTLAB_SOAK_ATTACKS") // a comma-separated few of them (all by default)
	for name, attack := range attacks {
		if only != "" && !slices.Contains(strings.Split(only, ","), name) {
			continue
		}
		h.wg.Add(1)
		go func() { defer h.wg.Done(); attack(ctx) }()
	}
}

func (h *hostileClient) wait() { h.wg.Wait() }

func (h *hostileClient) summary() string {
	return fmt.Sprintf("%d sessions at hostile sizes, %d second sessions refused, %d resizes, %d MiB pasted, %d names refused, "+
		"%d connections held open, %d rate banners, %d other logins refused",
		h.hugeSessions.Load(), h.channelsRefused.Load(), h.resizes.Load(), h.pastedMiB.Load(), h.namesRefused.Load(),
		h.heldOpen.Load(), h.rateBanners.Load(), h.loginsRefused.Load())
}

// every runs f every d until ctx ends.
func every(ctx context.Context, d time.Duration, f func()) {
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-time.After(d):
		}
	}
}

// session opens a hostile session at w×h and drains what it is sent.
func (h *hostileClient) session(ip string, w, hgt int) (*gossh.Client, *gossh.Session, io.WriteCloser, error) {
	var banner string
	c, err := dialFromBanner(h.addr, ip, &banner, gossh.PublicKeys(newKey(h.t)))
	if err != nil {
		if strings.Contains(banner, "too many connections") {
			h.rateBanners.Add(1)
		} else {
			h.loginsRefused.Add(1)
		}
		return nil, nil, nil, err
	}
	s, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	s.RequestPty("xterm", hgt, w, gossh.TerminalModes{})
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	go io.Copy(io.Discard, out)
	if err := s.Shell(); err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	return c, s, in, nil
}

func dialFromBanner(addr, ip string, banner *string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	cfg := &gossh.ClientConfig{User: "mallory", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
		BannerCallback: func(m string) error { *banner += m; return nil }}
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, cfg)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return gossh.NewClient(c, chans, reqs), nil
}

// hugeSizes: a session at each hostile first size in turn, kept 2 s.
func (h *hostileClient) hugeSizes(ctx context.Context) {
	const huge = 1<<31 - 1
	sizes := [][2]int{{0, 0}, {1, 1}, {65535, 65535}, {huge, huge}, {huge, 24}, {80, huge}, {8000, 8000}}
	i := 0
	every(ctx, 3*time.Second, func() {
		sz := sizes[i%len(sizes)]
		i++
		c, _, _, err := h.session(hostileIP, sz[0], sz[1])
		if err != nil {
			return
		}
		h.hugeSessions.Add(1)
		time.Sleep(2 * time.Second) // the session stays open a while, as an attacker's would
		c.Close()
	})
}

// manyChannels: one connection, 80 session channels with a pty each.
func (h *hostileClient) manyChannels(ctx context.Context) {
	every(ctx, 15*time.Second, func() {
		var banner string
		c, err := dialFromBanner(h.addr, hostileIP, &banner, gossh.PublicKeys(newKey(h.t)))
		if err != nil {
			h.loginsRefused.Add(1)
			return
		}
		defer c.Close()
		var wg sync.WaitGroup
		for range 80 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := c.NewSession()
				if err != nil {
					return
				}
				defer s.Close()
				var stderr bytes.Buffer
				s.Stderr = &stderr
				s.Stdout = io.Discard
				s.RequestPty("xterm", 40, 120, gossh.TerminalModes{})
				done := make(chan struct{})
				go func() { s.Run(""); close(done) }()
				select {
				case <-done:
					if strings.Contains(stderr.String(), "one tutorial per connection") {
						h.channelsRefused.Add(1)
					}
				case <-time.After(5 * time.Second): // the one tutorial of the connection (the others wait closingGrace)
				}
			}()
		}
		wg.Wait()
	})
}

// resizeStorm: one session sends 5,000 window changes of every size.
func (h *hostileClient) resizeStorm(ctx context.Context) {
	every(ctx, 5*time.Second, func() {
		c, s, _, err := h.session(hostileIP, 100, 30)
		if err != nil {
			return
		}
		defer c.Close()
		for i := range 5000 {
			if ctx.Err() != nil {
				return
			}
			w, hgt := 1+i%400, 1+(i*7)%150
			if i%50 == 0 {
				w, hgt = 1<<31-1, 1<<31-1
			}
			if s.WindowChange(hgt, w) != nil {
				return
			}
			h.resizes.Add(1)
		}
	})
}

// paste: a session is sent 1 MiB of keys at once, escapes among them.
func (h *hostileClient) paste(ctx context.Context) {
	every(ctx, 10*time.Second, func() {
		c, _, in, err := h.session(hostileIP, 100, 30)
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 1<<20)
		rand.Read(buf)
		const keys = " abcdefghijklmnopqrstuvwxyz0123456789\x1b[]\r~"
		for i := range buf {
			buf[i] = keys[int(buf[i])%len(keys)]
		}
		if _, err := in.Write(buf); err == nil {
			h.pastedMiB.Add(1)
		}
		time.Sleep(time.Second) // let the session chew on it
	})
}

// names: hold the name "mallory", and try to log in as it again.
func (h *hostileClient) names(ctx context.Context) {
	name := func(n string, asked *string) gossh.AuthMethod {
		return gossh.KeyboardInteractive(func(_, instruction string, q []string, _ []bool) ([]string, error) {
			*asked += instruction
			if len(q) == 0 {
				return nil, nil
			}
			return []string{n}, nil
		})
	}
	var asked, banner string
	holder, err := dialFromBanner(h.addr, hostileIP, &banner, name("mallory", &asked))
	if err != nil {
		h.loginsRefused.Add(1)
		return
	}
	defer holder.Close()
	s, err := holder.NewSession()
	if err != nil {
		return
	}
	s.RequestPty("xterm", 30, 100, gossh.TerminalModes{})
	s.Stdout = io.Discard
	s.Shell()
	every(ctx, 2*time.Second, func() {
		var asked, banner string
		c, err := dialFromBanner(h.addr, hostileIP, &banner, name("MALLORY", &asked))
		if err == nil {
			c.Close()
			return
		}
		if strings.Contains(asked, "is in use") {
			h.namesRefused.Add(1)
		}
	})
}

// slowHandshakes: forty connections that never say a word, held past the
// server's handshake timeout.
func (h *hostileClient) slowHandshakes(ctx context.Context) {
	every(ctx, 10*time.Second, func() {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(slowlorisIP)}, Timeout: 5 * time.Second}
		var conns []net.Conn
		for range 40 {
			c, err := d.Dial("tcp", h.addr)
			if err != nil {
				continue
			}
			conns = append(conns, c)
			h.heldOpen.Add(1)
		}
		go func() {
			select {
			case <-ctx.Done():
			case <-time.After(35 * time.Second):
			}
			for _, c := range conns {
				c.Close()
			}
		}()
	})
}

// rateFlood: 150 logins as fast as they go, from one address.
func (h *hostileClient) rateFlood(ctx context.Context) {
	every(ctx, 20*time.Second, func() {
		for range 150 {
			if ctx.Err() != nil {
				return
			}
			var banner string
			c, err := dialFromBanner(h.addr, floodIP, &banner, gossh.PublicKeys(newKey(h.t)))
			if err == nil {
				c.Close()
				continue
			}
			if strings.Contains(banner, "Try again in") {
				h.rateBanners.Add(1)
			}
		}
	})
}
