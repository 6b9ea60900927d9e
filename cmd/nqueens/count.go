package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/shard"
)

type countOutput struct {
	N         int     `json:"n"`
	Total     uint64  `json:"total"`
	Unique    uint64  `json:"unique"`
	Seconds   float64 `json:"seconds"`
	Complete  bool    `json:"complete"`
	Workers   int     `json:"workers"`
	Tasks     int     `json:"tasks"`
	TasksDone int     `json:"tasks_done"`
	Nodes     uint64  `json:"nodes"`
	// Set by --shard and --checkpoint only. The unique count of a shard is
	// its share of the Burnside numerator divided by 8: no count by itself
	// ("nqueens merge" gives the unique count); burnside is that share.
	Burnside   uint64 `json:"burnside,omitempty"`
	Shard      string `json:"shard,omitempty"`      // "I/K"
	Out        string `json:"out,omitempty"`        // the shard's result file
	Skipped    bool   `json:"skipped,omitempty"`    // the result file was there already
	Checkpoint string `json:"checkpoint,omitempty"` // the checkpoint file
	Resumed    int    `json:"resumed,omitempty"`    // sub-problems taken from the checkpoint
}

// countFlags are the options of count.
type countFlags struct {
	workers                  int
	asJSON, progress, noProg bool
	shard, out, checkpoint   string
	resume                   bool
	every                    time.Duration
	getenv                   func(string) string // the environment, for --shard auto/K
}

func newCountCmd(e *env) *cobra.Command {
	var cf countFlags
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count every solution of an N×N board, total and unique",
		Long: `Count every solution of an N×N board: the total (OEIS A000170) and the unique
ones, classes under the 8 symmetries of the square (OEIS A002562).

On Ctrl-C the count stops and reports the sub-problems finished so far
(exit 130); those partial sums are lower bounds, not the answer.

--checkpoint FILE saves the finished sub-problems and their sums every
30 seconds and on Ctrl-C or SIGTERM; --resume continues from FILE (or starts
afresh if it does not exist yet). Files are replaced atomically, so a crash
or kill -9 at any instant leaves a usable checkpoint. A resumed count redoes
the sub-problems that were running when it stopped (one per worker), and after
a crash or kill -9 also those finished since the last save.

--shard I/K --out DIR counts shard I (0..K-1) of the K shards of the work
plan (see "nqueens plan") and writes DIR/shard-IIII-of-KKKK.json; "nqueens
merge DIR" sums the shards. --shard auto/K takes I from SLURM_ARRAY_TASK_ID,
JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or AWS_BATCH_JOB_ARRAY_INDEX.
A shard checkpoints itself in DIR and resumes when run again; a shard whose
result file is already there and checks out is skipped.`,
		Example: "  nqueens count 12\n  nqueens count 14 --workers 2 --json\n" +
			"  nqueens count 18 --checkpoint q18.ckpt --resume\n" +
			"  nqueens count 20 --shard 3/16 --out results/",
		Args: exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			if cf.workers, err = parseWorkers(cf.workers); err != nil {
				return err
			}
			if cf.progress && cf.noProg {
				return usagef("--progress and --no-progress exclude each other")
			}
			if cf.getenv == nil {
				cf.getenv = os.Getenv
			}
			if cf.shard != "" || cf.out != "" {
				return countShard(e, n, &cf)
			}
			if cf.checkpoint != "" || cf.resume {
				return countCheckpointed(e, n, &cf)
			}
			return countPlain(e, n, &cf)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&cf.workers, "workers", "w", 0, "goroutines counting in parallel (0: one per core)")
	f.BoolVar(&cf.asJSON, "json", false, "print one JSON object")
	f.BoolVar(&cf.progress, "progress", false, "always show a progress bar on stderr")
	f.BoolVar(&cf.noProg, "no-progress", false, "never show a progress bar")
	f.StringVar(&cf.shard, "shard", "", "count shard `I/K` of the plan (I in 0..K-1, or auto/K from the job array index)")
	f.StringVar(&cf.out, "out", "", "with --shard: the `DIR`ectory of the shard result files")
	f.StringVar(&cf.checkpoint, "checkpoint", "", "save progress in `FILE` periodically and on interrupt")
	f.BoolVar(&cf.resume, "resume", false, "continue from the --checkpoint file if it exists")
	f.DurationVar(&cf.every, "checkpoint-every", shard.DefaultEvery, "interval between checkpoints")
	f.MarkHidden("checkpoint-every")
	return cmd
}

func (cf *countFlags) bar(e *env) *lazyBar {
	return newLazyBar(e.stderr, cf.progress || (!cf.noProg && isTerminal(e.stderr)), "counting")
}

