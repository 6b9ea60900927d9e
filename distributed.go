package nqueens

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/shard"
)

// Counts too big for one run: a count is a fixed Plan of independent sub-problems, which
// can be counted with a checkpoint file that survives interruptions (CountCheckpointed),
// split into K balanced shards counted anywhere into result files (CountShard), and the
// shards merged with checks (MergeShards). docs/cluster.md shows it on Slurm, Kubernetes
// and GNU parallel.

// MaxShards is the largest number of shards of a count.
const MaxShards = shard.MaxShards

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

// A Plan is the deterministic list of independent sub-problems that a count of the n×n
// board runs. Every checkpoint and shard result records its Hash, so that work is never
// mixed across plans (nor across versions of the counting engine, which the hash covers).
type Plan struct{ p *fastcount.Plan }

// NewPlan makes the plan of n (1 ≤ n ≤ MaxCountN); a bad NQUEENS_KERNEL is a
// *KernelError, as for FastCounter. Planning the quadrant join takes up to
// a second or two at n = 21; ctx can stop it.
func NewPlan(ctx context.Context, n int) (*Plan, error) {
	if n < 1 || n > MaxCountN {
		return nil, &SizeError{N: n, Min: 1, Max: MaxCountN, What: "the counter"}
	}
	if err := checkKernel(); err != nil {
		return nil, err
	}
	p, err := fastcount.NewPlanContext(ctx, n, fastcount.EngineAuto)
	if err != nil {
		return nil, err
	}
	return &Plan{p}, nil
}

// MaxCountN is the largest board the counter takes.
const MaxCountN = fastcount.MaxN

// N is the board size.
func (p *Plan) N() int { return p.p.N }

// Subs is the number of sub-problems.
func (p *Plan) Subs() int { return p.p.Len() }

// Cost is the estimated work of the whole plan, in the engine's units.
func (p *Plan) Cost() uint64 { return p.p.TotalCost }

// Hash is the plan's identity, a hex SHA-256 of the engine version, n and the
// sub-problems.
func (p *Plan) Hash() string { return p.p.Hash() }

// Engine names the counting engine and its version, as files record it.
func (p *Plan) Engine() string { return p.p.Version() }

// Memory is CountMemory of the plan's board.
func (p *Plan) Memory(workers int) uint64 { return CountMemory(p.p.N, workers) }

// CountMemory is an upper bound, in bytes, of the memory a count of the n×n board (whole
// or a shard) takes with the given number of workers (0 means GOMAXPROCS), counting the
// garbage collector's room: a count is refused with a MemoryError when the machine has
// less. A program that runs counts can pass it to debug.SetMemoryLimit, so that the
// garbage collector keeps the heap under it (the command does, unless GOMEMLIMIT is set).
func CountMemory(n, workers int) uint64 { return fastcount.EstimateMemory(n, workers) }

// Estimate is the CPU time a count of a plan takes (Plan.Estimate).
type Estimate struct {
	CoreHours    float64 // the whole count, in core-hours (CPU time summed over the cores)
	HoursPerCost float64 // core-hours of one unit of Cost: a shard's are its Cost times this
	Calibration  string  // where the figures come from, in words
	Kernel       string  // the matcher kernel a count here runs ("" for n ≤ 9)
	Sampled      int     // sub-problems counted here to calibrate (0: a stored calibration)
}

// Estimate estimates the CPU time of the plan's count: its modelled time (the costs, in
// nanoseconds of the machines the cost model was fitted on) times the ratio of measured
// to modelled time of a calibration. With sample 0 the calibration is the one stored for
// this kind of CPU (whole counts and sampled shards measured on 2-core cloud VMs with
// the AVX-512 kernel: Intel Sapphire Rapids, AMD Zen 5). With sample > 0 it counts
// sub-problems of the plan here, drawn at random by a generator seeded with the plan
// hash, on workers goroutines, until about sample of CPU time is spent (at least one:
// from n = 27 one takes minutes), calling progress, if not nil, with the CPU time so far.
func (p *Plan) Estimate(ctx context.Context, sample time.Duration, workers int, progress func(cpu time.Duration)) (Estimate, error) {
	e, err := p.p.Estimate(ctx, sample, workers, progress)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{CoreHours: e.Seconds / 3600, HoursPerCost: e.PerCost / 3600,
		Calibration: e.Calibration, Kernel: e.Kernel, Sampled: e.Sampled}, nil
}

