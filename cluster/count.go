package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/shard"
)

// DefaultCheckpointEvery is the interval between checkpoint writes when
// ShardOptions.CheckpointEvery is zero.
const DefaultCheckpointEvery = shard.DefaultEvery

// ErrOtherPlan is wrapped by the errors of checkpoint and result files made for another
// plan: another n, another number of shards, or another engine version.
var ErrOtherPlan = shard.ErrOtherPlan

// ErrNotSaved is wrapped by the error of CountCheckpointed and CountShard when the count
// ran, to its end or to an interruption, but its checkpoint or result file could not be
// written at the end (a full disk, a removed directory): the ShardResult holds the right
// sums and its Status says how far the count went; the file holds less, or nothing. The
// error says what the file holds.
var ErrNotSaved = shard.ErrNotSaved

// ErrInUse is wrapped by the error of CountCheckpointed and CountShard when another
// process is counting the same checkpoint or shard: each takes an exclusive lock (flock)
// on a lock file beside its files, FILE.lock or shard-IIII-of-KKKK.lock, and the error
// names the process that holds it (pid and host).
var ErrInUse = shard.ErrLocked

// ErrCheckpointExists is returned by CountCheckpointed when the checkpoint file exists and
// ShardOptions.Resume is not set: it is never overwritten by a fresh count.
var ErrCheckpointExists = errors.New("the checkpoint file exists")

// ShardOptions configures CountCheckpointed and CountShard. The zero value counts on
// every CPU and saves the checkpoint every DefaultCheckpointEvery.
type ShardOptions struct {
	Workers int // goroutines; 0 means one per CPU
	// Checkpoint is the checkpoint file; CountShard defaults it to its directory.
	Checkpoint string
	// Resume lets CountCheckpointed continue an existing checkpoint file (without it an
	// existing file is an error, ErrCheckpointExists). CountShard always resumes.
	Resume          bool
	CheckpointEvery time.Duration // 0 means DefaultCheckpointEvery
	Version         string        // the program version recorded in the files
	// Kernel is the matcher kernel, as nqueens.CountOptions.Kernel: "" (or "auto") the
	// fastest this CPU runs; the files record the one that counted. A bad one fails
	// before any work (nqueens.ErrKernel).
	Kernel string
	// Progress, if not nil, is called after each finished sub-problem (see
	// [nqueens.Progress]): phase "count", in units of the sub-problems' estimated cost,
	// resumed work included.
	Progress func(nqueens.Progress)
	// Resuming, if not nil, is called when an existing checkpoint is continued, before
	// the count: with its path, its finished sub-problems, those of the count, and the
	// time it was written (RFC 3339), so that a caller can say what the count starts from;
	// and with Resume set and no checkpoint file yet, with done 0 and written "".
	Resuming func(path string, done, subs int, written string)
	// SaveFailed, if not nil, is called when a periodic write of the checkpoint fails
	// after one that succeeded, with the error, and with nil when one succeeds again: the
	// count goes on either way, and its last write decides (see ErrNotSaved).
	SaveFailed func(err error)
}

// ShardResult is the outcome of CountCheckpointed or CountShard. When Status is not
// Complete the sums cover the SubsDone finished sub-problems only. It holds no unique
// count, which a shard cannot know: Burnside is the Burnside numerator of the
// sub-problems counted, which the shards of a plan sum to 8 × unique (MergeShards gives
// the unique count). For a complete CountCheckpointed, which counts every sub-problem,
// Burnside.Div8() is the unique count (checked to be whole).
type ShardResult struct {
	N               int
	Total, Burnside nqueens.Uint128
	Seconds         float64 // counting time, summed over every run
	Status          nqueens.Status
	// Subs are the sub-problems of this count: the whole plan's for CountCheckpointed, the
	// shard's for CountShard; SubsDone those finished, Resumed those finished before this
	// run.
	Subs, SubsDone, Resumed int
	Checkpoint              string // the checkpoint file
	// ResultFile is CountShard's result file; it is written only when Status is Complete
	// (and the error nil) or Skipped, which the file was there already.
	ResultFile string
	Skipped    bool
	// Recounted is why an existing result file was not taken (unreadable, corrupted):
	// the shard was counted again. Nil otherwise.
	Recounted error
}