// countPlain counts the whole board in one go.
func countPlain(e *env, n int, cf *countFlags) error {
	bar := cf.bar(e)
	start := time.Now()
	res, cerr := nqueens.Count(e.ctx, n, nqueens.CountOptions{Workers: cf.workers, Progress: bar.update})
	bar.finish()
	var se *nqueens.SizeError
	var me *nqueens.MemoryError
	if errors.As(cerr, &se) || errors.As(cerr, &me) {
		return usageError{cerr}
	}
	if cerr != nil && res.Status != nqueens.Interrupted {
		return cerr
	}
	out := countOutput{N: n, Total: res.Total, Unique: res.Unique, Seconds: time.Since(start).Seconds(),
		Complete: res.Status == nqueens.Complete, Workers: cf.workers, Tasks: res.Stats.Tasks,
		TasksDone: res.Stats.TasksDone, Nodes: res.Stats.Nodes}
	printCount(e, cf, out)
	if res.Status == nqueens.Interrupted {
		return interrupted{fmt.Sprintf("interrupted after %d of %d sub-problems: the counts above are partial", out.TasksDone, out.Tasks)}
	}
	return nil
}

func printCount(e *env, cf *countFlags, out countOutput) {
	if cf.asJSON {
		b, _ := json.Marshal(out)
		fmt.Fprintln(e.stdout, string(b))
		return
	}
	fmt.Fprintf(e.stdout, "n=%d total=%d unique=%d seconds=%.3f workers=%d", out.N, out.Total, out.Unique, out.Seconds, out.Workers)
	if out.Shard != "" {
		fmt.Fprintf(e.stdout, " shard=%s subs=%d out=%s", out.Shard, out.Tasks, out.Out)
		if out.Skipped {
			fmt.Fprint(e.stdout, " skipped=true")
		}
	}
	if out.Resumed > 0 {
		fmt.Fprintf(e.stdout, " resumed=%d", out.Resumed)
	}
	if !out.Complete {
		// An interrupted count: the sums are those of the finished sub-problems.
		fmt.Fprintf(e.stdout, " partial=true subs_done=%d/%d", out.TasksDone, out.Tasks)
	}
	fmt.Fprintln(e.stdout)
}

// newPlan returns the work plan of n, or a usage error for a size the counter refuses.
func newPlan(e *env, n int) (*fastcount.Plan, error) {
	if n < 1 || n > fastcount.MaxN {
		return nil, usageError{&nqueens.SizeError{N: n, Min: 1, Max: fastcount.MaxN, What: "the counter"}}
	}
	p, err := fastcount.NewPlanContext(e.ctx, n, fastcount.EngineAuto)
	if err != nil && e.ctx.Err() != nil {
		return nil, interrupted{"interrupted while planning: nothing counted"}
	}
	return p, err
}

// countCheckpointed counts the whole board with a checkpoint file.
func countCheckpointed(e *env, n int, cf *countFlags) error {
	if cf.checkpoint == "" {
		return usagef("--resume needs --checkpoint FILE")
	}
	p, err := newPlan(e, n)
	if err != nil {
		return err
	}
	ids := make([]int, len(p.Subs))
	for i := range ids {
		ids[i] = i
	}
	c, err := openCheckpoint(e, cf.checkpoint, cf.resume, p, 0, 1, ids)
	if err != nil {
		return err
	}
	out, err := runCheckpointed(e, cf, p, c, cf.checkpoint)
	if out.Complete || errors.Is(err, errInterrupted) {
		printCount(e, cf, out)
	}
	if errors.Is(err, errInterrupted) {
		return interrupted{fmt.Sprintf("interrupted after %d of %d sub-problems: the counts above are partial; %s saved, continue with --resume",
			out.TasksDone, out.Tasks, cf.checkpoint)}
	}
	return err
}

// errInterrupted marks a count stopped by the context with its checkpoint saved.
var errInterrupted = errors.New("interrupted")

// openCheckpoint loads the checkpoint at path if resume is set and the file
// exists, and checks it belongs to this count; otherwise it starts afresh,
// refusing to overwrite an existing file unless resume is set.
func openCheckpoint(e *env, path string, resume bool, p *fastcount.Plan, i, k int, ids []int) (*shard.Checkpoint, error) {
	_, statErr := os.Stat(path)
	switch {
	case statErr == nil && !resume:
		return nil, usagef("checkpoint %s exists: pass --resume to continue it, or remove it", path)
	case statErr == nil:
		c, err := shard.LoadCheckpoint(path)
		if err != nil {
			return nil, err
		}
		if err := c.Matches(p, i, k, ids); err != nil {
			return nil, fmt.Errorf("checkpoint %s %w", path, err)
		}
		return c, nil
	case !errors.Is(statErr, os.ErrNotExist):
		return nil, statErr
	}
	return shard.NewCheckpoint(p, i, k, ids), nil
}

