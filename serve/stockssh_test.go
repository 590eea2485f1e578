package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The attacks of issue 25 with the ssh a person has (OpenSSH): what it
// prints is what the person reads. .ci/run installs openssh-client.

// stockSSH is the ssh binary and a private key file for it; the test is
// skipped (and says how to run it) when there is no ssh.
func stockSSH(t *testing.T) (bin, keyFile string, key gossh.Signer) {
	t.Helper()
	bin, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("no ssh binary: apt-get install openssh-client (.ci/run does)")
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if key, err = gossh.NewSignerFromKey(priv); err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile = filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return bin, keyFile, key
}

// sshArgs are the options every stock ssh of the tests takes: the key,
// no known_hosts, no agent, no prompt; then extra, then the server.
func sshArgs(addr, keyFile string, extra ...string) []string {
	host, port, _ := net.SplitHostPort(addr)
	args := []string{"-F", "/dev/null", "-i", keyFile, "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-o", "ConnectTimeout=10", "-p", port, "-l", "learner"}
	return append(append(args, extra...), host)
}

// TestStockSSHRateLimit: past the address's rate, OpenSSH prints the
// banner that says when to try again, then gives up.
func TestStockSSHRateLimit(t *testing.T) {
	bin, keyFile, _ := stockSSH(t)
	stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := startServer(t, Config{AttemptsPerMinute: 1, Clock: func() time.Time { return stopped }})
	// The first connection takes the only token (without a terminal it
	// is told to ask for one, and ends).
	exec.Command(bin, sshArgs(srv.addr, keyFile, "-T")...).Run()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, sshArgs(srv.addr, keyFile, "-T")...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "too many connections from your address (127.0.0.1): at most 1 a minute. Try again in 60 seconds.") {
		t.Fatalf("ssh over the rate: %v, it printed %q", err, stderr.String())
	}
}

// TestStockSSHControlMaster: ssh -o ControlMaster shares one connection;
// its first session is the tutorial, a second is refused on the second
// ssh's own terminal.
func TestStockSSHControlMaster(t *testing.T) {
	bin, keyFile, _ := stockSSH(t)
	srv := startServer(t, Config{})
	sock := filepath.Join(t.TempDir(), "mux")
	master := exec.Command(bin, sshArgs(srv.addr, keyFile, "-M", "-S", sock, "-N")...)
	var masterErr logBuf
	master.Stderr = &masterErr
	if err := master.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Process.Kill(); master.Wait() })
	poll(t, "the control socket", func() (bool, string) {
		_, err := os.Stat(sock)
		return err == nil, masterErr.String()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	first := exec.CommandContext(ctx, bin, sshArgs(srv.addr, keyFile, "-S", sock, "-tt")...)
	stdin, _ := first.StdinPipe()
	var firstOut logBuf
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); first.Process.Kill(); first.Wait() })
	poll(t, "the first session's tutorial", func() (bool, string) {
		return strings.Contains(firstOut.String(), "Conflict Lab"), firstOut.String()
	})
	var out bytes.Buffer
	second := exec.CommandContext(ctx, bin, sshArgs(srv.addr, keyFile, "-S", sock, "-tt")...)
	second.Stdout, second.Stderr = &out, &out
	err := second.Run()
	if err == nil || !strings.Contains(out.String(), "one tutorial per connection") {
		t.Fatalf("a second session through the master: %v, it printed %q", err, out.String())
	}
	if st := srv.room.Stats(); st.RefusedChannel != 1 {
		t.Fatalf("counted %+v", st)
	}
}

// TestStockSSHHugeTerminal: stty cols 8000 rows 8000, then ssh -tt (the
// issue's recipe, in a tmux pane): the session runs, the server stays
// small, another attendee is served.
func TestStockSSHHugeTerminal(t *testing.T) {
	bin, keyFile, _ := stockSSH(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	peak := watchRSS(t)
	srv := startServer(t, Config{})
	sock := fmt.Sprintf("conflictlab-serve-%d", os.Getpid())
	script := "stty cols 8000 rows 8000; exec " + bin + " " + strings.Join(quoteAll(sshArgs(srv.addr, keyFile, "-tt")), " ")
	tmux := func(args ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
	}
	if out, err := tmux("new-session", "-d", "-x", "100", "-y", "30", script); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	poll(t, "the session at 8000×8000", func() (bool, string) {
		return strings.Contains(srv.log.String(), "width=8000 height=8000"), srv.log.String()
	})
	answerLesson1(connect(t, srv.addr, newKey(t), 100, 30))
	underRSS(t, peak, 150<<20, "with an 8000×8000 session")
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}
