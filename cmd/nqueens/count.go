package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/internal/atomicfile"
)

// countOutput is what count prints, in the names of docs/vocabulary.md: the JSON keys,
// and the keys of the text line (render).
type countOutput struct {
	N     int             `json:"n"`
	Total nqueens.Uint128 `json:"total"`
	// Unique is set for a whole count, never for a shard: a shard's share of
	// the unique count is no count by itself ("nqueens merge" gives it).
	Unique   *nqueens.Uint128 `json:"unique,omitempty"`
	Seconds  float64          `json:"seconds"`
	Complete bool             `json:"complete"`
	Workers  int              `json:"workers"`
	Kernel   string           `json:"kernel"` // the matcher kernel(s) that counted ("none" for n ≤ 9)
	Subs     int              `json:"subs"`   // of this count: the whole plan's, or the shard's
	SubsDone int              `json:"subs_done"`
	// Set by --shard and --checkpoint only: the Burnside numerator of the
	// sub-problems counted, whose sum over the shards is 8 × unique.
	Burnside   *nqueens.Uint128 `json:"burnside,omitempty"`
	Shard      string           `json:"shard,omitempty"`       // "I/K"
	ResultFile string           `json:"result_file,omitempty"` // the shard's result file
	Skipped    bool             `json:"skipped,omitempty"`     // the result file was there already
	Checkpoint string           `json:"checkpoint,omitempty"`  // the checkpoint file
	Resumed    int              `json:"resumed,omitempty"`     // sub-problems taken from the checkpoint
}

// countCmd is "nqueens count": its flags, one run per way of counting (whole, with a
// checkpoint, one shard), and the rendering of the result.
type countCmd struct {
	e                         *env
	workers                   int
	asJSON                    bool
	progress                  progressFlags
	shard, outDir, checkpoint string
	resume                    bool
	every                     time.Duration
	getenv                    func(string) string // the environment, for --shard auto/K
}

func newCountCmd(e *env) *cobra.Command {
	c := &countCmd{e: e, getenv: os.Getenv}
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count every solution of an N×N board, total and unique",
		Long: `Count every solution of an N×N board: the total (OEIS A000170) and the unique
ones, classes under the 8 symmetries of the square (OEIS A002562).

On Ctrl-C the count stops and reports the sub-problems finished so far
(exit 130); those partial sums are lower bounds, not the answer.

--checkpoint FILE saves the finished sub-problems and their sums at the start
(a place that cannot take the file fails there, before any counting), every
30 seconds, and at the end or on Ctrl-C or SIGTERM; --resume continues from
FILE (or starts afresh if it does not exist yet) and says what FILE holds.
Files are replaced atomically, so a crash or kill -9 at any instant leaves a
usable checkpoint. A resumed count redoes the sub-problems that were running
when it stopped (one per worker), and after a crash or kill -9 also those
finished since the last save. A write that fails during the count is a warning;
a count that ran prints its result even when the last write fails, then says
the file is NOT saved (exit 1, or 130 when interrupted).

--shard I/K --out-dir DIR counts shard I (0..K-1) of the K shards of the work
plan (see "nqueens plan") and writes DIR/shard-IIII-of-KKKK.json; "nqueens
merge DIR" sums the shards. --shard auto/K takes I from SLURM_ARRAY_TASK_ID,
JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or AWS_BATCH_JOB_ARRAY_INDEX.
A shard checkpoints itself in DIR (--checkpoint does not go with --shard) and
resumes when run again; a shard whose result file is already there and checks
out is skipped.

One process at a time counts a checkpoint or a shard: each holds a lock
(flock) on FILE.lock or DIR/shard-IIII-of-KKKK.lock while it runs, and a
second one stops at once (exit 1), naming the pid and host of the first.`,
		Example: "  nqueens count 12\n  nqueens count 14 --workers 2 --json\n" +
			"  nqueens count 18 --checkpoint q18.ckpt --resume\n" +
			"  nqueens count 20 --shard 3/16 --out-dir results/",
		Args: exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("checkpoint-every") && c.checkpoint == "" && c.shard == "" {
				return usagef("--checkpoint-every applies to a count with --checkpoint FILE or --shard I/K, which write checkpoints")
			}
			return c.run(args[0])
		},
	}
	f := cmd.Flags()
	f.IntVarP(&c.workers, "workers", "w", 0, "goroutines counting in parallel (0: one per core)")
	f.BoolVar(&c.asJSON, "json", false, "print one JSON object")
	c.progress.register(f)
	f.StringVar(&c.shard, "shard", "", "count shard `I/K` of the plan (I in 0..K-1, or auto/K from the job array index)")
	f.StringVar(&c.outDir, "out-dir", "", "with --shard: the `DIR`ectory of the shard result files")
	f.StringVar(&c.checkpoint, "checkpoint", "", "save progress in `FILE` periodically and on interrupt")
	f.BoolVar(&c.resume, "resume", false, "continue from the --checkpoint file if it exists")
	f.DurationVar(&c.every, "checkpoint-every", cluster.DefaultCheckpointEvery, "interval between checkpoints")
	f.MarkHidden("checkpoint-every")
	return cmd
}