// CountCheckpointed counts the whole board of p, saving the finished sub-problems and
// their sums in the file opt.Checkpoint before it starts (a file that cannot be written
// fails here, before any work), every opt.CheckpointEvery and when it stops, so that an
// interrupted count continues where it stopped when run again with opt.Resume. The file
// is replaced atomically: a crash or a kill at any instant leaves a usable one. On
// cancellation it returns the sums so far with Status Interrupted and ctx.Err(). When the
// last write fails, the sums are returned all the same, with an error wrapping
// ErrNotSaved.
func CountCheckpointed(ctx context.Context, p *Plan, opt ShardOptions) (res ShardResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = ShardResult{N: p.N(), Checkpoint: opt.Checkpoint}
	kern, err := qjoin.ResolveName(opt.Kernel)
	if err != nil {
		return res, err
	}
	if opt.Checkpoint == "" {
		return res, errors.New("no checkpoint file given")
	}
	ids := make([]int, p.Subs())
	for i := range ids {
		ids[i] = i
	}
	if err := checkOutput(opt.Checkpoint); err != nil {
		return res, fmt.Errorf("checkpoint %w", err)
	}
	lock, err := shard.TryLock(opt.Checkpoint + ".lock")
	switch {
	case errors.Is(err, ErrInUse):
		return res, fmt.Errorf("checkpoint %s is in use by %w", opt.Checkpoint, err)
	case err != nil:
		return res, fmt.Errorf("cannot lock the checkpoint: %w", err)
	}
	defer lock.Release()
	c, err := openCheckpoint(opt.Checkpoint, opt.Resume, opt.Resume, p.p, 0, 1, ids, opt.Resuming)
	if err != nil {
		return res, err
	}
	return runCheckpointed(ctx, p.p, c, kern, opt, res)
}

// CountShard counts shard i of the k shards of p (see Split) into the directory dir: the
// result file ResultFile(i, k), shard-IIII-of-KKKK.json (shard-0003-of-0008.json for
// i = 3, k = 8), and meanwhile its checkpoint (opt.Checkpoint, by default
// CheckpointFile(i, k) in dir), which a new run continues. A shard whose
// result file is there already and belongs to this plan is not counted again (Skipped);
// one that belongs to another plan is an error wrapping ErrOtherPlan. As with
// CountCheckpointed, the checkpoint is written before the count starts, and a count that
// ran but whose result file (or checkpoint) could not be written returns its sums with an
// error wrapping ErrNotSaved, which says where the count is kept, if anywhere.
func CountShard(ctx context.Context, p *Plan, i, k int, dir string, opt ShardOptions) (res ShardResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = ShardResult{N: p.N(), ResultFile: filepath.Join(dir, shard.FileName(i, k))}
	kern, err := qjoin.ResolveName(opt.Kernel)
	if err != nil {
		return res, err
	}
	ids, err := shard.IDs(p.p, k, i)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	// skip takes a result file that is there already and checks out.
	skip := func() (bool, error) {
		r, rerr := shard.ReadResult(res.ResultFile)
		if rerr != nil {
			if !errors.Is(rerr, os.ErrNotExist) {
				res.Recounted = rerr
			}
			return false, nil
		}
		if merr := r.Matches(p.p, i, k, ids); merr != nil {
			return false, fmt.Errorf("%s %w", res.ResultFile, merr)
		}
		res.Total, res.Burnside = r.Total, r.Burnside
		res.Seconds, res.Subs, res.SubsDone, res.Skipped = r.Seconds, r.IDs.Len(), r.IDs.Len(), true
		return true, nil
	}
	if done, err := skip(); done || err != nil {
		return res, err
	}
	if err := checkOutput(res.ResultFile); err != nil {
		return res, fmt.Errorf("result file %w", err)
	}
	// One process at a time counts a shard; one that finished while this one started
	// leaves its result file.
	lock, err := shard.TryLock(filepath.Join(dir, shard.LockName(i, k)))
	switch {
	case errors.Is(err, ErrInUse):
		return res, fmt.Errorf("shard %d/%d of n=%d in %s is being counted by %w", i, k, p.N(), dir, err)
	case err != nil:
		return res, fmt.Errorf("cannot lock the shard: %w", err)
	}
	defer lock.Release()
	res.Recounted = nil
	if done, err := skip(); done || err != nil {
		return res, err
	}
	if opt.Checkpoint == "" {
		opt.Checkpoint = filepath.Join(dir, shard.CheckpointName(i, k))
	}
	res.Checkpoint = opt.Checkpoint
	if err := checkOutput(opt.Checkpoint); err != nil {
		return res, fmt.Errorf("checkpoint %w", err)
	}
	c, err := openCheckpoint(opt.Checkpoint, true, opt.Resume, p.p, i, k, ids, opt.Resuming)
	if err != nil {
		return res, err
	}
	res, err = runCheckpointed(ctx, p.p, c, kern, opt, res)
	ckptErr := err // the checkpoint's last write failed: the result file matters more
	if err != nil && (res.Status != nqueens.Complete || !errors.Is(err, ErrNotSaved)) {
		return res, err
	}
	r := c.Result()
	r.Workers = pool.Default(opt.Workers)
	r.Host, _ = os.Hostname()
	r.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Status = nqueens.Complete // the count is; the files may not be
	if err := shard.WriteResult(res.ResultFile, r); err != nil {
		kept := fmt.Sprintf("the complete count is saved in the checkpoint %s: run the same command again to write the result file", opt.Checkpoint)
		if ckptErr != nil {
			kept = fmt.Sprintf("and %v", ckptErr)
		}
		return res, &notSavedError{err: err, msg: fmt.Sprintf("result file NOT written: %v; %s", err, kept)}
	}
	os.Remove(opt.Checkpoint)
	return res, nil
}

