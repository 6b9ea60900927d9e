package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/lab"
)

// labBacktrackCmd is "nqueens lab backtrack": the flags, then parse, run (the searches)
// and render.
type labBacktrackCmd struct {
	e        *env
	searches string
	force    bool
	of       outputFlags
}

// labBacktrackJob is a parsed command line of lab backtrack.
type labBacktrackJob struct {
	n   int
	opt lab.BacktrackOptions
}

func newLabBacktrackCmd(e *env) *cobra.Command {
	c := &labBacktrackCmd{e: e}
	cmd := &cobra.Command{
		Use:   "backtrack N",
		Short: "The four teaching searches of docs/algorithms.md §3.1–3.4, with exact counters",
		Long: `Run the four teaching searches on an N×N board and print one table:
total (the solutions found), nodes (calls of the search function), checks (calls of the square
test), the search-specific counters (Place loop iterations, classic only;
skipped and dead nodes, cell only: "-" in the table and absent from the JSON
for the other searches), time, and each search's ratio to the row DFS.
--searches runs some of them only.

  classic    classic backtracking with an O(k) Place (§3.1)
  row        row-by-row DFS with O(1) column/diagonal arrays (§3.2)
  cell       cell-by-cell DFS (§3.3)
  cellprune  cell-by-cell DFS with the row pruning (§3.4)

The searches take time exponential in N (the cell DFS already needs minutes
at N = 13). Before running, the nodes and checks of each are estimated, the
larger of Knuth's random probes of its tree and the growth of its exact
counts on the smaller boards it runs whole in 40 ms, and its speed (in CPU
time) by running it a few moments on N: a run estimated past 10 s is
announced on stderr, one whose estimate even at the fastest speed measured
is past an hour is refused (exit 2) unless --force is given.`,
		Example: "  nqueens lab backtrack 10\n  nqueens lab backtrack 8 --searches classic,row --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(_ *cobra.Command, args []string) error {
			job, err := c.parse(args[0])
			if err != nil {
				return err
			}
			if err := c.checkCost(job); err != nil {
				return err
			}
			return c.run(job)
		},
	}
	cmd.Flags().StringVar(&c.searches, "searches", "classic,row,cell,cellprune", "comma-separated subset of classic, row, cell, cellprune")
	// --variants is the old name of --searches ("variant" is the Las Vegas hybrid's rule,
	// lab lasvegas --variant): hidden, it still works and says so on stderr.
	cmd.Flags().StringVar(&c.searches, "variants", "classic,row,cell,cellprune", "the old name of --searches")
	cmd.Flags().MarkDeprecated("variants", "use --searches")
	// The note goes to stderr: cobra prints it to the command's output, stdout, where it
	// would break --json and --csv.
	cmd.Flags().SetOutput(e.stderr)
	cmd.Flags().BoolVar(&c.force, "force", false, "run even when the estimate says it takes more than an hour")
	c.of.register(cmd)
	return cmd
}

// parse checks the command line; every usage error comes from here, before any search.
func (c *labBacktrackCmd) parse(size string) (labBacktrackJob, error) {
	var j labBacktrackJob
	var err error
	var over bool
	if j.n, over, err = parseSizeMax(size, lab.MaxSearchN); err != nil {
		return j, err
	}
	if over {
		return j, usagef("the teaching searches take n ≤ %d, not %s", lab.MaxSearchN, size)
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	for _, name := range strings.Split(c.searches, ",") {
		name = strings.TrimSpace(name)
		if _, ok := lab.LookupSearch(name); !ok {
			return j, usagef("unknown search %q (want classic, row, cell, cellprune)", name)
		}
		j.opt.Searches = append(j.opt.Searches, name)
	}
	return j, nil
}

// checkCost estimates the searches of j (and the row DFS the ratios need) and warns about
// or refuses a long run (see checkCost in lab.go).
func (c *labBacktrackCmd) checkCost(j labBacktrackJob) error {
	est, err := lab.EstimateBacktrack(c.e.ctx, j.n, j.opt)
	if err != nil && c.e.ctx.Err() != nil {
		return nil // interrupted: the run stops at once and prints its (empty) table
	}
	if err != nil {
		return err
	}
	why := fmt.Sprintf("%s: about %s nodes, %s checks at %s a second", est.Costliest, sci(est.Nodes), sci(est.Checks), sci(est.Rate))
	return checkCost(c.e, fmt.Sprintf("lab backtrack %d", j.n), est, why, c.force)
}

// run times the selected searches and prints their table, then draws the figure. On
// Ctrl-C it prints the rows of the searches that finished and returns the interruption.
func (c *labBacktrackCmd) run(j labBacktrackJob) error {
	e := c.e
	line := newLazyLine(e.stderr, isTerminal(e.stderr), e.progressDelay)
	j.opt.Progress = line.record
	t, runErr := lab.Backtrack(e.ctx, j.n, j.opt)
	line.finish()
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
