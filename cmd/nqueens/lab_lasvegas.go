package main

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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
	n   int
	opt lab.LasVegasOptions
}

func newLabLasVegasCmd(e *env) *cobra.Command {
	c := &labLasVegasCmd{e: e}
	cmd := &cobra.Command{
		Use:   "lasvegas N",
		Short: "The Las Vegas hybrid's cost against the number of random queens m (docs/algorithms.md §3.5)",
		Long: fmt.Sprintf(`Sweep the number m of queens placed at random before backtracking, on an N×N
board, and print per m: the success probability of one start from the empty
board (a start), the mean starts, nodes, nodes explored and checks per solution,
mean and median time, with standard errors; * marks the optimum m: the least
nodes explored per solution (Brassard & Bratley's measure), or the least checks
or time with --objective. The cost against m is U-shaped.

Variants: cell (draw squares from the whole board, at most --max-draws per
start, default n²) and row (Brassard & Bratley's QueensLV: a random free
column in each of the first m rows).

--exact enumerates every random choice with its probability instead of
sampling (n ≤ %d for the row variant, 25 s there; about n ≤ 8 for the cell
variant, whose states outgrow 128 MB beyond) and prints p, s, e and
t = s + (1−p)·e/p in nodes explored; for n=8, row variant, that is Brassard &
Bratley's table. The optimum is the least t, or the least expected checks with
--objective checks. It samples nothing, so it takes no --trials, --seed,
--max-checks or --objective time; nor does the row variant take --max-draws.

The JSON (--json) is the table the web board's /api/lab/lasvegas answers; the
CSV has the same keys.

Runs that exceed --max-checks are censored: they count with the work they did,
so a row with censored runs gives lower bounds and is left off the plot; a row
with too many is abandoned. Ctrl-C prints the rows done so far.

Before a sweep, its checks and time are estimated from a few short pilot runs
(a second or so: four per sampled m, each stopped at the checks of 20 ms of
CPU time, their speed the median in CPU time): a sweep estimated past 10 s is announced on
stderr; one whose optimistic bound (the pilots stopped early counted at what
they did, at the fastest speed) is past an hour is refused (exit 2) unless
--force is given.`, lab.MaxExactRowN),
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
	f.StringVar(&c.variant, "variant", lab.DefaultVariant.String(), "cell or row")
	f.IntVar(&c.trials, "trials", lab.DefaultTrials, "runs per m")
	f.Uint64Var(&c.seed, "seed", 0, "seed of the random source (default: random, printed)")
	f.IntVar(&c.maxDraws, "max-draws", 0, "draws per start, cell variant (0: n²)")
	f.Int64Var(&c.maxChecks, "max-checks", 0, "checks per run before its row is censored (0: "+group(lab.DefaultMaxChecks)+")")
	f.StringVar(&c.ms, "ms", "", "values of m: a list 0,5,10 or a range 30..45 or 0..50/5 (default 0..N)")
	f.StringVar(&c.objective, "objective", lab.DefaultObjective.String(), "what the optimum minimises, per solution: explored (nodes explored), checks or time")
	f.BoolVar(&c.exact, "exact", false, "exact expectations by enumerating every random choice (small n)")
	f.BoolVar(&c.force, "force", false, "run even when the estimate says the sweep takes more than an hour")
	c.of.register(cmd)
	return cmd
}

// conflicts refuses flags that the run would ignore: the sampling flags with --exact,
// which samples nothing, and --max-draws with the row variant, which draws no squares.
func (c *labLasVegasCmd) conflicts(fl *pflag.FlagSet) error {
	if err := exclusive(fl, "exact", []string{"trials", "seed", "max-checks"},
		"--exact enumerates every random choice instead of sampling runs"); err != nil {
		return err
	}
	if fl.Changed("exact") && c.exact && c.objective == "time" {
		return usagef("--exact and --objective time exclude each other: the exact table has no time (its objectives are explored and checks)")
	}
	if c.variant == "row" && fl.Changed("max-draws") {
		return usagef("--variant row and --max-draws exclude each other: --max-draws bounds the cell variant's draws, the row variant draws one column per row")
	}
	return nil
}

// parse checks the command line; every usage error comes from here, before any work,
// except that of a board too large to enumerate, which --exact finds as it goes.
func (c *labLasVegasCmd) parse(size string) (labLasVegasJob, error) {
	var j labLasVegasJob
	var err error
	var over bool
	if j.n, over, err = parseSizeMax(size, lab.MaxLasVegasN); err != nil {
		return j, err
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	if j.opt.Variant, err = lab.ParseVariant(c.variant); err != nil {
		return j, usageError{err}
	}
	if j.opt.Objective, err = lab.ParseObjective(c.objective); err != nil {
		return j, usageError{err}
	}
	if over {
		return j, usagef("the Las Vegas lab takes n ≤ %d, not %s", lab.MaxLasVegasN, size)
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
		if j.opt.Ms, err = parseList(c.ms); err != nil {
			return j, usagef("--ms: %v", err)
		}
		for _, m := range j.opt.Ms {
			if m < 0 || m > j.n {
				return j, usagef("--ms: m = %d is not in 0..%d", m, j.n)
			}
		}
	}
	j.opt.Exact, j.opt.MaxDraws = c.exact, c.maxDraws
	if c.exact {
		return j, nil
	}
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed with the table, so the sweep can be repeated
	}
	j.opt.Trials, j.opt.Seed, j.opt.MaxChecks = c.trials, c.seed, c.maxChecks
	return j, nil
}

// run sweeps m (or, with --exact, enumerates), prints the table and draws the figure.
// On Ctrl-C it prints the rows done so far and returns the interruption; a board too
// large to enumerate is a usage error.
func (c *labLasVegasCmd) run(j labLasVegasJob) error {
	e := c.e
	if !j.opt.Exact {
		if err := c.checkCost(j); err != nil {
			return err
		}
	}
	line := newLazyLine(e.stderr, isTerminal(e.stderr), e.progressDelay)
	j.opt.Progress = line.record
	t, runErr := lab.LasVegas(e.ctx, j.n, j.opt)
	line.finish()
	if errors.Is(runErr, lab.ErrTooLarge) {
		return usageError{runErr}
	}
	if runErr != nil && e.ctx.Err() == nil {
		return runErr
	}
	if err := c.of.print(e, t); err != nil {
		return err
	}
	if c.of.plot != "" && len(t.Rows) > 0 {
		if err := t.Plot(c.of.plot); err != nil {
			return err
		}
	}
	return runErr
}

// checkCost estimates a sweep from a few short pilot runs and warns about, or refuses, a
// long one (see checkCost in lab.go). Interrupted while estimating, the sweep stops at
// once and prints its (empty) table.
func (c *labLasVegasCmd) checkCost(j labLasVegasJob) error {
	e := c.e
	est, err := lab.EstimateLasVegas(e.ctx, j.n, j.opt)
	if err != nil {
		if e.ctx.Err() != nil {
			return nil
		}
		return err
	}
	rows := len(j.opt.Ms)
	if j.opt.Ms == nil {
		rows = j.n + 1
	}
	why := fmt.Sprintf("%s values of m, about %s checks at %s a second", group(int64(rows)), sci(est.Checks), sci(est.Rate))
	return checkCost(e, fmt.Sprintf("lab lasvegas %d", j.n), est, why, c.force)
}
