package shard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/internal/atomicfile"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/rules"
)

// DefaultEvery is the checkpoint interval when CountOptions.Every is zero.
const DefaultEvery = 30 * time.Second

// CountOptions configures Count. The zero value counts on every core and
// writes no checkpoint.
type CountOptions struct {
	Workers int // goroutines; 0 means GOMAXPROCS
	// Checkpoint, if not empty, is the file where the progress is saved: once
	// before the count starts, every Every, and once more when the count ends
	// or is interrupted.
	Checkpoint string
	Every      time.Duration // 0 means DefaultEvery
	Version    string        // the program version recorded in the checkpoint
	// Kernel is the matcher kernel of the quadrant join (the zero value: the
	// fastest this CPU runs); the checkpoint records the one it
	// resolves to (see KernelName).
	Kernel qjoin.Kernel
	// Progress, if not nil, is called after each finished sub-problem with
	// the estimated cost done and to do, resumed work included. Calls never
	// overlap.
	Progress func(done, total uint64)
	// SaveFailed, if not nil, is called when a periodic write of the
	// checkpoint fails after one that succeeded, with the error, and with nil
	// when one succeeds again: the count goes on either way. Calls never
	// overlap.
	SaveFailed func(err error)
}

// ErrNotSaved is wrapped by the error of a count that ran, to its end or to
// an interruption, but whose progress could not be written at the end: the
// sums in memory are right, the file holds less of them, or nothing.
var ErrNotSaved = errors.New("not saved")

// NotSavedError is the error of a count whose last write of its checkpoint
// failed. It wraps ErrNotSaved, the cause, and what stopped the count early
// if anything did (ctx.Err(), rules.ErrOverflow).
type NotSavedError struct {
	Path    string
	Err     error // the cause; it names the file
	Stopped error // nil when the count ran to its end
	// The file holds what the last write that succeeded wrote: Done of the
	// Todo sub-problems, at Written (RFC 3339).
	Done, Todo int
	Written    string
}

func (e *NotSavedError) Error() string {
	held := fmt.Sprintf("the file holds %d of %d sub-problems, written %s", e.Done, e.Todo, e.Written)
	if _, err := os.Stat(e.Path); errors.Is(err, os.ErrNotExist) {
		held = "no file is left"
	}
	msg := fmt.Sprintf("checkpoint NOT saved: %v (%s)", e.Err, held)
	if e.Stopped != nil && !errors.Is(e.Stopped, context.Canceled) && !errors.Is(e.Stopped, context.DeadlineExceeded) {
		msg = e.Stopped.Error() + "; " + msg
	}
	return msg
}

func (e *NotSavedError) Unwrap() []error {
	if e.Stopped == nil {
		return []error{ErrNotSaved, e.Err}
	}
	return []error{ErrNotSaved, e.Err, e.Stopped}
}

// Count counts the sub-problems of c.Todo that c.Done lacks and adds them to
// c, which must match p. With a checkpoint file, c is written there before
// anything is counted, so that a file that cannot be written fails the count
// before it starts (nothing is counted then); a periodic write that fails
// does not stop the count (opt.SaveFailed hears of it), and when the last
// write fails, Count returns a *NotSavedError, which wraps ctx.Err() if the
// count was interrupted. On return c holds every finished sub-problem: it is
// Complete, or the count was interrupted by ctx (and Count returns
// ctx.Err()), or a sum overflowed 128 bits (rules.ErrOverflow).
func Count(ctx context.Context, p *fastcount.Plan, c *Checkpoint, opt CountOptions) error {
	return count(ctx, p, c, opt, atomicfile.WriteBytes)
}