// notSavedError is the error of a count that ran but could not write its result file.
type notSavedError struct {
	msg string
	err error
}

func (e *notSavedError) Error() string   { return e.msg }
func (e *notSavedError) Unwrap() []error { return []error{ErrNotSaved, e.err} }

// settle is the status of a count that ended with err, given the status s it set itself
// (Unknown if none), as the root's counts settle theirs: cancellation is Interrupted, any
// other error Failed, and success Complete; but a count that ran and could not save its
// result keeps the status it set: its sums are right.
func settle(s nqueens.Status, err error) nqueens.Status {
	switch {
	case s != nqueens.Unknown && (err == nil || errors.Is(err, ErrNotSaved)):
		return s
	case err == nil:
		return nqueens.Complete
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return nqueens.Interrupted
	}
	return nqueens.Failed
}

// checkOutput fails if a regular file cannot be written at path, before a long count
// that would write it.
func checkOutput(path string) error {
	f, err := atomicfile.Create(path, true)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}

// openCheckpoint loads the checkpoint at path (which the caller checked can be written)
// if resume is set and the file exists, and
// checks it belongs to this count (then it calls resuming, if not nil); otherwise it
// starts afresh, refusing to overwrite an existing file unless resume is set, and
// saying so to resuming when asked (asked: the caller's Resume).
func openCheckpoint(path string, resume, asked bool, p *fastcount.Plan, i, k int, ids []int, resuming func(path string, done, subs int, written string)) (*shard.Checkpoint, error) {
	_, statErr := os.Stat(path)
	switch {
	case statErr == nil && !resume:
		return nil, fmt.Errorf("%s: %w", path, ErrCheckpointExists)
	case statErr == nil:
		c, err := shard.LoadCheckpoint(path)
		if err != nil {
			return nil, err
		}
		if err := c.Matches(p, i, k, ids); err != nil {
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
	return shard.NewCheckpoint(p, i, k, ids), nil
}

// runCheckpointed runs the rest of checkpoint c with the matcher kernel kern (resolved
// by the caller, before any work), saving it at opt.Checkpoint, and fills res from it.
func runCheckpointed(ctx context.Context, p *fastcount.Plan, c *shard.Checkpoint, kern qjoin.Kernel, opt ShardOptions, res ShardResult) (ShardResult, error) {
	res.Resumed = c.Done.Len()
	rep := report.New(opt.Progress)
	defer rep.Close()
	err := shard.Count(ctx, p, c, shard.CountOptions{Workers: opt.Workers, Checkpoint: opt.Checkpoint,
		Every: opt.CheckpointEvery, Version: opt.Version, Kernel: kern, Progress: rep.Phase("count"), SaveFailed: opt.SaveFailed})
	_, uerr := c.Unique() // a complete count's Burnside numerator is 8 × unique
	res.Total, res.Burnside, res.Seconds = c.Total, c.Burnside, c.Seconds
	res.Subs, res.SubsDone = c.Todo.Len(), c.Done.Len()
	switch {
	case errors.Is(err, ErrNotSaved) && c.Complete:
		res.Status = nqueens.Complete // the sums are right; err says the file is not
	case errors.Is(err, ErrNotSaved) && ctx.Err() != nil:
		res.Status = nqueens.Interrupted
	}
	if err == nil && !c.Complete {
		err = errors.New("the count stopped before the end")
	}
	if err == nil {
		err = uerr
	}
	return res, err
}
