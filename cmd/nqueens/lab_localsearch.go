package main

import (
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// labLocalSearchCmd is "nqueens lab localsearch": the flags, then parse, run (one
// local search per n) and render.
type labLocalSearchCmd struct {
	e                 *env
	from, to, scanMax string
	perDecade         int
	seed              uint64
	seedGiven         bool
	of                outputFlags
}

// labLocalSearchJob is a parsed command line of lab localsearch.
type labLocalSearchJob struct {
	opt lab.LocalSearchOptions
}

func newLabLocalSearchCmd(e *env) *cobra.Command {
	c := &labLocalSearchCmd{e: e}
	cmd := &cobra.Command{
		Use:   "localsearch",
		Short: "Sosic–Gu over a range of n: time, k, swaps, restarts (docs/algorithms.md §3.6)",
		Long: `Run Sosic–Gu's local search for n from --from to --to (a few values per
decade) and print per n: time, time per queen, k (queens left in conflict by
the initial search), final-search swaps and restarts. It also times the
initial search of the first run alone (initial_placed_checks and
initial_scan_checks count its checks, restarts or not) with the O(1) check on
the placed queens against the seed's O(j) partial_collision scan (up to
n = --scan-max, as the scan is quadratic), to show why the O(1) check matters. Time and k against n on
log-log axes with --plot.`,
		Example: "  nqueens lab localsearch --from 1e3 --to 1e7\n  nqueens lab localsearch --to 1e6 --plot ls.png",
		Args:    exactArgs(0, "no arguments (use --from and --to)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			c.seedGiven = cmd.Flags().Changed("seed")
			job, err := c.parse()
			if err != nil {
				return err
			}
			return c.run(job)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.from, "from", "1e3", "smallest n")
	f.StringVar(&c.to, "to", "1e6", "largest n")
	f.IntVar(&c.perDecade, "per-decade", 1, "values of n per decade (1: 10^k; 3: 1, 2, 5 × 10^k)")
	f.StringVar(&c.scanMax, "scan-max", "3e4", "largest n for the O(j) scan")
	f.Uint64Var(&c.seed, "seed", 0, "seed (default: random, printed)")
	c.of.register(cmd)
	return cmd
}

// parse checks the flags; every usage error comes from here, before any search.
func (c *labLocalSearchCmd) parse() (labLocalSearchJob, error) {
	var j labLocalSearchJob
	lo, err := flagSize("from", c.from)
	if err != nil {
		return j, err
	}
	hi, err := flagSize("to", c.to)
	if err != nil {
		return j, err
	}
	if j.opt.ScanMax, err = flagSize("scan-max", c.scanMax); err != nil {
		return j, err
	}
	if lo < 4 || hi < lo {
		return j, usagef("want 4 ≤ --from ≤ --to, got %d and %d", lo, hi)
	}
	if c.perDecade < 1 || c.perDecade > 10 {
		return j, usagef("--per-decade must be 1..10")
	}
	if err := (nqueens.LocalSearch).CheckSize(hi); err != nil {
		return j, usageError{err}
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed with the table, so the runs can be repeated
	}
	j.opt.From, j.opt.To, j.opt.PerDecade, j.opt.Seed = lo, hi, c.perDecade, c.seed
	return j, nil
}

// run measures each size, prints the table and draws the figure. It stops at the first
// error (Ctrl-C among them), prints the rows finished before it and returns the error.
func (c *labLocalSearchCmd) run(j labLocalSearchJob) error {
	line := newLazyLine(c.e.stderr, isTerminal(c.e.stderr), c.e.progressDelay)
	j.opt.Progress = line.record
	t, runErr := lab.LocalSearch(c.e.ctx, j.opt)
	line.finish()
	if err := c.of.print(c.e, t); err != nil {
		return err
	}
	if c.of.plot != "" && len(t.Rows) > 0 {
		if err := t.Plot(c.of.plot); err != nil {
			return err
		}
	}
	return runErr
}

// flagSize parses the board size given to --flag, naming the flag when it is wrong.
func flagSize(flag, value string) (int, error) {
	n, over, err := parseSizeMax(value, nqueens.MaxN)
	if over {
		err = tooLarge(value, nqueens.MaxN, "the local search")
	}
	if err != nil {
		return 0, usagef("--%s: %v", flag, err)
	}
	return n, nil
}