// ShardSize is the share of one shard of a split.
type ShardSize struct {
	Subs int    // sub-problems
	Cost uint64 // their estimated work
}

// Split returns the sizes of the k shards (1 ≤ k ≤ MaxShards) that CountShard counts:
// balanced by estimated cost, the same split on every machine.
func (p *Plan) Split(k int) ([]ShardSize, error) {
	sizes, err := shard.Split(p.p, k)
	if err != nil {
		return nil, err
	}
	out := make([]ShardSize, k)
	for i, sz := range sizes {
		out[i] = ShardSize{Subs: sz.Subs, Cost: sz.Cost}
	}
	return out, nil
}

// ParseShard reads a shard given as "I/K" (0 ≤ I < K ≤ MaxShards) or "auto/K", where I
// comes from the job array index of Slurm (SLURM_ARRAY_TASK_ID), a Kubernetes Indexed
// Job (JOB_COMPLETION_INDEX) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX), read with getenv.
func ParseShard(s string, getenv func(string) string) (i, k int, err error) {
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("shard %q: want I/K, such as 0/8, or auto/K", s)
	}
	k, err = strconv.Atoi(ks)
	if err != nil || k < 1 || k > MaxShards {
		return 0, 0, fmt.Errorf("shard %q: K must be a whole number from 1 to %d", s, MaxShards)
	}
	if is == "auto" {
		i, _, err := shard.IndexFromEnv(getenv, k)
		if err != nil {
			return 0, 0, fmt.Errorf("shard auto/%d: %w", k, err)
		}
		return i, k, nil
	}
	i, err = strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return 0, 0, fmt.Errorf("shard %q: I must be a whole number from 0 to %d", s, k-1)
	}
	return i, k, nil
}

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
	// Progress, if not nil, is called after each finished sub-problem (see [Progress]):
	// phase "count", in units of the sub-problems' estimated cost, resumed work included.
	Progress func(Progress)
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
// Complete the sums cover the SubsDone finished sub-problems only. For a shard, Unique is
// 0: a shard's share of it is no count (MergeShards gives the unique count); Burnside is
// the shard's Burnside numerator, which the shards sum to 8 × unique.
type ShardResult struct {
	N                       int
	Total, Unique, Burnside Uint128
	Seconds                 float64 // counting time, summed over every run
	Status                  Status
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
	defer func() { res.Status = settleSaved(res.Status, err) }()
	res = ShardResult{N: p.N(), Checkpoint: opt.Checkpoint}
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
	return runCheckpointed(ctx, p.p, c, opt, res)
}

