package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
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
}

func newCountCmd(e *env) *cobra.Command {
	var workers int
	var asJSON, progress, noProgress bool
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count every solution of an N×N board, total and unique",
		Long: `Count every solution of an N×N board: the total (OEIS A000170) and the unique
ones, classes under the 8 symmetries of the square (OEIS A002562).

On Ctrl-C the count stops and reports the sub-problems finished so far
(exit 130); those partial sums are lower bounds, not the answer.`,
		Example: "  nqueens count 12\n  nqueens count 14 --workers 2 --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			if workers < 0 {
				return usagef("--workers must be at least 1 (0 means every core), got %d", workers)
			}
			if progress && noProgress {
				return usagef("--progress and --no-progress exclude each other")
			}
			if workers == 0 {
				workers = runtime.GOMAXPROCS(0)
			}
			show := progress || (!noProgress && isTerminal(e.stderr))
			bar := newLazyBar(e.stderr, show, "counting")
			start := time.Now()
			res, cerr := nqueens.Count(e.ctx, n, nqueens.CountOptions{Workers: workers, Progress: bar.update})
			bar.finish()
			var se *nqueens.SizeError
			if errors.As(cerr, &se) {
				return usageError{cerr}
			}
			if cerr != nil && res.Status != nqueens.Interrupted {
				return cerr
			}
			out := countOutput{N: n, Total: res.Total, Unique: res.Unique, Seconds: time.Since(start).Seconds(),
				Complete: res.Status == nqueens.Complete, Workers: workers, Tasks: res.Stats.Tasks,
				TasksDone: res.Stats.TasksDone, Nodes: res.Stats.Nodes}
			if asJSON {
				b, _ := json.Marshal(out)
				fmt.Fprintln(e.stdout, string(b))
			} else {
				fmt.Fprintf(e.stdout, "n=%d total=%d unique=%d seconds=%.3f workers=%d\n", n, out.Total, out.Unique, out.Seconds, workers)
			}
			if res.Status == nqueens.Interrupted {
				fmt.Fprintf(e.stderr, "nqueens: interrupted after %d of %d sub-problems: the counts above are partial\n", out.TasksDone, out.Tasks)
				return cerr
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVarP(&workers, "workers", "w", 0, "goroutines counting in parallel (0: one per core)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	f.BoolVar(&progress, "progress", false, "always show a progress bar on stderr")
	f.BoolVar(&noProgress, "no-progress", false, "never show a progress bar")
	return cmd
}
