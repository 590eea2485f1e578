package serve

import (
	"fmt"
	"net"

	"charm.land/ssh"
)

// maxOpenConns is the least number of TCP connections the server holds
// open at once.
const maxOpenConns = 1024

// rateKey is where admit leaves, in the connection's context, what the
// banner tells a connection over its address's rate.
type rateKey struct{}

// admit is the server's connection callback, before the handshake. A
// connection beyond what its address may hold open is closed (logged
// and counted: no SSH channel exists to say why); one over the address's
// connection rate goes on to the login, where the banner tells it when to
// try again and allowKey refuses it, unless it is an instructor's.
func (s *Server) admit(ctx ssh.Context, conn net.Conn) net.Conn {
	host := hostOf(conn.RemoteAddr())
	perHost := connsPerSession * s.cfg.MaxPerAddress
	// The server's total is larger than any one address's, so that a
	// handful of addresses holding connections open cannot shut the door
	// on everyone else; each held connection costs some 20 KiB.
	total := max(maxOpenConns, connsPerSession*(s.cfg.MaxSessions+maxInstructorSessions))
	release, ok := s.conns.open(host, max(perHost, s.cfg.AttemptBurst), max(total, s.cfg.AttemptBurst))
	if !ok {
		s.cfg.Log.Warn("connection closed before the handshake: too many connections open from this address",
			"addr", host, "limit", perHost)
		s.room.count(func(st *Stats) { st.RefusedConns++ })
		return nil
	}
	if ok, retry := s.attempts.allow(host); !ok {
		s.cfg.Log.Warn("refused: too many attempts from this address", "addr", host,
			"limit_per_minute", s.cfg.AttemptsPerMinute, "burst", s.cfg.AttemptBurst, "retry_in", retryIn(retry))
		s.room.count(func(st *Stats) { st.RefusedRate++ })
		ctx.SetValue(rateKey{}, fmt.Sprintf("conflictlab: too many connections from your address (%s): at most %d a minute. "+
			"Try again in %s.\r\n", host, s.cfg.AttemptsPerMinute, retryIn(retry)))
	}
	return &closeHook{Conn: conn, onClose: release}
}

// banner is the pre-auth banner: empty, unless the connection is over its
// address's rate.
func (s *Server) banner(ctx ssh.Context) string {
	msg, _ := ctx.Value(rateKey{}).(string)
	return msg
}

// allowKey is the public-key login: any key is an attendee, except on a
// connection over its address's rate, where only an instructor's key is
// let in.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if _, limited := ctx.Value(rateKey{}).(string); limited {
		return s.isInstructorKey(key)
	}
	return true
}