func (c *countCmd) run(size string) error {
	n, over, err := parseSizeMax(size, nqueens.MaxCountN)
	if err != nil {
		return err
	}
	if over {
		return tooLarge(size, nqueens.MaxCountN, "the counter")
	}
	if err = checkWorkers(c.workers); err != nil {
		return err
	}
	if err := c.progress.check(); err != nil {
		return err
	}
	defer limitMemory(n, c.workers)()
	switch {
	case c.shard != "" || c.outDir != "":
		return c.countShard(n)
	case c.checkpoint != "" || c.resume:
		return c.countCheckpointed(n)
	}
	return c.countPlain(n)
}

func (c *countCmd) bar() *lazyBar {
	return newLazyBar(c.e.stderr, c.progress.shown(c.e.stderr), "counting", c.e.progressDelay)
}

// countPlain counts the whole board in one go.
func (c *countCmd) countPlain(n int) error {
	bar := c.bar()
	start := time.Now()
	res, cerr := nqueens.Count(c.e.ctx, n, nqueens.CountOptions{Workers: c.workers, Kernel: kernelSetting(), Progress: bar.record})
	bar.finish()
	var se *nqueens.SizeError
	if errors.As(cerr, &se) {
		return usageError{cerr}
	}
	if cerr != nil && res.Status != nqueens.Interrupted {
		return cerr
	}
	out := countOutput{N: n, Total: res.Total, Unique: &res.Unique, Seconds: time.Since(start).Seconds(),
		Complete: res.Status == nqueens.Complete, Workers: res.Workers, Kernel: res.Kernel, Subs: int(res.Stats.Subs),
		SubsDone: int(res.Stats.SubsDone)}
	if err := c.render(out); err != nil {
		return err
	}
	if res.Status == nqueens.Interrupted {
		return interrupted{fmt.Sprintf("interrupted after %d of %d sub-problems: the counts above are partial", out.SubsDone, out.Subs)}
	}
	return nil
}

// render prints a count's line, or its JSON object.
func (c *countCmd) render(out countOutput) error {
	w := c.e.stdout
	if c.asJSON {
		return printJSON(w, out)
	}
	_, err := fmt.Fprintln(w, out.line())
	return err
}

// line is the text form of out: the keys of its JSON that a reader needs, in the same
// names.
func (out countOutput) line() string {
	s := fmt.Sprintf("n=%d total=%v", out.N, out.Total)
	if out.Unique != nil {
		s += fmt.Sprintf(" unique=%v", *out.Unique)
	} else { // a shard
		s += fmt.Sprintf(" burnside=%v", *out.Burnside)
	}
	s += fmt.Sprintf(" seconds=%.3f workers=%d", out.Seconds, out.Workers)
	if out.Kernel != "" {
		s += " kernel=" + out.Kernel
	}
	if out.Shard != "" {
		s += fmt.Sprintf(" shard=%s subs=%d", out.Shard, out.Subs)
		if out.ResultFile != "" {
			s += " result_file=" + out.ResultFile
		} else if out.Checkpoint != "" {
			s += " checkpoint=" + out.Checkpoint // interrupted, or the result file not written
		}
		if out.Skipped {
			s += " skipped=true"
		}
	}
	if out.Resumed > 0 {
		s += fmt.Sprintf(" resumed=%d", out.Resumed)
	}
	if !out.Complete {
		// An interrupted count: the sums are those of the finished sub-problems.
		s += " complete=false"
		if out.Shard == "" {
			s += fmt.Sprintf(" subs=%d", out.Subs)
		}
		s += fmt.Sprintf(" subs_done=%d", out.SubsDone)
	}
	return s
}

