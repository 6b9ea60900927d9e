package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
)

// statusShard is a started shard that is not done, as status prints it.
type statusShard struct {
	Shard        string  `json:"shard"`                // "I/K"
	Locked       bool    `json:"locked"`               // a process counts it now; false: interrupted
	FractionDone float64 `json:"fraction_done"`        // of its cost done
	Subs         int     `json:"subs"`                 // the shard's
	SubsDone     int     `json:"subs_done"`            // those finished
	Seconds      float64 `json:"seconds"`              // counting time so far
	Written      string  `json:"written,omitempty"`    // the checkpoint's last write
	Checkpoint   string  `json:"checkpoint,omitempty"` // "" when only its lock shows it
}

// statusOutput is what status prints, in the names of docs/vocabulary.md.
type statusOutput struct {
	N                 int             `json:"n"`
	Shards            int             `json:"shards"`
	ShardsDone        int             `json:"shards_done"`
	ShardsRunning     int             `json:"shards_running"`
	ShardsInterrupted int             `json:"shards_interrupted"`
	ShardsMissing     int             `json:"shards_missing"`
	Complete          bool            `json:"complete"`
	Total             nqueens.Uint128 `json:"total"`    // of the done shards
	Burnside          nqueens.Uint128 `json:"burnside"` // of the done shards
	Kernels           []string        `json:"kernels"`  // the matcher kernels that counted the done shards
	// Unique is set when every shard is done: a part of the Burnside sum is no count.
	Unique         *nqueens.Uint128 `json:"unique,omitempty"`
	FractionDone   float64          `json:"fraction_done"`
	CoreHoursSpent float64          `json:"core_hours_spent"`          // counting time × workers
	CoreHoursLeft  *float64         `json:"core_hours_left,omitempty"` // unset while nothing is done
	EstimatedBy    string           `json:"estimated_by"`              // "plan" or "shards"
	ShardsPerHour  float64          `json:"shards_per_hour"`
	Window         string           `json:"window"`
	ETA            string           `json:"eta,omitempty"`
	Started        []statusShard    `json:"started"`
	Missing        string           `json:"missing"` // the shards not started: "6-7,12"
	OddFiles       []string         `json:"odd_files"`
	Subs           int              `json:"subs"` // the plan's
	Plan           string           `json:"plan"`
	Engine         string           `json:"engine"`
}

// statusCmd is "nqueens status".
type statusCmd struct {
	e      *env
	asJSON bool
	noPlan bool
	window time.Duration
	now    func() time.Time
}