// count is Count with the function that writes the checkpoint file, which the tests
// pass to make writes fail (a full disk) without one.
func count(ctx context.Context, p *fastcount.Plan, c *Checkpoint, opt CountOptions, writeFile func(path string, b []byte) error) error {
	done := newBitset(c.Subs)
	done.addRanges(c.Done)
	var todo []int
	var doneCost, totalCost uint64
	for _, id := range c.Todo.IDs() {
		totalCost += uint64(p.Cost(id))
		if done.has(id) {
			doneCost += uint64(p.Cost(id))
		} else {
			todo = append(todo, id)
		}
	}
	kernel, kname, err := resolveKernel(p, opt.Kernel)
	if err != nil {
		return err
	}
	c.Runs++
	c.Version = opt.Version
	c.Kernel = addKernel(c.Kernel, kname)
	base := c.Seconds
	start := time.Now()

	var mu sync.Mutex // guards c and done
	var overflow bool
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// snapshot brings c up to date; the caller holds mu.
	snapshot := func() {
		c.Done = done.ranges(c.Subs)
		c.Seconds = base + time.Since(start).Seconds()
		c.Complete = c.Done.Len() == c.Todo.Len()
		c.Written = time.Now().UTC().Format(time.RFC3339)
	}
	// saved is what the file holds: the progress of the last write that
	// succeeded. Only save changes it, and saves never overlap.
	var saved struct {
		done    int
		written string
	}
	save := func() error {
		if opt.Checkpoint == "" {
			return nil
		}
		mu.Lock()
		snapshot()
		b, err := seal(c, &c.Checksum)
		doneNow, written := c.Done.Len(), c.Written
		mu.Unlock()
		if err == nil {
			err = writeFile(opt.Checkpoint, b)
		}
		if err == nil {
			saved.done, saved.written = doneNow, written
		}
		return err
	}
	if err := save(); err != nil {
		return fmt.Errorf("cannot write the checkpoint, nothing counted: %w", err)
	}

	saverDone := make(chan struct{})
	stopSaver := make(chan struct{})
	go func() {
		defer close(saverDone)
		if opt.Checkpoint == "" {
			return
		}
		every := opt.Every
		if every <= 0 {
			every = DefaultEvery
		}
		t := time.NewTicker(every)
		defer t.Stop()
		failing := false
		for {
			select {
			case <-stopSaver:
				return
			case <-t.C:
				err := save()
				if (err != nil) != failing && opt.SaveFailed != nil {
					opt.SaveFailed(err)
				}
				failing = err != nil
			}
		}
	}()

	err = p.CountSubsKernel(ctx, todo, opt.Workers, kernel, func(id int, r fastcount.SubResult) {
		mu.Lock()
		defer mu.Unlock()
		t, c1 := c.Total.Add64(r.Total)
		b, c2 := c.Burnside.Add64(r.Burnside)
		if c1 || c2 {
			overflow = true
			cancel()
			return
		}
		c.Total, c.Burnside = t, b
		done.add(id)
		doneCost += uint64(p.Cost(id))
		if opt.Progress != nil {
			opt.Progress(doneCost, totalCost)
		}
	})
	close(stopSaver)
	<-saverDone
	ferr := save()
	mu.Lock()
	snapshot()
	mu.Unlock()
	if overflow {
		err = rules.ErrOverflow
	}
	if ferr != nil {
		return &NotSavedError{Path: opt.Checkpoint, Err: ferr, Stopped: err, Done: saved.done, Todo: c.Todo.Len(), Written: saved.written}
	}
	return err
}

// KernelNone is the kernel recorded for the plans counted without one: the
// constellations of the small boards (fastcount.Plan.HasKernel).
const KernelNone = "none"

// resolveKernel returns the kernel k stands for on this machine and the name
// the files record: KernelNone for a plan without kernels.
func resolveKernel(p *fastcount.Plan, k qjoin.Kernel) (qjoin.Kernel, string, error) {
	if !p.HasKernel() {
		return k, KernelNone, nil
	}
	r, err := k.Resolve()
	if err != nil {
		return k, "", err
	}
	return r, r.String(), nil
}

// addKernel adds the kernel name k to the list of a file's kernels, names
// joined by commas in the order of their first run: "go", or "avx512,go"
// for a shard that a run on another machine resumed.
func addKernel(list, k string) string {
	if list == "" {
		return k
	}
	if slices.Contains(strings.Split(list, ","), k) {
		return list
	}
	return list + "," + k
}