// newPlan returns the work plan of n, or a usage error for a size the counter refuses.
func newPlan(e *env, n int) (*cluster.Plan, error) {
	p, err := cluster.NewPlan(e.ctx, n)
	var se *nqueens.SizeError
	switch {
	case errors.As(err, &se):
		return nil, usageError{err}
	case err != nil && e.ctx.Err() != nil:
		return nil, interrupted{"interrupted while planning: nothing counted"}
	}
	return p, err
}

// options are the options of a checkpointed count or a shard: a resumed checkpoint and a
// periodic write that fails are said on stderr.
func (c *countCmd) options(bar *lazyBar) cluster.ShardOptions {
	return cluster.ShardOptions{Workers: c.workers, Kernel: kernelSetting(), Checkpoint: c.checkpoint, Resume: c.resume,
		CheckpointEvery: c.every, Version: version, Progress: bar.record,
		Resuming: func(path string, done, subs int, written string) {
			if written == "" {
				fmt.Fprintf(c.e.stderr, "nqueens: no checkpoint %s yet: counting from the start\n", path)
				return
			}
			fmt.Fprintf(c.e.stderr, "nqueens: resuming %s (written %s): %d of %d sub-problems done\n", path, written, done, subs)
		},
		SaveFailed: func(err error) {
			if err != nil {
				fmt.Fprintf(c.e.stderr, "nqueens: warning: checkpoint not saved: %v; the count goes on and tries again in %v\n", err, c.every)
			} else {
				fmt.Fprintln(c.e.stderr, "nqueens: the checkpoint is saved again")
			}
		}}
}

// output is the rendering of a checkpointed count or a shard. Its unique is the whole
// count's, Burnside/8 (a shard's is dropped by countShard; an interrupted count's is
// partial, as its total is).
func (c *countCmd) output(r cluster.ShardResult) countOutput {
	unique := r.Unique
	return countOutput{N: r.N, Total: r.Total, Unique: &unique, Seconds: r.Seconds,
		Complete: r.Status == nqueens.Complete, Workers: r.Workers, Kernel: r.Kernel, Subs: r.Subs, SubsDone: r.SubsDone,
		Checkpoint: r.Checkpoint, Resumed: r.Resumed, Burnside: &r.Burnside}
}

// fileError makes a usage error of the refusals of a path (a directory, a device where a
// checkpoint must be).
func fileError(err error) error {
	if errors.Is(err, atomicfile.ErrIsDir) || errors.Is(err, atomicfile.ErrNotRegular) {
		return usageError{err}
	}
	return err
}

// countCheckpointed counts the whole board with a checkpoint file.
func (c *countCmd) countCheckpointed(n int) error {
	if c.checkpoint == "" {
		return usagef("--resume needs --checkpoint FILE")
	}
	p, err := newPlan(c.e, n)
	if err != nil {
		return err
	}
	bar := c.bar()
	r, err := cluster.CountCheckpointed(c.e.ctx, p, c.options(bar))
	bar.finish()
	if errors.Is(err, cluster.ErrCheckpointExists) {
		return usagef("checkpoint %s exists: pass --resume to continue it, or remove it", c.checkpoint)
	}
	if r.Status != nqueens.Complete && r.Status != nqueens.Interrupted {
		return fileError(err)
	}
	// The count ran: its result is printed, saved or not.
	out := c.output(r)
	if err := c.render(out); err != nil {
		return err
	}
	notSaved := errors.Is(err, cluster.ErrNotSaved)
	if r.Status == nqueens.Interrupted {
		saved := fmt.Sprintf("%s saved, continue with --resume", c.checkpoint)
		if notSaved {
			saved = err.Error()
		}
		return interrupted{fmt.Sprintf("interrupted after %d of %d sub-problems: the counts above are partial; %s",
			out.SubsDone, out.Subs, saved)}
	}
	if notSaved {
		return fmt.Errorf("the count above is complete, but %w", err)
	}
	return nil
}

