package serve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/userfile"
)

// An attendee is known by the public key they connect with: its SHA-256
// fingerprint names their folder under the state folder, so the same key
// finds the same progress on every reconnect. With --allow-names, a
// client without a key is asked a name at login and known by it.

// Attendee is who a session belongs to.
type Attendee struct {
	// ID names the attendee's folder: "key-" and 24 hex digits of the
	// key's fingerprint, or "name-" and the name.
	ID string
	// Name is what the room view shows: the name, or the SSH user name
	// and the fingerprint's start.
	Name string
	// Fingerprint is the key's ("" for a name).
	Fingerprint string
}

// nameKey is where askName leaves the name in the connection's context.
type nameKey struct{}

// nameRule is what a name may be: it becomes a folder name.
var nameRule = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,31}$`)

// askName is the keyboard-interactive login of --allow-names: it asks a
// name (up to three times) and accepts any that fits nameRule and is not
// held by a session open now. A name is not authentication: whoever
// types it gets its progress while nobody holds it (the README and
// --help say so). Names are folded to lower case, so that "Ada" finds
// ada's progress again.
func (s *Server) askName(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if _, limited := ctx.Value(rateKey{}).(string); limited {
		return false // the banner said why
	}
	instruction := "Conflict Lab workshop: your name keeps your progress (letters, digits, . _ -; Ada and ada are one name)." +
		" A name is not a password: use an SSH key to keep your progress your own."
	for range 3 {
		answers, err := challenge("", instruction, []string{"Name: "}, []bool{true})
		if err != nil || len(answers) != 1 {
			return false
		}
		name := strings.ToLower(strings.TrimSpace(answers[0]))
		switch {
		case !nameRule.MatchString(name):
			instruction = fmt.Sprintf("%s is not a name here: 1 to 32 letters, digits, . _ or -, starting with a letter or digit", termsafe.Escape(fmt.Sprintf("%q", answers[0])))
		case s.sessions.live("name-" + name):
			s.cfg.Log.Warn("refused: a name in use", "addr", hostOf(ctx.RemoteAddr()), "name", name)
			s.room.count(func(st *Stats) { st.RefusedName++ })
			instruction = fmt.Sprintf("the name %q is in use by a session open now: choose another (or close that session first)", name)
		default:
			ctx.SetValue(nameKey{}, name)
			return true
		}
	}
	return false
}

// nameOf is the name in a name attendee's ID.
func nameOf(id string) string { return strings.TrimPrefix(id, "name-") }

// attendeeOf says who a session is: its key, or the name asked at login.
func attendeeOf(sess ssh.Session) (Attendee, bool) {
	if k := sess.PublicKey(); k != nil {
		sum := sha256.Sum256(k.Marshal())
		user := strings.ToLower(sess.User())
		if !nameRule.MatchString(user) {
			user = "key"
		}
		fp := gossh.FingerprintSHA256(k)
		return Attendee{ID: "key-" + hex.EncodeToString(sum[:12]), Name: user + " " + fp[7:15], Fingerprint: fp}, true
	}
	if name, ok := sess.Context().Value(nameKey{}).(string); ok && name != "" {
		return Attendee{ID: "name-" + name, Name: name}, true
	}
	return Attendee{}, false
}

// readAuthorizedKeys reads the instructors' keys, one per line in
// authorized_keys format (blank lines and # comments skipped); a line
// that does not parse is reported by number.
func readAuthorizedKeys(path string) ([]ssh.PublicKey, error) {
	data, err := userfile.Read(path, 1<<20)
	if err != nil {
		return nil, fmt.Errorf("--instructor-keys: %w", err)
	}
	var keys []ssh.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not a public key (authorized_keys format: TYPE BASE64 [COMMENT]): %v", path, n, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no public key in it: the instructor would have no room view", path)
	}
	return keys, nil
}

// isInstructor reports whether the session's key is an instructor's.
func (s *Server) isInstructor(sess ssh.Session) bool { return s.isInstructorKey(sess.PublicKey()) }

func (s *Server) isInstructorKey(k ssh.PublicKey) bool {
	if k == nil {
		return false
	}
	for _, ik := range s.instructors {
		if ssh.KeysEqual(k, ik) {
			return true
		}
	}
	return false
}

// progressPath is the attendee's progress file.
func (s *Server) progressPath(a Attendee) string {
	return attendeeProgress(s.cfg.State, a.ID)
}

func attendeeProgress(state, id string) string {
	return state + string(os.PathSeparator) + "attendees" + string(os.PathSeparator) + id + string(os.PathSeparator) + "progress.json"
}