// runCheckpointed runs the rest of checkpoint c, saving it at path.
func runCheckpointed(e *env, cf *countFlags, p *fastcount.Plan, c *shard.Checkpoint, path string) (countOutput, error) {
	resumed := c.Done.Len()
	bar := cf.bar(e)
	err := shard.Count(e.ctx, p, c, shard.CountOptions{Workers: cf.workers, Checkpoint: path, Every: cf.every,
		Version: version, Progress: bar.update})
	bar.finish()
	unique, uerr := c.Unique()
	out := countOutput{N: c.N, Total: c.Total, Unique: unique, Seconds: c.Seconds, Complete: c.Complete,
		Workers: cf.workers, Tasks: c.Todo.Len(), TasksDone: c.Done.Len(), Nodes: c.Nodes,
		Checkpoint: path, Resumed: resumed, Burnside: c.Burnside}
	if err != nil && e.ctx.Err() != nil && !c.Complete {
		return out, errInterrupted
	}
	if err == nil {
		err = uerr
	}
	return out, err
}

// parseShard reads "I/K" or "auto/K".
func parseShard(s string, getenv func(string) string) (i, k int, err error) {
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, usagef("--shard %q: want I/K, such as 0/8, or auto/K", s)
	}
	k, err = strconv.Atoi(ks)
	if err != nil || k < 1 || k > shard.MaxShards {
		return 0, 0, usagef("--shard %q: K must be a whole number from 1 to %d", s, shard.MaxShards)
	}
	if is == "auto" {
		i, _, err := shard.IndexFromEnv(getenv, k)
		if err != nil {
			return 0, 0, usagef("--shard auto/%d: %v", k, err)
		}
		return i, k, nil
	}
	i, err = strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return 0, 0, usagef("--shard %q: I must be a whole number from 0 to %d", s, k-1)
	}
	return i, k, nil
}

// countShard counts one shard of the plan into DIR.
func countShard(e *env, n int, cf *countFlags) error {
	if cf.shard == "" {
		return usagef("--out needs --shard I/K")
	}
	if cf.out == "" {
		return usagef("--shard needs --out DIR, the directory of the result files")
	}
	i, k, err := parseShard(cf.shard, cf.getenv)
	if err != nil {
		return err
	}
	p, err := newPlan(e, n)
	if err != nil {
		return err
	}
	assign, err := shard.Assign(p, k)
	if err != nil {
		return usageError{err}
	}
	ids := assign[i]
	if err := os.MkdirAll(cf.out, 0o755); err != nil {
		return err
	}
	resPath := filepath.Join(cf.out, shard.FileName(i, k))
	spec := fmt.Sprintf("%d/%d", i, k)
	if r, err := shard.ReadResult(resPath); err == nil {
		if merr := r.Matches(p, i, k, ids); merr != nil {
			return fmt.Errorf("%s %w: use another --out directory", resPath, merr)
		}
		printCount(e, cf, countOutput{N: n, Total: r.Total, Unique: r.Burnside / 8, Seconds: r.Seconds, Complete: true,
			Workers: cf.workers, Tasks: r.IDs.Len(), TasksDone: r.IDs.Len(), Nodes: r.Nodes, Shard: spec,
			Out: resPath, Skipped: true, Burnside: r.Burnside})
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(e.stderr, "nqueens: %v: counting the shard again\n", err)
	}
	ckPath := cf.checkpoint
	if ckPath == "" {
		ckPath = filepath.Join(cf.out, shard.CheckpointName(i, k))
	}
	c, err := openCheckpoint(e, ckPath, true, p, i, k, ids)
	if err != nil {
		return err
	}
	out, err := runCheckpointed(e, cf, p, c, ckPath)
	out.Shard, out.Out = spec, resPath
	if errors.Is(err, errInterrupted) {
		return interrupted{fmt.Sprintf("shard %s interrupted after %d of %d sub-problems; %s saved: run the same command again to continue",
			spec, out.TasksDone, out.Tasks, ckPath)}
	}
	if err != nil {
		return err
	}
	r := c.Result()
	r.Workers = cf.workers
	r.Host, _ = os.Hostname()
	r.Finished = time.Now().UTC().Format(time.RFC3339)
	if err := shard.WriteResult(resPath, r); err != nil {
		return err
	}
	os.Remove(ckPath)
	printCount(e, cf, out)
	return nil
}