// countShard counts one shard of the plan into DIR.
func (c *countCmd) countShard(n int) error {
	if c.shard == "" {
		return usagef("--out-dir needs --shard I/K")
	}
	i, k, err := cluster.ParseShard(c.shard, c.getenv)
	if err != nil {
		return usagef("--%v", err)
	}
	if c.outDir == "" {
		return usagef("--shard needs --out-dir DIR, the directory of the result files")
	}
	if c.checkpoint != "" {
		return usagef("--checkpoint does not go with --shard: a shard checkpoints itself in its --out-dir, %s",
			filepath.Join(c.outDir, cluster.CheckpointFile(i, k)))
	}
	// While the plan is made and split, the shard holds no sub-problem yet.
	defer setMemoryLimit(int64(cluster.ShardMemory(n, c.workers, 1, k)))()
	p, err := newPlan(c.e, n)
	if err != nil {
		return err
	}
	size, err := p.ShardSize(i, k)
	if err == nil && size.Subs == 0 {
		warnShards(c.e, p, k, fmt.Sprintf(", this one (%d/%d) among them", i, k))
	} else {
		warnShards(c.e, p, k, "")
	}
	if err == nil {
		// The plan is made: the shard takes its own share, not the whole count's.
		defer setMemoryLimit(int64(cluster.ShardMemory(n, c.workers, size.Subs, k)))()
	}
	bar := c.bar()
	r, err := cluster.CountShard(c.e.ctx, p, i, k, c.outDir, c.options(bar))
	bar.finish()
	if r.Recounted != nil {
		fmt.Fprintf(c.e.stderr, "nqueens: %v: counting the shard again\n", r.Recounted)
	}
	spec := fmt.Sprintf("%d/%d", i, k)
	switch {
	case errors.Is(err, cluster.ErrOtherPlan) && r.Checkpoint == "":
		return fmt.Errorf("%w: use another --out-dir", err)
	case r.Status != nqueens.Complete && r.Status != nqueens.Interrupted:
		return fileError(err)
	}
	// The count ran: its sums are printed, saved or not.
	out := c.output(r)
	out.Shard, out.Skipped, out.Unique = spec, r.Skipped, nil
	if r.Skipped || (err == nil && r.Status == nqueens.Complete) {
		out.ResultFile, out.Checkpoint = r.ResultFile, "" // the checkpoint is removed with the result written
	} // else no result file was written: the line names the checkpoint that holds the count
	if err := c.render(out); err != nil {
		return err
	}
	notSaved := errors.Is(err, cluster.ErrNotSaved)
	if r.Status == nqueens.Interrupted {
		saved := fmt.Sprintf("%s saved: run the same command again to continue", r.Checkpoint)
		if notSaved {
			saved = err.Error()
		}
		return interrupted{fmt.Sprintf("shard %s interrupted after %d of %d sub-problems: the sums above are partial; %s",
			spec, r.SubsDone, r.Subs, saved)}
	}
	if notSaved {
		return fmt.Errorf("shard %s is counted (above), but %w", spec, err)
	}
	return nil
}

// limitMemory sets the garbage collector's soft memory limit to what the count of n on
// workers goroutines takes at most (nqueens.CountMemory), unless GOMEMLIMIT sets one:
// the heap of a large count is a few big arrays that come and go with the row sets, and
// without a limit the collector lets garbage grow to the size of the live heap (a shard
// of n = 23 peaked at 520 MB against 478 MB estimated).
// It returns the function that puts the previous limit back.
func limitMemory(n, workers int) (restore func()) {
	return setMemoryLimit(int64(nqueens.CountMemory(n, workers)))
}

// setMemoryLimit sets the soft memory limit to b bytes unless GOMEMLIMIT sets one, and
// returns the function that puts the previous limit back. A shard sets its own
// (cluster.ShardMemory) once its plan is made.
func setMemoryLimit(b int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(b)
	return func() { debug.SetMemoryLimit(prev) }
}