// CountShard counts shard i of the k shards of p (see Split) into the directory dir: the
// result file shard-IIII-of-KKKK.json (shard-0003-of-0008.json for i = 3, k = 8), and
// meanwhile its checkpoint (opt.Checkpoint, by default shard-IIII-of-KKKK.checkpoint in
// dir), which a new run continues. A shard whose
// result file is there already and belongs to this plan is not counted again (Skipped);
// one that belongs to another plan is an error wrapping ErrOtherPlan. As with
// CountCheckpointed, the checkpoint is written before the count starts, and a count that
// ran but whose result file (or checkpoint) could not be written returns its sums with an
// error wrapping ErrNotSaved, which says where the count is kept, if anywhere.
func CountShard(ctx context.Context, p *Plan, i, k int, dir string, opt ShardOptions) (res ShardResult, err error) {
	defer func() { res.Status = settleSaved(res.Status, err) }()
	res = ShardResult{N: p.N(), ResultFile: filepath.Join(dir, shard.FileName(i, k))}
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
	res, err = runCheckpointed(ctx, p.p, c, opt, res)
	res.Unique = Uint128{} // a share, no count
	ckptErr := err         // the checkpoint's last write failed: the result file matters more
	if err != nil && (res.Status != Complete || !errors.Is(err, ErrNotSaved)) {
		return res, err
	}
	r := c.Result()
	r.Workers = pool.Default(opt.Workers)
	r.Host, _ = os.Hostname()
	r.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Status = Complete // the count is; the files may not be
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

// settleSaved is settle, but a count that ran and could not save its result keeps the
// status it set: its sums are right.
func settleSaved(s Status, err error) Status {
	if s != Unknown && errors.Is(err, ErrNotSaved) {
		return s
	}
	return settle(s, err)
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

// runCheckpointed runs the rest of checkpoint c, saving it at opt.Checkpoint, and fills
// res from it.
func runCheckpointed(ctx context.Context, p *fastcount.Plan, c *shard.Checkpoint, opt ShardOptions, res ShardResult) (ShardResult, error) {
	res.Resumed = c.Done.Len()
	rep := newReporter(opt.Progress)
	defer rep.Close()
	err := shard.Count(ctx, p, c, shard.CountOptions{Workers: opt.Workers, Checkpoint: opt.Checkpoint,
		Every: opt.CheckpointEvery, Version: opt.Version, Progress: rep.Phase("count"), SaveFailed: opt.SaveFailed})
	unique, uerr := c.Unique()
	res.Total, res.Unique, res.Burnside, res.Seconds = c.Total, unique, c.Burnside, c.Seconds
	res.Subs, res.SubsDone = c.Todo.Len(), c.Done.Len()
	switch {
	case errors.Is(err, ErrNotSaved) && c.Complete:
		res.Status = Complete // the sums are right; err says the file is not
	case errors.Is(err, ErrNotSaved) && ctx.Err() != nil:
		res.Status = Interrupted
	}
	if err == nil && !c.Complete {
		err = errors.New("the count stopped before the end")
	}
	if err == nil {
		err = uerr
	}
	return res, err
}

// MergeResult is the sum of every shard of a plan.
type MergeResult struct {
	Plan, Engine            string
	N, Shards, Subs         int // Subs: the plan's sub-problems, every one counted once
	Total, Unique, Burnside Uint128
	Seconds                 float64  // counting time summed over the shards
	Files                   []string // the result files, by shard
	Versions                []string // the distinct program versions that counted
}

// MergeError lists every reason a merge was refused, naming the files.
type MergeError = shard.MergeError

// MergeShards reads the result files at paths and sums them. It refuses, with a
// *MergeError naming the files, when a file cannot be read, is truncated or fails its
// checksum, comes from another plan or shard count, duplicates a shard, when a shard is
// missing (saying so when its checkpoint is beside the files: an interrupted shard),
// when the sub-problems of the shards overlap or leave a gap, when a sum overflows, and
// when the Burnside numerators do not add up to a multiple of 8. It reads result files of
// the previous formats (nqueens-shard/2 and /3) as well.
func MergeShards(paths []string) (MergeResult, error) {
	m, err := shard.Merge(paths)
	if err != nil {
		return MergeResult{}, err
	}
	return MergeResult{Plan: m.Plan, Engine: m.Engine, N: m.N, Shards: m.Shards, Subs: m.Subs,
		Total: m.Total, Unique: m.Unique, Burnside: m.Burnside, Seconds: m.Seconds,
		Files: m.Files, Versions: m.Versions}, nil
}

// ErrNoShardFiles is wrapped by the error of ReadRunStatus when a directory holds no shard
// result file or checkpoint.
var ErrNoShardFiles = shard.ErrNoShardFiles

// RunStatusOptions configures ReadRunStatus.
type RunStatusOptions struct {
	// NoPlan skips planning n: every shard weighs the same (the split balances them by
	// cost, but for a few) and a started shard's part is its share of sub-problems
	// finished. Planning takes seconds up to n = 26, 10 s and 0.39 GB at n = 27 (with a
	// million shards), 25 s and 0.93 GB at n = 28.
	NoPlan bool
	Window time.Duration // the recent time over which the rate is measured; 0: an hour
	Now    time.Time     // the time of the report; zero: now
}

// RunStatus is the state of a sharded count in progress (CountShard into one or more
// directories), as the files of its shards say.
type RunStatus struct {
	Plan, Engine    string
	N, Shards, Subs int // Subs: the plan's sub-problems
	// The shards with a result file of the plan; with a checkpoint whose lock a process
	// holds now; with a checkpoint and no lock held (to be run again); with none of these.
	ShardsDone, ShardsRunning, ShardsInterrupted, ShardsMissing int
	Started                                                     []StartedShard // the running and interrupted shards, by shard
	Missing                                                     string         // the shards not started, as ranges: "6-7,12"
	// Total and Burnside are the sums of the done shards. Unique is set when every shard
	// is done (Complete): a part of the Burnside sum is no count.
	Total, Burnside, Unique Uint128
	Complete                bool
	// FractionDone is the part of the plan's cost done: the done shards and the finished
	// sub-problems of the started ones. EstimatedBy says where the costs come from: "plan",
	// or "shards" (NoPlan: every shard the same).
	FractionDone float64
	EstimatedBy  string
	// CPUSeconds is the counting time × workers summed over the result files and
	// checkpoints: each count's wall time times its goroutines, not CPU time measured (a
	// checkpoint does not record its workers: taken as most result files say).
	// CPUSecondsLeft estimates the rest, CPUSeconds × cost left / cost done; -1 while
	// nothing is done.
	CPUSeconds, CPUSecondsLeft float64
	// ShardsPerHour is the rate of finished shards over Window before the report (since
	// the run started if it started later); ETA is when the shards not done end at that
	// rate, zero when the rate is 0 or every shard is done.
	ShardsPerHour float64
	Window        time.Duration
	ETA           time.Time
	// OddFiles names the files left out, as MergeShards names them: unreadable, truncated,
	// a bad checksum, another plan or shard count, a shard twice.
	OddFiles []string
}

// StartedShard is a shard of a RunStatus started and not done.
type StartedShard struct {
	Shard        int
	Locked       bool    // a process holds its lock: it is being counted; false: interrupted
	FractionDone float64 // the part of its cost (with NoPlan, of its sub-problems) done
	Subs         int     // the shard's sub-problems
	SubsDone     int
	Seconds      float64 // counting time so far
	Written      string  // RFC 3339 time of its checkpoint's last write
	Checkpoint   string  // its checkpoint file; "" when only its lock shows it (starting)
}

// ReadRunStatus reads the files of a sharded count in the directories dirs: the plan and
// shard count are those most files share, as for MergeShards, and the other files are
// named in OddFiles. It fails when a directory cannot be read or holds no shard files
// (ErrNoShardFiles), when no file can be read, when two plans tie for the most files, and
// when this program plans n otherwise than the files say (another version counted them:
// NoPlan reports without the plan).
func ReadRunStatus(ctx context.Context, dirs []string, opt RunStatusOptions) (RunStatus, error) {
	sopt := shard.StatusOptions{Now: opt.Now, Window: opt.Window}
	if !opt.NoPlan {
		sopt.Plan = func(n int) (*fastcount.Plan, error) { return fastcount.NewPlanContext(ctx, n, fastcount.EngineAuto) }
	}
	st, err := shard.ReadStatus(dirs, sopt)
	if err != nil {
		return RunStatus{}, err
	}
	out := RunStatus{Plan: st.Plan, Engine: st.Engine, N: st.N, Shards: st.Shards, Subs: st.Subs,
		ShardsDone: st.Done, ShardsMissing: st.Missing.Len(), Missing: st.Missing.String(),
		Total: st.Total, Burnside: st.Burnside, Complete: st.Complete, FractionDone: st.Fraction, EstimatedBy: "shards",
		CPUSeconds: st.CPUSeconds, CPUSecondsLeft: st.CPUSecondsLeft, ShardsPerHour: st.Rate, Window: st.Window,
		ETA: st.ETA, OddFiles: st.Odd}
	if st.Complete {
		out.Unique = st.Unique
	}
	if st.ByPlan {
		out.EstimatedBy = "plan"
	}
	for _, r := range st.Running {
		if r.Locked {
			out.ShardsRunning++
		} else {
			out.ShardsInterrupted++
		}
		out.Started = append(out.Started, StartedShard{Shard: r.Shard, Locked: r.Locked, FractionDone: r.Fraction,
			Subs: r.Subs, SubsDone: r.SubsDone, Seconds: r.Seconds, Written: r.Written, Checkpoint: r.Checkpoint})
	}
	return out, nil
}
