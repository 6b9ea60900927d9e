package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLock: a lock is held by one taker at a time (flock conflicts between two opens,
// even in one process, as between two processes); the refusal names the holder; Release
// removes the file and lets the next taker in; a stale file left by a killed holder is
// taken over.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.lock")
	l, err := tryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	_, err = tryLock(path)
	var le *lockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrInUse) || le.Holder != fmt.Sprintf("process %d on host %s", os.Getpid(), host) ||
		!strings.Contains(err.Error(), "lock file "+path) {
		t.Fatalf("second taker: %v", err)
	}
	l.release()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock file is left after Release: %v", err)
	}
	os.WriteFile(path, []byte("999999 elsewhere\n"), 0o644) // left by a kill -9
	l, err = tryLock(path)
	if err != nil {
		t.Fatalf("a stale lock file: %v", err)
	}
	defer l.release()
	if b, _ := os.ReadFile(path); string(b) != fmt.Sprintf("%d %s\n", os.Getpid(), host) {
		t.Errorf("the lock file holds %q", b)
	}
	var none *fileLock
	none.release()
}

// TestHeld: Held sees a lock taken by tryLock and no lock once it is released or when
// there is no file; a probe that holds the lock for a moment, as Held does, does not stop
// a tryLock at that instant.
func TestHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.lock")
	if held, err := lockHeld(path); held || err != nil {
		t.Fatalf("no file: held %v, %v", held, err)
	}
	l, err := tryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if held, err := lockHeld(path); !held || err != nil {
		t.Fatalf("locked: held %v, %v", held, err)
	}
	l.release()
	os.WriteFile(path, nil, 0o644) // a file left by a kill -9
	if held, err := lockHeld(path); held || err != nil {
		t.Fatalf("released: held %v, %v", held, err)
	}
	// A probe's shared lock, held longer than a probe holds it but less than probeWait.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := flock(f, unix.LOCK_SH|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(probeWait / 4)
		f.Close()
	}()
	l, err = tryLock(path)
	if err != nil {
		t.Fatalf("tryLock during a probe: %v", err)
	}
	l.release()
}
