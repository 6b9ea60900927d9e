package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

func newLabLasVegasCmd(e *env) *cobra.Command {
	var variant, ms, objective string
	var trials, maxDraws int
	var maxChecks int64
	var seed uint64
	var exact bool
	var of outputFlags
	cmd := &cobra.Command{
		Use:   "lasvegas N",
		Short: "The Las Vegas hybrid's cost against the number of random queens m (docs/algorithms.md §3.5)",
		Long: `Sweep the number m of queens placed at random before backtracking, on an N×N
board, and print per m: the success probability of one attempt, the mean
attempts, nodes and checks per solution, mean and median time, with standard
errors; * marks the optimum m (least mean checks unless --objective says
otherwise). The cost against m is U-shaped.

Variants: cell (draw squares from the whole board, at most --max-draws per
attempt, default n²) and row (Brassard & Bratley's QueensLV: a random free
column in each of the first m rows).

--exact enumerates every random choice with its probability instead of
sampling (small n only) and prints p, s, e and t = s + (1−p)·e/p in nodes
explored; for n=8, row variant, that is Brassard & Bratley's table.

Runs that exceed --max-checks are censored: they count with the work they did,
so a row with censored runs gives lower bounds and is left off the plot; a row
with too many is abandoned. Ctrl-C prints the rows done so far.`,
		Example: "  nqueens lab lasvegas 8 --variant row --exact\n  nqueens lab lasvegas 50 --variant cell --trials 300 --plot u.png",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			if err := of.check(); err != nil {
				return err
			}
			var v lab.Variant
			switch variant {
			case "cell":
				v = lab.Cell
			case "row":
				v = lab.Row
			default:
				return usagef("unknown variant %q (want cell or row)", variant)
			}
			if n == 2 || n == 3 {
				return fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
			}
			if n > lab.MaxLasVegasN {
				return usagef("the Las Vegas lab takes n ≤ %d, not %d", lab.MaxLasVegasN, n)
			}
			if trials < 1 || maxDraws < 0 || maxChecks < 0 {
				return usagef("--trials must be at least 1; --max-draws and --max-checks must not be negative")
			}
			var mlist []int
			if ms != "" {
				if mlist, err = parseList(ms); err != nil {
					return usagef("--ms: %v", err)
				}
				for _, m := range mlist {
					if m < 0 || m > n {
						return usagef("--ms: m = %d is not in 0..%d", m, n)
					}
				}
			}
			if exact {
				return labExact(e, n, v, maxDraws, mlist, &of)
			}
			obj := map[string]lab.Objective{"checks": lab.ByChecks, "explored": lab.ByExplored, "time": lab.ByTime}
			o, ok := obj[objective]
			if !ok {
				return usagef("unknown objective %q (want checks, explored or time)", objective)
			}
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64()
			}
			line := newLazyLine(e.stderr, isTerminal(e.stderr))
			res, serr := lab.Sweep(e.ctx, n, lab.SweepOptions{Variant: v, Ms: mlist, Trials: trials, Seed: seed,
				MaxDraws: maxDraws, MaxChecks: maxChecks, Objective: o,
				Progress: func(p lab.SweepProgress) {
					line.update(fmt.Sprintf("m=%d (%d/%d)", p.M, p.Row+1, p.Rows), float64(p.Run)/float64(p.Trials))
				}})
			line.finish()
			if serr != nil && e.ctx.Err() == nil {
				return serr
			}
			t := table{header: []string{"m", "p", "±", "attempts", "nodes", "explored", "checks", "±", "mean ms", "median ms", ""},
				csv:  []string{"m", "p", "p_se", "attempts", "nodes", "explored", "checks", "checks_se", "mean_ms", "median_ms", "note"},
				json: res}
			for i, r := range res.Rows {
				mark := ""
				if i == res.Optimum {
					mark = "*"
				}
				if r.Censored > 0 {
					mark += fmt.Sprintf(" censored %d", r.Censored)
				}
				if r.Abandoned {
					mark += " abandoned"
				}
				t.rows = append(t.rows, []string{fmt.Sprint(r.M), fmt.Sprintf("%.4f", r.P.Mean), fmt.Sprintf("%.4f", r.P.SE),
					fmt.Sprintf("%.2f", r.MeanAttempts.Mean), fmt.Sprintf("%.1f", r.Nodes.Mean), fmt.Sprintf("%.1f", r.Explored.Mean),
					fmt.Sprintf("%.1f", r.Checks.Mean), fmt.Sprintf("%.1f", r.Checks.SE),
					fmt.Sprintf("%.3f", 1e3*r.Seconds.Mean), fmt.Sprintf("%.3f", float64(r.Median)/float64(time.Millisecond)), mark})
			}
			if !of.json && !of.csv {
				fmt.Fprintf(e.stdout, "n=%d variant=%s trials=%d seed=%d max_draws=%d max_checks=%d objective=%s\n",
					n, res.Variant, res.Trials, res.Seed, res.MaxDraws, res.MaxChecks, res.Objective)
			}
			if err := of.print(e.stdout, t); err != nil {
				return err
			}
			if !of.json && !of.csv && res.Optimum >= 0 {
				r := res.Rows[res.Optimum]
				fmt.Fprintf(e.stdout, "optimum: m=%d (%s %.1f ± %.1f per solution)\n", r.M, res.Objective, r.Cost(o).Mean, r.Cost(o).SE)
			}
			if of.plot != "" && len(res.Rows) > 0 {
				if err := plotLasVegas(of.plot, res); err != nil {
					return err
				}
			}
			return serr
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "cell", "cell or row")
	f.IntVar(&trials, "trials", lab.DefaultTrials, "runs per m")
	f.Uint64Var(&seed, "seed", 0, "seed of the random source (default: random, printed)")
	f.IntVar(&maxDraws, "max-draws", 0, "draws per attempt, cell variant (0: n²)")
	f.Int64Var(&maxChecks, "max-checks", 0, "checks per run before its row is censored (0: 20,000,000)")
	f.StringVar(&ms, "ms", "", "values of m: a list 0,5,10 or a range 30..45 or 0..50/5 (default 0..N)")
	f.StringVar(&objective, "objective", "checks", "what the optimum minimises: checks, explored or time")
	f.BoolVar(&exact, "exact", false, "exact expectations by enumerating every random choice (small n)")
	of.register(cmd)
	return cmd
}

