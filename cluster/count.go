package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/rules"
	"github.com/nqueens/nqueens/internal/u128"
)

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
// the unique count). A CountCheckpointed, which counts every sub-problem, also gives
// Unique, Burnside/8 (checked to be whole when complete; rounded down, a partial figure
// as Total is, when not).
type ShardResult struct {
	N                       int
	Total, Burnside, Unique nqueens.Uint128
	Seconds                 float64 // counting time, summed over every run
	// Kernel is the matcher kernel that counted: "go", "avx2" or "avx512", "none" for
	// n ≤ 9; names joined by commas, in the order of their first run, when a resumed
	// count changed kernel (as the result file and checkpoint record them).
	Kernel  string
	Workers int // the goroutines of this run: ShardOptions.Workers, 0 resolved to one per CPU
	Status  nqueens.Status
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
	res = ShardResult{N: p.N(), Checkpoint: opt.Checkpoint, Workers: pool.Default(opt.Workers)}
	m, err := resolveKernel(p.p, opt.Kernel)
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
	lock, err := lockCheckpoint(opt.Checkpoint)
	if err != nil {
		return res, err
	}
	defer lock.release()
	c, err := openCheckpoint(opt.Checkpoint, opt.Resume, opt.Resume, p.p, 0, 1, ids, opt.Resuming)
	if err != nil {
		return res, err
	}
	res, err = runCheckpointed(ctx, p.p, c, m, opt, res)
	res.Unique = nqueens.Uint128(u128.U128(res.Burnside).Div8()) // the whole board's
	return res, err
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
	res = ShardResult{N: p.N(), ResultFile: filepath.Join(dir, ResultFile(i, k)), Workers: pool.Default(opt.Workers)}
	m, err := resolveKernel(p.p, opt.Kernel)
	if err != nil {
		return res, err
	}
	ids, err := shardIDs(p.p, k, i)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	if done, err := takeResult(p.p, i, k, ids, &res); done || err != nil {
		return res, err
	}
	if err := checkOutput(res.ResultFile); err != nil {
		return res, fmt.Errorf("result file %w", err)
	}
	// One process at a time counts a shard; one that finished while this one started
	// leaves its result file.
	lock, err := lockShard(dir, p.N(), i, k)
	if err != nil {
		return res, err
	}
	defer lock.release()
	res.Recounted = nil
	if done, err := takeResult(p.p, i, k, ids, &res); done || err != nil {
		return res, err
	}
	if opt.Checkpoint == "" {
		opt.Checkpoint = filepath.Join(dir, CheckpointFile(i, k))
	}
	res.Checkpoint = opt.Checkpoint
	if err := checkOutput(opt.Checkpoint); err != nil {
		return res, fmt.Errorf("checkpoint %w", err)
	}
	c, err := openCheckpoint(opt.Checkpoint, true, opt.Resume, p.p, i, k, ids, opt.Resuming)
	if err != nil {
		return res, err
	}
	res, err = runCheckpointed(ctx, p.p, c, m, opt, res)
	ckptErr := err // the checkpoint's last write failed: the result file matters more
	if err != nil && (res.Status != nqueens.Complete || !errors.Is(err, ErrNotSaved)) {
		return res, err
	}
	res.Status = nqueens.Complete // the count is; the files may not be
	return res, finishShard(c, res.ResultFile, opt.Checkpoint, opt.Workers, ckptErr)
}

// takeResult takes the result file of shard i of k (of the sub-problems ids of p) that is
// there already and checks out into res (Skipped), and tells so; one that cannot be read
// is counted again (res.Recounted says why), one of another plan is an error.
func takeResult(p *fastcount.Plan, i, k int, ids []int, res *ShardResult) (bool, error) {
	r, err := readResult(res.ResultFile)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			res.Recounted = err
		}
		return false, nil
	}
	if err := r.matches(p, i, k, ids); err != nil {
		return false, fmt.Errorf("%s %w", res.ResultFile, err)
	}
	res.Total, res.Burnside, res.Kernel = nqueens.Uint128(r.Total), nqueens.Uint128(r.Burnside), r.Kernel
	res.Seconds, res.Subs, res.SubsDone, res.Skipped = r.Seconds, r.IDs.Len(), r.IDs.Len(), true
	return true, nil
}

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