func newStatusCmd(e *env) *cobra.Command {
	c := &statusCmd{e: e, now: time.Now}
	cmd := &cobra.Command{
		Use:   "status DIR...",
		Short: `Report a sharded count in progress: shards done, running, missing; sums; time left`,
		Long: `Report the state of a run of "nqueens count N --shard I/K --out-dir DIR" from
the files in DIR (and any other directories given, as merge reads them): the
plan and shard count are those most files share, as for merge.

  shards_done         the shards with a result file of the plan
  shards_running      the shards with a checkpoint whose lock a process holds
                      now (a count is on it: locked=true)
  shards_interrupted  the shards with a checkpoint and no lock held: run them
                      again to finish them
  shards_missing      the shards with none of these: missing lists them
  total, burnside     the sums of the done shards; unique only once every shard
                      is done (a part of the Burnside sum is no count)
  fraction_done       the part of the plan's cost done: the done shards, and the
                      finished sub-problems of the started ones
  core_hours_spent     the counting time × workers of the result files and
                      checkpoints: each count's wall time times its goroutines,
                      not CPU time measured (a checkpoint does not record its
                      workers: taken as most result files say)
  core_hours_left      core_hours_spent × cost left / cost done
  shards_per_hour     the shards finished in the last --window (or since the
                      run started, if later), and eta when the rest ends at
                      that rate
  odd_files           the files left out, named as merge names them: of
                      another plan or shard count, a bad checksum, truncated, a
                      shard twice

The costs come from the plan, made here as a shard process makes it, and the
split into K shards. Measured (2-core AMD EPYC Zen 5 VM, a run directory of one
checkpoint): 2 s and 0.13 GB at n = 26, 5 s and 0.16 GB at n = 27, 12 s and
0.22 GB at n = 28, all with K = 10^6; 14 s and 1.2 GB at n = 28 with K = 2^24
(about 60 bytes a shard: see docs/cluster.md). --no-plan skips the plan (under
0.1 s and 0.06 GB at K = 10^6, 0.8 s and 0.76 GB at K = 2^24): every shard
weighs the same (the split balances them by cost, but for a few such as shard 0)
and a started shard's part is its share of sub-problems finished
(estimated_by=shards).

Exit 0 when the report is made, complete or not; 2 when a DIR holds no shard
files; 1 when the files cannot be read as one run.`,
		Example: `  nqueens status results/
  nqueens status site-a/ site-b/ --json
  nqueens status results/ --no-plan --window 6h

  $ nqueens status q19
  n=19 shards=8 shards_done=6 shards_running=1 shards_interrupted=1 shards_missing=0 complete=false
  total=3696838104 burnside=3696882288 (sums of the shards done)
  fraction_done=0.8298 core_hours_spent=0.027 core_hours_left=0.0056 estimated_by=plan
  shards_per_hour=206 window=1m45s eta=2026-12-03T09:16:31Z
  shard=5/8 locked=false fraction_done=0.3548 subs_done=2281 subs=5817 seconds=8.598 written=… checkpoint=q19/shard-0005-of-0008.checkpoint
  shard=7/8 locked=true fraction_done=0.2833 subs_done=1890 subs=5820 seconds=6.021 written=… checkpoint=q19/shard-0007-of-0008.checkpoint
  subs=46254 plan=6d4a5312e749 engine=qjoin/v3`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want one or more directories of shard files")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error { return c.run(args) },
	}
	f := cmd.Flags()
	f.BoolVar(&c.asJSON, "json", false, "print one JSON object")
	f.BoolVar(&c.noPlan, "no-plan", false, "do not plan: every shard weighs the same, a started shard's part is by sub-problems")
	f.DurationVar(&c.window, "window", time.Hour, "the recent `time` over which the rate of finished shards is measured")
	return cmd
}

func (c *statusCmd) run(dirs []string) error {
	if c.window <= 0 {
		return usagef("--window must be more than 0, got %v", c.window)
	}
	if err := givenOnce(dirs); err != nil {
		return err
	}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return usageError{err}
		}
		if !fi.IsDir() {
			return usagef("%s is not a directory: status reads the shard files of a directory", d)
		}
	}
	st, err := cluster.ReadRunStatus(c.e.ctx, dirs, cluster.RunStatusOptions{NoPlan: c.noPlan, Window: c.window, Now: c.now()})
	switch {
	case errors.Is(err, cluster.ErrNoShardFiles):
		return usageError{err}
	case err != nil && c.e.ctx.Err() != nil:
		return interrupted{"interrupted while planning: no report"}
	case errors.Is(err, cluster.ErrOtherPlan):
		return fmt.Errorf("%w (--no-plan reports without the plan)", err)
	case err != nil:
		return err
	}
	return c.render(outputOf(st))
}

// outputOf is the rendering of st.
func outputOf(st cluster.RunStatus) statusOutput {
	out := statusOutput{N: st.N, Shards: st.Shards, ShardsDone: st.ShardsDone, ShardsRunning: st.ShardsRunning,
		ShardsInterrupted: st.ShardsInterrupted, ShardsMissing: st.ShardsMissing, Complete: st.Complete,
		Total: st.Total, Burnside: st.Burnside, Kernels: st.Kernels, FractionDone: st.FractionDone, CoreHoursSpent: st.CPUSeconds / 3600,
		EstimatedBy: st.EstimatedBy, ShardsPerHour: st.ShardsPerHour, Window: windowText(st.Window),
		Started: []statusShard{}, Missing: st.Missing, OddFiles: st.OddFiles, Subs: st.Subs, Plan: st.PlanHash, Engine: st.Engine}
	if out.OddFiles == nil {
		out.OddFiles = []string{}
	}
	if out.Kernels == nil {
		out.Kernels = []string{}
	}
	if st.Complete {
		out.Unique = &st.Unique
	}
	if st.CPUSecondsLeft >= 0 {
		h := st.CPUSecondsLeft / 3600
		out.CoreHoursLeft = &h
	}
	if !st.ETA.IsZero() {
		out.ETA = st.ETA.UTC().Format(time.RFC3339)
	}
	for _, r := range st.Started {
		out.Started = append(out.Started, statusShard{Shard: fmt.Sprintf("%d/%d", r.Shard, st.Shards), Locked: r.Locked,
			FractionDone: r.FractionDone, Subs: r.Subs, SubsDone: r.SubsDone, Seconds: r.Seconds, Written: r.Written, Checkpoint: r.Checkpoint})
	}
	return out
}

