package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/lab"
)

// backtrackRow is a search's row and, once measured, its ratios to the row DFS.
type backtrackRow struct {
	lab.SearchRow
	NodesVsRow  float64 `json:"nodes_vs_row,omitempty"`
	ChecksVsRow float64 `json:"checks_vs_row,omitempty"`
	TimeVsRow   float64 `json:"time_vs_row,omitempty"`
}

// labBacktrackCmd is "nqueens lab backtrack": the flags, then parse, run (the searches)
// and render.
type labBacktrackCmd struct {
	e        *env
	variants string
	force    bool
	of       outputFlags
}

// labBacktrackJob is a parsed command line of lab backtrack.
type labBacktrackJob struct {
	n    int
	algs []lab.Search
}

func newLabBacktrackCmd(e *env) *cobra.Command {
	c := &labBacktrackCmd{e: e}
	cmd := &cobra.Command{
		Use:   "backtrack N",
		Short: "The four teaching searches of docs/algorithms.md §3.1–3.4, with exact counters",
		Long: `Run the four teaching searches on an N×N board and print one table:
solutions, nodes (calls of the search function), checks (calls of the square
test), the variant-specific counters (Place loop iterations, classic only;
skipped and dead nodes, cell only: "-" in the table and absent from the JSON
for the other variants), time, and each variant's ratio to the row DFS.

  classic    classic backtracking with an O(k) Place (§3.1)
  row        row-by-row DFS with O(1) column/diagonal arrays (§3.2)
  cell       cell-by-cell DFS (§3.3)
  cellprune  cell-by-cell DFS with the row pruning (§3.4)

The searches take time exponential in N (the cell DFS already needs minutes
at N = 13). Before running, the nodes and checks of each are estimated by
Knuth's random probes of its tree, and its speed by running it a few
milliseconds: a run estimated past 10 s is announced on stderr, one past an
hour is refused (exit 2) unless --force is given.`,
		Example: "  nqueens lab backtrack 10\n  nqueens lab backtrack 8 --variants classic,row --json",
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
	cmd.Flags().StringVar(&c.variants, "variants", "classic,row,cell,cellprune", "comma-separated subset of classic, row, cell, cellprune")
	cmd.Flags().BoolVar(&c.force, "force", false, "run even when the estimate says it takes more than an hour")
	c.of.register(cmd)
	return cmd
}

// parse checks the command line; every usage error comes from here, before any search.
func (c *labBacktrackCmd) parse(size string) (labBacktrackJob, error) {
	var j labBacktrackJob
	var err error
	if j.n, err = parseSize(size); err != nil {
		return j, err
	}
	if j.n > lab.MaxSearchN {
		return j, usagef("the teaching searches take n ≤ %d, not %d", lab.MaxSearchN, j.n)
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	for _, name := range strings.Split(c.variants, ",") {
		a, ok := lab.LookupSearch(strings.TrimSpace(name))
		if !ok {
			return j, usagef("unknown variant %q (want classic, row, cell, cellprune)", name)
		}
		j.algs = append(j.algs, a)
	}
	return j, nil
}

// checkCost estimates the searches of j (and the row DFS the ratios need) and warns about
// or refuses a long run (see checkCost in lab.go).
func (c *labBacktrackCmd) checkCost(j labBacktrackJob) error {
	algs := j.algs
	hasRow := false
	for _, a := range algs {
		hasRow = hasRow || a.Name == "row"
	}
	if !hasRow {
		row, _ := lab.LookupSearch("row")
		algs = append(algs[:len(algs):len(algs)], row)
	}
	var total float64
	var worst lab.SearchEstimate
	worstName := ""
	for _, a := range algs {
		est, err := lab.EstimateSearch(c.e.ctx, j.n, a, 1)
		if err != nil && c.e.ctx.Err() != nil {
			return nil // interrupted: the run stops at once and prints its (empty) table
		}
		if err != nil {
			return err
		}
		total += est.Seconds
		if worstName == "" || est.Seconds > worst.Seconds {
			worst, worstName = est, a.Name
		}
	}
	why := fmt.Sprintf("%s: about %s nodes, %s checks at %s a second", worstName, sci(worst.Nodes), sci(worst.Checks), sci(worst.Rate))
	return checkCost(c.e, fmt.Sprintf("lab backtrack %d", j.n), total, why, c.force)
}

// run times the selected searches and prints their table, then draws the figure. On
// Ctrl-C it prints the rows of the searches that finished and returns the interruption.
func (c *labBacktrackCmd) run(j labBacktrackJob) error {
	rows, runErr := c.measure(j)
	if runErr != nil && !errors.Is(runErr, c.e.ctx.Err()) {
		return runErr
	}
	complete := runErr == nil
	if err := c.addRatios(j.n, rows, complete); err != nil {
		// Ctrl-C during the reference search: the rows stand, without their ratios.
		runErr, complete = err, false
	}
	if err := c.render(j.n, rows, complete); err != nil {
		return err
	}
	if c.of.plot != "" && len(rows) > 0 {
		if err := plotBacktrack(c.of.plot, j.n, rows); err != nil {
			return err
		}
	}
	return runErr
}

// measure runs the searches one after the other; it stops at the first error and
// returns the rows of the searches finished before it.
func (c *labBacktrackCmd) measure(j labBacktrackJob) ([]backtrackRow, error) {
	e := c.e
	line := newLazyLine(e.stderr, isTerminal(e.stderr))
	defer line.finish()
	rows := make([]backtrackRow, 0, len(j.algs))
	for i, a := range j.algs {
		line.update(a.Name, float64(i)/float64(len(j.algs)))
		r, err := lab.Measure(e.ctx, j.n, a)
		if err != nil {
			return rows, err
		}
		rows = append(rows, backtrackRow{SearchRow: r})
	}
	return rows, nil
}

// addRatios sets each row's ratios to the row DFS. When the row DFS was not selected it
// is run here as the reference, but only after a complete measurement; without a
// reference (an interrupted run) the ratios stay zero, and an interruption of the
// reference search is returned.
func (c *labBacktrackCmd) addRatios(n int, rows []backtrackRow, complete bool) error {
	var ref *lab.SearchRow
	for i := range rows {
		if rows[i].Variant == "row" {
			ref = &rows[i].SearchRow
		}
	}
	if ref == nil && complete {
		rowDFS, _ := lab.LookupSearch("row")
		r, err := lab.Measure(c.e.ctx, n, rowDFS)
		if err != nil {
			return err
		}
		ref = &r
	}
	if ref == nil {
		return nil
	}
	for i := range rows {
		rows[i].NodesVsRow = float64(rows[i].Nodes) / float64(ref.Nodes)
		rows[i].ChecksVsRow = float64(rows[i].Checks) / float64(max(ref.Checks, 1))
		rows[i].TimeVsRow = rows[i].Seconds / max(ref.Seconds, 1e-9)
	}
	return nil
}

// render prints the table: a line "n=N" and aligned columns, or CSV, or one JSON object
// whose "complete" is false when the searches were interrupted.
func (c *labBacktrackCmd) render(n int, rows []backtrackRow, complete bool) error {
	t := table{header: []string{"variant", "solutions", "nodes", "checks", "place loop", "skipped", "dead", "seconds", "nodes/row", "checks/row", "time/row"},
		json: map[string]any{"n": n, "rows": rows, "complete": complete}}
	for _, r := range rows {
		t.rows = append(t.rows, []string{r.Variant, group(r.Solutions), group(r.Nodes), group(r.Checks),
			groupOrNA(r.LoopIterations), groupOrNA(r.Skipped), groupOrNA(r.Dead), fmt.Sprintf("%.4f", r.Seconds),
			fmt.Sprintf("%.2f", r.NodesVsRow), fmt.Sprintf("%.2f", r.ChecksVsRow), fmt.Sprintf("%.2f", r.TimeVsRow)})
	}
	if !c.of.json && !c.of.csv {
		if _, err := fmt.Fprintf(c.e.stdout, "n=%d\n", n); err != nil {
			return err
		}
	}
	return c.of.print(c.e.stdout, t)
}

// groupOrNA is group(*v), or "-" for a counter that the variant does not have (nil);
// a counter that is there and 0 prints 0.
func groupOrNA(v *int64) string {
	if v == nil {
		return "-"
	}
	return group(*v)
}
