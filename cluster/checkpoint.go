package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/u128"
)

// A checkpoint's life, all in this file: a count creates it (newCheckpoint) or resumes
// the one in its file (openCheckpoint, loadCheckpoint), under a lock on its file or its
// shard (lockCheckpoint, lockShard); while it counts, the checkpoint is saved, sealed with
// its checksum, before the first sub-problem, every ShardOptions.CheckpointEvery and at
// the end (checkpointRun); a shard's complete count is finished into its result file,
// and the checkpoint removed (finishShard).

// DefaultCheckpointEvery is the interval between checkpoint writes when
// ShardOptions.CheckpointEvery is zero.
const DefaultCheckpointEvery = 30 * time.Second

// ErrCheckpointExists is returned by CountCheckpointed when the checkpoint file exists and
// ShardOptions.Resume is not set: it is never overwritten by a fresh count.
var ErrCheckpointExists = errors.New("the checkpoint file exists")

// ErrNotSaved is wrapped by the error of CountCheckpointed and CountShard when the count
// ran, to its end or to an interruption, but its checkpoint or result file could not be
// written at the end (a full disk, a removed directory): the ShardResult holds the right
// sums and its Status says how far the count went; the file holds less, or nothing. The
// error says what the file holds.
var ErrNotSaved = errors.New("not saved")

// checkpointFormat names the layout of checkpoint files. Version 2 records
// the Burnside numerator of the finished sub-problems instead of a unique
// count (see fastcount.SubResult); version 3 calls the plan's sub-problems
// plan_subs and records no nodes, as result files; version 4 records the
// kernel that counted. loadCheckpoint reads the three: a count of version 2
// or 3 resumes.
const checkpointFormat = "nqueens-checkpoint/4"

// checkpoint is the progress of a count over the sub-problems Todo of a plan:
// which are done, and their sums. A count of the whole board has Shard 0 of
// Shards 1.
type checkpoint struct {
	Format   string    `json:"format"`
	Plan     string    `json:"plan"`
	Engine   string    `json:"engine"`
	N        int       `json:"n"`
	Shard    int       `json:"shard"`
	Shards   int       `json:"shards"`
	Subs     int       `json:"plan_subs"` // sub-problems in the whole plan
	Todo     ranges    `json:"todo"`      // the sub-problems of this count
	Done     ranges    `json:"done"`      // those finished, a subset of Todo
	Total    u128.U128 `json:"total"`
	Burnside u128.U128 `json:"burnside"` // Σ of the sub-problems' Burnside numerators (8 × unique when complete)
	Seconds  float64   `json:"seconds"`  // counting time so far, over every run
	Runs     int       `json:"runs"`     // runs that contributed
	Complete bool      `json:"complete"`
	Version  string    `json:"version"`
	Kernel   string    `json:"kernel"`  // the matcher kernel(s) of the runs so far ("" before the first)
	Written  string    `json:"written"` // RFC 3339 time of the write
	Checksum string    `json:"checksum"`

	// write writes the sealed checkpoint to its file: atomicfile.WriteBytes when nil (the
	// tests make writes fail, as on a full disk).
	write func(path string, b []byte) error
}

// newCheckpoint is the state of a count of the sub-problems ids of p, as
// shard i of k, before any work.
func newCheckpoint(p *fastcount.Plan, i, k int, ids []int) *checkpoint {
	return &checkpoint{Format: checkpointFormat, Plan: p.Hash(), Engine: p.Version(), N: p.N,
		Shard: i, Shards: k, Subs: p.Len(), Todo: rangesOf(ids), Done: ranges{},
		Complete: len(ids) == 0}
}

// sealed returns c as its file holds it, sealed with its checksum.
func (c *checkpoint) sealed() ([]byte, error) {
	c.Format = checkpointFormat
	return seal(c, &c.Checksum)
}

// writeFile writes b, c sealed, to path atomically.
func (c *checkpoint) writeFile(path string, b []byte) error {
	if c.write != nil {
		return c.write(path, b)
	}
	return atomicfile.WriteBytes(path, b)
}

