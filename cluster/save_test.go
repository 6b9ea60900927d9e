package cluster

import (
	"context"
	"errors"
	"github.com/nqueens/nqueens"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/u128"
)

// failWrites is a writer of checkpoint files, for count, whose writes fail as fail
// says, from the call numbered 1 on.
func failWrites(fail func(call int) error) func(path string, b []byte) error {
	var mu sync.Mutex
	calls := 0
	return func(path string, b []byte) error {
		mu.Lock()
		calls++
		err := fail(calls)
		mu.Unlock()
		if err != nil {
			return err
		}
		return atomicfile.WriteBytes(path, b)
	}
}

// TestCountFirstSaveFails: a checkpoint that cannot be written (a full disk) fails the
// count before anything is counted, not after the whole count.
func TestCountFirstSaveFails(t *testing.T) {
	write := failWrites(func(int) error { return syscall.ENOSPC })
	p := plan(t, 12)
	c := newCheckpoint(p, 0, 1, allIDs(p.Len()))
	counted := 0
	c.write = write
	err := count(context.Background(), p, c, matcherOf(t, p, ""), ShardOptions{Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck"),
		Progress: func(nqueens.Progress) { counted++ }})
	if !errors.Is(err, syscall.ENOSPC) || counted != 0 || c.Done.Len() != 0 {
		t.Fatalf("error %v after %d sub-problems counted", err, counted)
	}
}

// TestCountSaveFailsLater: when the writes fail once the count is under way, the count
// goes on to its end (SaveFailed hears of the failure, and of the recovery), and a last
// write that fails is a *notSavedError that says what the file holds; the sums are right.
func TestCountSaveFailsLater(t *testing.T) {
	for _, recovers := range []bool{false, true} {
		t.Run(map[bool]string{false: "fails", true: "recovers"}[recovers], func(t *testing.T) { testSaveFailsLater(t, recovers) })
	}
}

// testSaveFailsLater is TestCountSaveFailsLater with writes that fail for good, or
// only for a while (recovers).
func testSaveFailsLater(t *testing.T, recovers bool) {
	write := failWrites(func(call int) error {
		if call == 1 || recovers && call > 3 {
			return nil
		}
		return syscall.ENOSPC
	})
	p := plan(t, 12)
	c := newCheckpoint(p, 0, 1, allIDs(p.Len()))
	var heard []error
	var mu sync.Mutex
	c.write = write
	err := count(context.Background(), p, c, matcherOf(t, p, ""), ShardOptions{Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck"),
		CheckpointEvery: time.Millisecond,
		Progress: func(nqueens.Progress) {
			time.Sleep(50 * time.Microsecond) // several saves during the count
		},
		SaveFailed: func(err error) { mu.Lock(); heard = append(heard, err); mu.Unlock() }})
	if u, _ := c.unique(); !c.Complete || c.Total != u128.From(known(12)[0]) || u != u128.From(known(12)[1]) {
		t.Fatalf("recovers=%v: the count did not end right: %+v", recovers, c)
	}
	if len(heard) == 0 || !errors.Is(heard[0], syscall.ENOSPC) {
		t.Errorf("recovers=%v: SaveFailed heard %v", recovers, heard)
	}
	if recovers {
		if err != nil || len(heard) != 2 || heard[1] != nil {
			t.Errorf("recovered: %v, heard %v", err, heard)
		}
		return
	}
	var ns *notSavedError
	if !errors.As(err, &ns) || !errors.Is(err, ErrNotSaved) || !errors.Is(err, syscall.ENOSPC) || ns.Done != 0 || ns.Todo != p.Len() || ns.Stopped != nil {
		t.Fatalf("last write failed: %#v", err)
	}
	if len(heard) != 1 {
		t.Errorf("SaveFailed heard %v: want one failure, not one per write", heard)
	}
}

// TestCountInterruptedNotSaved: an interrupted count whose last write fails says both.
func TestCountInterruptedNotSaved(t *testing.T) {
	write := failWrites(func(call int) error {
		if call == 1 {
			return nil
		}
		return syscall.EIO
	})
	p := plan(t, 12)
	c := newCheckpoint(p, 0, 1, allIDs(p.Len()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.write = write
	err := count(ctx, p, c, matcherOf(t, p, ""), ShardOptions{Workers: 1, Checkpoint: filepath.Join(t.TempDir(), "ck"),
		Progress: func(nqueens.Progress) { cancel() }})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrNotSaved) || c.Complete || c.Done.Len() == 0 {
		t.Fatalf("%v, %d done", err, c.Done.Len())
	}
}

func allIDs(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}
