package cluster

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A fileLock is a claim on a count's files (a checkpoint, a shard's result) that no other
// process can hold at the same time: an exclusive flock(2) on a lock file beside them,
// which holds the pid and host of its holder. The kernel drops the claim when the
// process ends, however it ends, so a kill -9 leaves no stale lock, only a stale file
// that the next fileLock takes over. On NFS, Linux maps flock to the server's locks, so two
// machines that share the directory exclude each other too.
type fileLock struct {
	f    *os.File
	path string
}

// lockedError is the error of tryLock when another process holds the lock.
type lockedError struct {
	Path   string // the lock file
	Holder string // "process 1234 on host h", or "another process" if it did not say
}

func (e *lockedError) Error() string {
	return fmt.Sprintf("%s (lock file %s)", e.Holder, e.Path)
}

// ErrInUse is wrapped by the error of CountCheckpointed and CountShard when another
// process is counting the same checkpoint or shard: each takes an exclusive lock (flock)
// on a lock file beside its files, FILE.lock or shard-IIII-of-KKKK.lock, and the error
// names the process that holds it (pid and host).
var ErrInUse = errors.New("locked by another process")

func (e *lockedError) Unwrap() error { return ErrInUse }

// tryLock takes the lock file path (creating it), or fails with a *lockedError naming
// the holder. Where the file system has no locks (ENOLCK, EOPNOTSUPP), it returns a fileLock
// that excludes nothing. A lock held for less than probeWait (the probe of lockHeld) does not
// stop it: it tries again.
func tryLock(path string) (*fileLock, error) {
	busy := time.Now().Add(probeWait)
	for tries := 0; tries < 10; {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		err = flock(f, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case errors.Is(err, unix.EWOULDBLOCK) && time.Now().Before(busy):
			f.Close()
			time.Sleep(probeWait / 10)
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			holder := "another process"
			if b, rerr := os.ReadFile(path); rerr == nil {
				if pid, host, ok := strings.Cut(strings.TrimSpace(string(b)), " "); ok {
					holder = fmt.Sprintf("process %s on host %s", pid, host)
				}
			}
			f.Close()
			return nil, &lockedError{Path: path, Holder: holder}
		case errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOTSUP):
			return &fileLock{f: f}, nil // no locks here: nothing to remove either
		case err != nil:
			f.Close()
			return nil, &os.PathError{Op: "flock", Path: path, Err: err}
		}
		// The holder before may have removed the file between our open and our lock:
		// then the lock is on a file nobody else will open; take the one at path.
		if sameFile(f, path) {
			host, _ := os.Hostname()
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+" "+host+"\n"), 0) // a full disk: the holder stays unnamed
			return &fileLock{f: f, path: path}, nil
		}
		f.Close()
		tries++
	}
	return nil, fmt.Errorf("%s: the lock file keeps being replaced", path)
}

// probeWait is how long tryLock tries again while the lock is held: longer than the probe
// of lockHeld holds it (microseconds), so that watching a run (nqueens status) never stops a
// shard that starts at that instant, and far shorter than a count holds it.
const probeWait = 100 * time.Millisecond

// lockHeld reports whether a process holds the lock file path now: a count is on its shard
// or checkpoint. It takes a shared lock on the file for an instant, and drops it (tryLock
// waits such a probe out). A missing file is no lock held; where the file system has no
// locks (ENOLCK, EOPNOTSUPP) it reports false.
func lockHeld(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close() // drops the probe's lock
	err = flock(f, unix.LOCK_SH|unix.LOCK_NB)
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		return true, nil
	case errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOTSUP):
		return false, nil
	case err != nil:
		return false, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	return false, nil
}

// release removes the lock file and drops the lock. It does nothing on a nil fileLock.
func (l *fileLock) release() {
	if l == nil {
		return
	}
	if l.path != "" && sameFile(l.f, l.path) {
		os.Remove(l.path) // while still held, so that nobody locks the removed file
	}
	l.f.Close()
}

// flock runs flock(2) on f, again when a signal interrupts it.
func flock(f *os.File, how int) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		for {
			if ferr = unix.Flock(int(fd), how); ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}

// sameFile reports whether path is the file open as f.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