// save seals c with its checksum and writes it atomically to path.
func (c *checkpoint) save(path string) error {
	b, err := c.sealed()
	if err != nil {
		return err
	}
	return c.writeFile(path, b)
}

// loadCheckpoint reads and checks a checkpoint file. Errors name the file.
func loadCheckpoint(path string) (*checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &checkpoint{}
	switch formatOf(data) {
	case checkpointFormatV2:
		err = loadCheckpointV2(data, c)
	case checkpointFormatV3:
		err = loadCheckpointV3(data, c)
	default:
		err = checkFormat(data, checkpointFormat)
		if err == nil {
			err = unseal(data, c, &c.Checksum)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func (c *checkpoint) check() error {
	if c.Format != checkpointFormat {
		return fmt.Errorf("format %q, want %q", c.Format, checkpointFormat)
	}
	if err := checkPlanSize(c.N, c.Shard, c.Shards, c.Subs); err != nil {
		return err
	}
	if err := c.Todo.check(c.Subs); err != nil {
		return err
	}
	if err := c.Done.check(c.Subs); err != nil {
		return err
	}
	todo := newBitset(c.Subs)
	todo.addRanges(c.Todo)
	for _, x := range c.Done {
		for id := x[0]; id <= x[1]; id++ {
			if !todo.has(id) {
				return fmt.Errorf("sub-problem %d is done but not to do", id)
			}
		}
	}
	if c.Complete != (c.Done.Len() == c.Todo.Len()) {
		return fmt.Errorf("complete=%v with %d of %d sub-problems done", c.Complete, c.Done.Len(), c.Todo.Len())
	}
	return nil
}

// Matches tells whether c is the progress of shard i of k of plan p over
// the sub-problems ids; if not, the error says what differs.
func (c *checkpoint) matches(p *fastcount.Plan, i, k int, ids []int) error {
	switch {
	case c.N == p.N && c.Engine != p.Version():
		return fmt.Errorf("is %w: written by engine %s, this program counts n=%d with engine %s (the engine/plan version differs, plan %.12s, not %.12s)",
			ErrOtherPlan, c.Engine, p.N, p.Version(), c.Plan, p.Hash())
	case c.Plan != p.Hash() || c.N != p.N:
		return fmt.Errorf("is %w: n=%d plan %.12s, not n=%d plan %.12s", ErrOtherPlan, c.N, c.Plan, p.N, p.Hash())
	case c.Shard != i || c.Shards != k:
		return fmt.Errorf("is the checkpoint of shard %d of %d, not %d of %d", c.Shard, c.Shards, i, k)
	case !c.Todo.Equal(rangesOf(ids)):
		return fmt.Errorf("covers other sub-problems than this count's")
	}
	return nil
}

// result is the result file content of a complete checkpoint.
func (c *checkpoint) toResult() *result {
	return &result{Format: resultFormat, Plan: c.Plan, Engine: c.Engine, N: c.N, Shard: c.Shard,
		Shards: c.Shards, Subs: c.Subs, IDs: c.Todo, Total: c.Total, Burnside: c.Burnside,
		Seconds: c.Seconds, Version: c.Version, Kernel: c.Kernel}
}

// unique is the unique count of a complete count of the whole plan (one
// shard of one): Burnside/8, checked to be whole. For a shard or an
// unfinished count it is Burnside/8 rounded down, a share and no count.
func (c *checkpoint) unique() (u128.U128, error) {
	if c.Complete && c.Shards == 1 {
		return fastcount.Unique(c.Burnside)
	}
	return c.Burnside.Div8(), nil
}

// lockCheckpoint takes the lock of the checkpoint file path (PATH.lock), for
// CountCheckpointed: the error says who holds it (ErrInUse).
func lockCheckpoint(path string) (*fileLock, error) {
	l, err := tryLock(path + ".lock")
	switch {
	case errors.Is(err, ErrInUse):
		return nil, fmt.Errorf("checkpoint %s is in use by %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("cannot lock the checkpoint: %w", err)
	}
	return l, nil
}

// lockShard takes the lock of shard i of k of n in dir, which covers its checkpoint and
// its result file: one process at a time counts a shard.
func lockShard(dir string, n, i, k int) (*fileLock, error) {
	l, err := tryLock(filepath.Join(dir, lockFile(i, k)))
	switch {
	case errors.Is(err, ErrInUse):
		return nil, fmt.Errorf("shard %d/%d of n=%d in %s is being counted by %w", i, k, n, dir, err)
	case err != nil:
		return nil, fmt.Errorf("cannot lock the shard: %w", err)
	}
	return l, nil
}

// openCheckpoint loads the checkpoint at path (which the caller checked can be written)
// if resume is set and the file exists, and checks it belongs to this count (then it
// calls resuming, if not nil); otherwise it starts afresh, refusing to overwrite an
// existing file unless resume is set, and saying so to resuming when asked (asked: the
// caller's Resume).
func openCheckpoint(path string, resume, asked bool, p *fastcount.Plan, i, k int, ids []int, resuming func(path string, done, subs int, written string)) (*checkpoint, error) {
	_, statErr := os.Stat(path)
	switch {
	case statErr == nil && !resume:
		return nil, fmt.Errorf("%s: %w", path, ErrCheckpointExists)
	case statErr == nil:
		c, err := loadCheckpoint(path)
		if err != nil {
			return nil, err
		}
		if err := c.matches(p, i, k, ids); err != nil {
			return nil, fmt.Errorf("checkpoint %s %w", path, err)
		}
		if resuming != nil {
			resuming(path, c.Done.Len(), c.Todo.Len(), c.Written)
		}
		return c, nil
	case !errors.Is(statErr, os.ErrNotExist):
		return nil, statErr
	}
	if asked && resuming != nil {
		resuming(path, 0, len(ids), "")
	}
	return newCheckpoint(p, i, k, ids), nil
}

// A checkpointRun is a checkpoint while a count adds to it: the finished sub-problems
// as a bitset, the clock of the run, and what its file holds. mu guards them and the
// checkpoint for the count's workers, the periodic saver and the final save.
type checkpointRun struct {
	c     *checkpoint
	path  string // the checkpoint file; "" for none
	mu    sync.Mutex
	done  bitset
	base  float64 // c.Seconds before this run
	start time.Time
	// saved is what the file holds: the progress of the last write that succeeded. Only
	// save changes it, and saves never overlap.
	saved struct {
		done    int
		written string
	}
}

// startRun starts a run of the count of c by the matcher kernel m and the program
// version, saving it at path ("" for none).
func startRun(c *checkpoint, path string, m matcher, version string) *checkpointRun {
	c.Runs++
	c.Version = version
	c.Kernel = addKernel(c.Kernel, m.name)
	r := &checkpointRun{c: c, path: path, done: newBitset(c.Subs), base: c.Seconds, start: time.Now()}
	r.done.addRanges(c.Done)
	return r
}

// add adds the sums of the finished sub-problem id to the checkpoint, unless they
// overflow 128 bits (then it returns false). The caller holds mu.
func (r *checkpointRun) add(id int, sub fastcount.SubResult) bool {
	c := r.c
	t, c1 := c.Total.Add64(sub.Total)
	b, c2 := c.Burnside.Add64(sub.Burnside)
	if c1 || c2 {
		return false
	}
	c.Total, c.Burnside = t, b
	r.done.add(id)
	return true
}

// snapshot brings the checkpoint up to date; the caller holds mu.
func (r *checkpointRun) snapshot() {
	c := r.c
	c.Done = r.done.ranges(c.Subs)
	c.Seconds = r.base + time.Since(r.start).Seconds()
	c.Complete = c.Done.Len() == c.Todo.Len()
	c.Written = time.Now().UTC().Format(time.RFC3339)
}

// save writes the checkpoint as it is now to its file, sealed.
func (r *checkpointRun) save() error {
	if r.path == "" {
		return nil
	}
	r.mu.Lock()
	r.snapshot()
	b, err := r.c.sealed()
	doneNow, written := r.c.Done.Len(), r.c.Written
	r.mu.Unlock()
	if err == nil {
		err = r.c.writeFile(r.path, b)
	}
	if err == nil {
		r.saved.done, r.saved.written = doneNow, written
	}
	return err
}

// saveEvery saves the checkpoint every every (0: DefaultCheckpointEvery) until the
// returned stop is called, telling saveFailed, if not nil, when a save fails after one
// that succeeded (with the error) and when one succeeds again (with nil).
func (r *checkpointRun) saveEvery(every time.Duration, saveFailed func(error)) (stop func()) {
	saverDone := make(chan struct{})
	stopSaver := make(chan struct{})
	go func() {
		defer close(saverDone)
		if r.path == "" {
			return
		}
		if every <= 0 {
			every = DefaultCheckpointEvery
		}
		t := time.NewTicker(every)
		defer t.Stop()
		failing := false
		for {
			select {
			case <-stopSaver:
				return
			case <-t.C:
				err := r.save()
				if (err != nil) != failing && saveFailed != nil {
					saveFailed(err)
				}
				failing = err != nil
			}
		}
	}()
	return func() {
		close(stopSaver)
		<-saverDone
	}
}

// finish saves the checkpoint at the end of the count, which stopped with stopped (nil:
// it ran to its end), and returns the count's error: stopped, or a *notSavedError when
// the save fails.
func (r *checkpointRun) finish(stopped error) error {
	ferr := r.save()
	r.mu.Lock()
	r.snapshot()
	r.mu.Unlock()
	if ferr != nil {
		return &notSavedError{Path: r.path, Err: ferr, Stopped: stopped, Done: r.saved.done, Todo: r.c.Todo.Len(), Written: r.saved.written}
	}
	return stopped
}

// notSavedError is the error of a count whose last write of its checkpoint failed. It
// wraps ErrNotSaved, the cause, and what stopped the count early if anything did
// (ctx.Err(), rules.ErrOverflow).
type notSavedError struct {
	Path    string
	Err     error // the cause; it names the file
	Stopped error // nil when the count ran to its end
	// The file holds what the last write that succeeded wrote: Done of the Todo
	// sub-problems, at Written (RFC 3339).
	Done, Todo int
	Written    string
}

func (e *notSavedError) Error() string {
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

func (e *notSavedError) Unwrap() []error {
	if e.Stopped == nil {
		return []error{ErrNotSaved, e.Err}
	}
	return []error{ErrNotSaved, e.Err, e.Stopped}
}

// finishShard writes the result file of the complete count c of a shard (counted on
// workers goroutines) at path, and removes its checkpoint file ckpt. ckptErr is the
// error of the checkpoint's last write, if it failed: when the result file cannot be
// written either, the error says where the count is kept, if anywhere.
func finishShard(c *checkpoint, path, ckpt string, workers int, ckptErr error) error {
	r := c.toResult()
	r.Workers = pool.Default(workers)
	r.Host, _ = os.Hostname()
	r.Finished = time.Now().UTC().Format(time.RFC3339)
	if err := writeResult(path, r); err != nil {
		kept := fmt.Sprintf("the complete count is saved in the checkpoint %s: run the same command again to write the result file", ckpt)
		if ckptErr != nil {
			kept = fmt.Sprintf("and %v", ckptErr)
		}
		return &resultNotSavedError{err: err, msg: fmt.Sprintf("result file NOT written: %v; %s", err, kept)}
	}
	os.Remove(ckpt)
	return nil
}

// resultNotSavedError is the error of a count that ran but could not write its result
// file.
type resultNotSavedError struct {
	msg string
	err error
}

func (e *resultNotSavedError) Error() string   { return e.msg }
func (e *resultNotSavedError) Unwrap() []error { return []error{ErrNotSaved, e.err} }
