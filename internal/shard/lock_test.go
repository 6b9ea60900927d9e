package shard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLock: a lock is held by one taker at a time (flock conflicts between two opens,
// even in one process, as between two processes); the refusal names the holder; Release
// removes the file and lets the next taker in; a stale file left by a killed holder is
// taken over.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.lock")
	l, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	_, err = TryLock(path)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Holder != fmt.Sprintf("process %d on host %s", os.Getpid(), host) ||
		!strings.Contains(err.Error(), "lock file "+path) {
		t.Fatalf("second taker: %v", err)
	}
	l.Release()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock file is left after Release: %v", err)
	}
	os.WriteFile(path, []byte("999999 elsewhere\n"), 0o644) // left by a kill -9
	l, err = TryLock(path)
	if err != nil {
		t.Fatalf("a stale lock file: %v", err)
	}
	defer l.Release()
	if b, _ := os.ReadFile(path); string(b) != fmt.Sprintf("%d %s\n", os.Getpid(), host) {
		t.Errorf("the lock file holds %q", b)
	}
	var none *Lock
	none.Release()
}