// runCheckpointed runs the rest of checkpoint c with the matcher kernel m (resolved by
// the caller, before any work), saving it at opt.Checkpoint, and fills res from it.
func runCheckpointed(ctx context.Context, p *fastcount.Plan, c *checkpoint, m matcher, opt ShardOptions, res ShardResult) (ShardResult, error) {
	res.Resumed = c.Done.Len()
	err := count(ctx, p, c, m, opt)
	_, uerr := c.unique() // a complete count's Burnside numerator is 8 × unique
	res.Total, res.Burnside, res.Seconds, res.Kernel = nqueens.Uint128(c.Total), nqueens.Uint128(c.Burnside), c.Seconds, c.Kernel
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

// count counts the sub-problems of c.Todo that c.Done lacks with the matcher kernel m and
// adds them to c, which must match p, on opt.Workers goroutines, saving c in the file
// opt.Checkpoint, if any: before anything is counted, so that a file that cannot be
// written fails the count before it starts (nothing is counted then); every
// opt.CheckpointEvery, where a write that fails does not stop the count (opt.SaveFailed
// hears of it); and at the end, where a write that fails makes the error a
// *notSavedError, which wraps ctx.Err() if the count was interrupted. On return c holds
// every finished sub-problem: it is Complete, or the count was interrupted by ctx (and
// count returns ctx.Err()), or a sum overflowed 128 bits (rules.ErrOverflow).
// opt.Progress hears of each finished sub-problem (phase "count"), resumed work included.
func count(ctx context.Context, p *fastcount.Plan, c *checkpoint, m matcher, opt ShardOptions) error {
	if c.Complete && c.Runs > 0 {
		return nil // a checkpoint finished by an earlier run is only read: no run, no write
	}
	todo, doneCost, totalCost := remaining(p, c)
	run := startRun(c, opt.Checkpoint, m, opt.Version)
	if err := run.save(); err != nil {
		return fmt.Errorf("cannot write the checkpoint, nothing counted: %w", err)
	}
	stopSaver := run.saveEvery(opt.CheckpointEvery, opt.SaveFailed)
	rep := report.New(opt.Progress)
	defer rep.Close()
	progress := rep.Phase("count")
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var overflow bool
	err := p.CountSubsKernel(ctx, todo, opt.Workers, m.kernel, func(id int, r fastcount.SubResult) {
		run.mu.Lock()
		defer run.mu.Unlock()
		if !run.add(id, r) {
			overflow = true
			cancel()
			return
		}
		doneCost += uint64(p.Cost(id))
		if progress != nil {
			progress(doneCost, totalCost)
		}
	})
	stopSaver()
	if overflow {
		err = rules.ErrOverflow
	}
	return run.finish(err)
}

// remaining returns the sub-problems of c still to count, and the estimated cost of c's
// finished sub-problems and of all of them.
func remaining(p *fastcount.Plan, c *checkpoint) (todo []int, doneCost, totalCost uint64) {
	done := newBitset(c.Subs)
	done.addRanges(c.Done)
	for _, id := range c.Todo.IDs() {
		totalCost += uint64(p.Cost(id))
		if done.has(id) {
			doneCost += uint64(p.Cost(id))
		} else {
			todo = append(todo, id)
		}
	}
	return todo, doneCost, totalCost
}

// kernelNone is the kernel recorded for the plans counted without one: the
// constellations of the small boards (fastcount.Plan.HasKernel), named as
// the root's counts name it.
const kernelNone = fastcount.KernelNone

// A matcher is the matcher kernel of a count, resolved on this machine: the kernel that
// runs and the name the files record.
type matcher struct {
	kernel qjoin.Kernel
	name   string
}

// resolveKernel resolves the kernel named name (as ShardOptions.Kernel; "" the fastest
// this CPU runs) for a count of p, before any work: a bad name, or a kernel this CPU does
// not run, is an error wrapping nqueens.ErrKernel. A plan without kernels records
// kernelNone. It is the one place where a count's kernel is resolved.
func resolveKernel(p *fastcount.Plan, name string) (matcher, error) {
	k, err := qjoin.ResolveName(name)
	if err != nil {
		return matcher{}, err
	}
	if !p.HasKernel() {
		return matcher{k, kernelNone}, nil
	}
	return matcher{k, k.String()}, nil
}

// addKernels adds the kernel names of a file's list (names joined by commas) to the
// distinct names of kernels, in the order they first appear.
func addKernels(kernels []string, list string) []string {
	for _, k := range strings.Split(list, ",") {
		if k != "" && !slices.Contains(kernels, k) {
			kernels = append(kernels, k)
		}
	}
	return kernels
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
