//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package progress

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockWait is how long a save waits for another conflictlab's save to
// finish (a save holds the lock for one read and one write).
const lockWait = 10 * time.Second

// lock takes an exclusive flock on the lock file at path, waiting up to
// lockWait: a process stopped while holding it must not hang the tutorial
// forever, so after that the save fails and says why. The lock file is
// never removed (removing it would let two processes lock different
// files of the same name).
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockWait)
	pause := time.Millisecond
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s is held by another conflictlab for more than %v", path, lockWait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}
