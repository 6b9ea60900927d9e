package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// labLasVegasCmd is "nqueens lab lasvegas": the flags, then parse, and run with its
// rendering either as a sampled sweep over m or, with --exact, as exact expectations.
type labLasVegasCmd struct {
	e                      *env
	variant, ms, objective string
	trials, maxDraws       int
	maxChecks              int64
	seed                   uint64
	seedGiven, exact       bool
	force                  bool
	of                     outputFlags
}

// labLasVegasJob is a parsed command line of lab lasvegas.
type labLasVegasJob struct {
	n         int
	variant   lab.Variant
	ms        []int         // the values of m; nil: 0..n
	objective lab.Objective // what the optimum of the sweep minimises; unused by --exact
}

func newLabLasVegasCmd(e *env) *cobra.Command {
	c := &labLasVegasCmd{e: e}
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
sampling (n ≤ 14 for the row variant, 25 s there; about n ≤ 8 for the cell
variant, whose states outgrow 128 MB beyond) and prints p, s, e and
t = s + (1−p)·e/p in nodes explored; for n=8, row variant, that is Brassard &
Bratley's table. It samples nothing, so it takes no --trials, --seed,
--objective or --max-checks; nor does the row variant take --max-draws.

Runs that exceed --max-checks are censored: they count with the work they did,
so a row with censored runs gives lower bounds and is left off the plot; a row
with too many is abandoned. Ctrl-C prints the rows done so far.

Before a sweep, its checks and time are estimated from a few short pilot runs
(a second at most): a sweep estimated past 10 s is announced on stderr, one
past an hour is refused (exit 2) unless --force is given.`,
		Example: "  nqueens lab lasvegas 8 --variant row --exact\n  nqueens lab lasvegas 50 --variant cell --trials 300 --plot u.png",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c.seedGiven = cmd.Flags().Changed("seed")
			if err := c.conflicts(cmd.Flags()); err != nil {
				return err
			}
			job, err := c.parse(args[0])
			if err != nil {
				return err
			}
			return c.run(job)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.variant, "variant", "cell", "cell or row")
	f.IntVar(&c.trials, "trials", lab.DefaultTrials, "runs per m")
	f.Uint64Var(&c.seed, "seed", 0, "seed of the random source (default: random, printed)")
	f.IntVar(&c.maxDraws, "max-draws", 0, "draws per attempt, cell variant (0: n²)")
	f.Int64Var(&c.maxChecks, "max-checks", 0, "checks per run before its row is censored (0: 20,000,000)")
	f.StringVar(&c.ms, "ms", "", "values of m: a list 0,5,10 or a range 30..45 or 0..50/5 (default 0..N)")
	f.StringVar(&c.objective, "objective", "checks", "what the optimum minimises: checks, explored or time")
	f.BoolVar(&c.exact, "exact", false, "exact expectations by enumerating every random choice (small n)")
	f.BoolVar(&c.force, "force", false, "run even when the estimate says the sweep takes more than an hour")
	c.of.register(cmd)
	return cmd
}

// conflicts refuses flags that the run would ignore: the sampling flags with --exact,
// which samples nothing, and --max-draws with the row variant, which draws no squares.
func (c *labLasVegasCmd) conflicts(fl *pflag.FlagSet) error {
	if err := exclusive(fl, "exact", []string{"trials", "seed", "objective", "max-checks"},
		"--exact enumerates every random choice instead of sampling runs"); err != nil {
		return err
	}
	if c.variant == "row" && fl.Changed("max-draws") {
		return usagef("--variant row and --max-draws exclude each other: --max-draws bounds the cell variant's draws, the row variant draws one column per row")
	}
	return nil
}

// lasVegasObjectives are the values of --objective.
var lasVegasObjectives = map[string]lab.Objective{"checks": lab.ByChecks, "explored": lab.ByExplored, "time": lab.ByTime}

// parse checks the command line; every usage error comes from here, before any work,
// except that of a board too large to enumerate, which --exact finds as it goes.
// --objective is checked only for the sweep, which is the only use of it.
func (c *labLasVegasCmd) parse(size string) (labLasVegasJob, error) {
	var j labLasVegasJob
	var err error
	if j.n, err = parseSize(size); err != nil {
		return j, err
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	switch c.variant {
	case "cell":
		j.variant = lab.Cell
	case "row":
		j.variant = lab.Row
	default:
		return j, usagef("unknown variant %q (want cell or row)", c.variant)
	}
	if j.n == 2 || j.n == 3 {
		return j, fmt.Errorf("n = %d: %w", j.n, nqueens.ErrNoSolution)
	}
	if j.n > lab.MaxLasVegasN {
		return j, usagef("the Las Vegas lab takes n ≤ %d, not %d", lab.MaxLasVegasN, j.n)
	}
	switch {
	case c.trials < 1:
		return j, usagef("--trials must be at least 1, got %d", c.trials)
	case c.maxDraws < 0:
		return j, usagef("--max-draws must not be negative, got %d", c.maxDraws)
	case c.maxChecks < 0:
		return j, usagef("--max-checks must not be negative, got %d", c.maxChecks)
	}
	if c.ms != "" {
		if j.ms, err = parseList(c.ms); err != nil {
			return j, usagef("--ms: %v", err)
		}
		for _, m := range j.ms {
			if m < 0 || m > j.n {
				return j, usagef("--ms: m = %d is not in 0..%d", m, j.n)
			}
		}
	}
	if c.exact {
		return j, nil
	}
	o, ok := lasVegasObjectives[c.objective]
	if !ok {
		return j, usagef("unknown objective %q (want checks, explored or time)", c.objective)
	}
	j.objective = o
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed with the table, so the sweep can be repeated
	}
	return j, nil
}

// run sweeps m (or, with --exact, enumerates), prints the table and draws the figure.
func (c *labLasVegasCmd) run(j labLasVegasJob) error {
	if c.exact {
		return c.runExact(j)
	}
	return c.runSweep(j)
}

// runSweep samples --trials runs per m. On Ctrl-C it prints the rows done so far and
// returns the interruption.
func (c *labLasVegasCmd) runSweep(j labLasVegasJob) error {
	e := c.e
	opt := lab.SweepOptions{Variant: j.variant, Ms: j.ms, Trials: c.trials, Seed: c.seed,
		MaxDraws: c.maxDraws, MaxChecks: c.maxChecks, Objective: j.objective}
	// Interrupted while estimating, the sweep below stops at once and prints its (empty) table.
	if est, err := lab.EstimateSweep(e.ctx, j.n, opt); err == nil {
		rows := len(j.ms)
		if j.ms == nil {
			rows = j.n + 1
		}
		why := fmt.Sprintf("%s values of m, about %s checks at %s a second", group(int64(rows)), sci(est.Checks), sci(est.Rate))
		if err := checkCost(e, fmt.Sprintf("lab lasvegas %d", j.n), est.Seconds, why, c.force); err != nil {
			return err
		}
	} else if e.ctx.Err() == nil {
		return err
	}
	line := newLazyLine(e.stderr, isTerminal(e.stderr))
	opt.Progress = func(p lab.SweepProgress) {
		line.update(fmt.Sprintf("m=%d (%d/%d)", p.M, p.Row+1, p.Rows), float64(p.Run)/float64(p.Trials))
	}
	res, serr := lab.Sweep(e.ctx, j.n, opt)
	line.finish()
	if serr != nil && e.ctx.Err() == nil {
		return serr
	}
	if err := c.renderSweep(j.n, res, j.objective); err != nil {
		return err
	}
	if c.of.plot != "" && len(res.Rows) > 0 {
		if err := plotLasVegas(c.of.plot, res); err != nil {
			return err
		}
	}
	return serr
}

// renderSweep prints the sweep: a line of its parameters, the table with the optimum
// marked * and the censored and abandoned rows noted, and a line naming the optimum;
// or the table alone as CSV, or res as JSON.
func (c *labLasVegasCmd) renderSweep(n int, res lab.SweepResult, o lab.Objective) error {
	w := c.e.stdout
	text := !c.of.json && !c.of.csv
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
	if text {
		if _, err := fmt.Fprintf(w, "n=%d variant=%s trials=%d seed=%d max_draws=%d max_checks=%d objective=%s\n",
			n, res.Variant, res.Trials, res.Seed, res.MaxDraws, res.MaxChecks, res.Objective); err != nil {
			return err
		}
	}
	if err := c.of.print(w, t); err != nil {
		return err
	}
	if text && res.Optimum >= 0 {
		r := res.Rows[res.Optimum]
		if _, err := fmt.Fprintf(w, "optimum: m=%d (%s %.1f ± %.1f per solution)\n", r.M, res.Objective, r.Cost(o).Mean, r.Cost(o).SE); err != nil {
			return err
		}
	}
	return nil
}

// runExact computes the exact expectations for each m (0..n without --ms); a board too
// large to enumerate is a usage error.
func (c *labLasVegasCmd) runExact(j labLasVegasJob) error {
	ms := j.ms
	if ms == nil {
		for m := 0; m <= j.n; m++ {
			ms = append(ms, m)
		}
	}
	var rows []lab.ExactResult
	for _, m := range ms {
		r, err := lab.Exact(c.e.ctx, j.n, lab.LasVegasOptions{Variant: j.variant, M: m, MaxDraws: c.maxDraws})
		if errors.Is(err, lab.ErrTooLarge) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	if err := c.renderExact(j.n, j.variant, rows); err != nil {
		return err
	}
	if c.of.plot != "" {
		return plotExact(c.of.plot, j.n, j.variant, rows)
	}
	return nil
}

// renderExact prints the exact expectations with the least t marked *: after a line
// saying what p, s, e and t are, or as CSV or JSON.
func (c *labLasVegasCmd) renderExact(n int, v lab.Variant, rows []lab.ExactResult) error {
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
	if !c.of.json && !c.of.csv {
		if _, err := fmt.Fprintf(c.e.stdout, "n=%d variant=%s exact (nodes explored: s per successful attempt, e per failed one, t = s + (1-p)e/p)\n", n, v); err != nil {
			return err
		}
	}
	return c.of.print(c.e.stdout, t)
}

// fixed2 prints x with two decimals, halves rounded up as in the published tables
// (39.625 → 39.63; %.2f would print 39.62).
func fixed2(x float64) string {
	return fmt.Sprintf("%.2f", math.Floor(x*100+0.5+1e-9)/100)
}