func labExact(e *env, n int, v lab.Variant, maxDraws int, ms []int, of *outputFlags) error {
	if ms == nil {
		for m := 0; m <= n; m++ {
			ms = append(ms, m)
		}
	}
	var rows []lab.ExactResult
	for _, m := range ms {
		r, err := lab.Exact(e.ctx, n, lab.LasVegasOptions{Variant: v, M: m, MaxDraws: maxDraws})
		if errors.Is(err, lab.ErrTooLarge) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	best := 0
	for i, r := range rows {
		if r.T < rows[best].T {
			best = i
		}
	}
	t := table{header: []string{"m", "p", "s", "e", "t", "checks t", ""}, csv: []string{"m", "p", "s", "e", "t", "checks_t", "note"},
		json: map[string]any{"n": n, "variant": v.String(), "rows": rows}}
	for i, r := range rows {
		mark := ""
		if i == best {
			mark = "*"
		}
		t.rows = append(t.rows, []string{fmt.Sprint(r.M), fmt.Sprintf("%.4f", r.P), fixed2(r.S), fixed2(r.E),
			fixed2(r.T), fixed2(r.ChecksT), mark})
	}
	if !of.json && !of.csv {
		fmt.Fprintf(e.stdout, "n=%d variant=%s exact (nodes explored: s per successful attempt, e per failed one, t = s + (1-p)e/p)\n", n, v)
	}
	if err := of.print(e.stdout, t); err != nil {
		return err
	}
	if of.plot != "" {
		return plotExact(of.plot, n, v, rows)
	}
	return nil
}

// fixed2 prints x with two decimals, halves rounded up as in the published tables
// (39.625 → 39.63; %.2f would print 39.62).
func fixed2(x float64) string {
	return fmt.Sprintf("%.2f", math.Floor(x*100+0.5+1e-9)/100)
}