// maxLines is the number of started shards, and of odd files, that the text lists
// (--json lists all).
const maxLines = 50

func (c *statusCmd) render(out statusOutput) error {
	w := c.e.stdout
	if c.asJSON {
		return printJSON(w, out)
	}
	fmt.Fprintf(w, "n=%d shards=%d shards_done=%d shards_running=%d shards_interrupted=%d shards_missing=%d complete=%v\n",
		out.N, out.Shards, out.ShardsDone, out.ShardsRunning, out.ShardsInterrupted, out.ShardsMissing, out.Complete)
	kernels := ""
	if len(out.Kernels) > 0 {
		kernels = " kernels=" + strings.Join(out.Kernels, ",")
	}
	if out.Unique != nil {
		fmt.Fprintf(w, "total=%v unique=%v burnside=%v%s\n", out.Total, *out.Unique, out.Burnside, kernels)
	} else {
		fmt.Fprintf(w, "total=%v burnside=%v%s (sums of the shards done)\n", out.Total, out.Burnside, kernels)
	}
	left := "unknown"
	if out.CoreHoursLeft != nil {
		left = hours(*out.CoreHoursLeft)
	}
	fmt.Fprintf(w, "fraction_done=%.4f core_hours_spent=%s core_hours_left=%s estimated_by=%s\n",
		out.FractionDone, hours(out.CoreHoursSpent), left, out.EstimatedBy)
	eta := out.ETA
	if eta == "" {
		eta = "unknown"
		if out.Complete {
			eta = "done"
		}
	}
	fmt.Fprintf(w, "shards_per_hour=%s window=%s eta=%s\n", hours(out.ShardsPerHour), out.Window, eta)
	for i, s := range out.Started {
		if i == maxLines {
			fmt.Fprintf(w, "… %d more started shards (--json lists them all)\n", len(out.Started)-i)
			break
		}
		fmt.Fprintf(w, "shard=%s locked=%v fraction_done=%.4f subs_done=%d subs=%d seconds=%.3f", s.Shard, s.Locked, s.FractionDone, s.SubsDone, s.Subs, s.Seconds)
		if s.Checkpoint != "" {
			fmt.Fprintf(w, " written=%s checkpoint=%s", s.Written, s.Checkpoint)
		}
		fmt.Fprintln(w)
	}
	if out.Missing != "" {
		fmt.Fprintf(w, "missing=%s\n", out.Missing)
	}
	for i, o := range out.OddFiles {
		if i == maxLines {
			fmt.Fprintf(w, "… %d more odd files (--json lists them all)\n", len(out.OddFiles)-i)
			break
		}
		fmt.Fprintf(w, "odd: %s\n", o)
	}
	_, err := fmt.Fprintf(w, "subs=%d plan=%.12s engine=%s\n", out.Subs, out.Plan, out.Engine)
	return err
}

// hours writes a number of hours (or a rate) with the digits that mean something:
// 158500, 26.4, 0.0021.
func hours(h float64) string {
	switch {
	case h >= 100:
		return strconv.FormatFloat(h, 'f', 0, 64)
	case h >= 1:
		return strconv.FormatFloat(h, 'f', 1, 64)
	}
	return strconv.FormatFloat(h, 'g', 2, 64)
}

// windowText writes the window of the rate to the second, or to the millisecond below
// a minute (a run that started seconds ago).
func windowText(d time.Duration) string {
	if d < time.Minute {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
