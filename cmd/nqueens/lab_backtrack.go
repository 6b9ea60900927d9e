package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/lab"
)

type backtrackRow struct {
	Variant        string  `json:"variant"`
	Title          string  `json:"title"`
	Section        string  `json:"section"`
	Solutions      int64   `json:"solutions"`
	Nodes          int64   `json:"nodes"`
	Checks         int64   `json:"checks"`
	LoopIterations int64   `json:"place_loop_iterations,omitempty"`
	Skipped        int64   `json:"skipped,omitempty"`
	Dead           int64   `json:"dead,omitempty"`
	Seconds        float64 `json:"seconds"`
	NodesVsRow     float64 `json:"nodes_vs_row,omitempty"`
	ChecksVsRow    float64 `json:"checks_vs_row,omitempty"`
	TimeVsRow      float64 `json:"time_vs_row,omitempty"`
}

func newLabBacktrackCmd(e *env) *cobra.Command {
	var variants string
	var of outputFlags
	cmd := &cobra.Command{
		Use:   "backtrack N",
		Short: "The four teaching searches of docs/algorithms.md §3.1–3.4, with exact counters",
		Long: `Run the four teaching searches on an N×N board and print one table:
solutions, nodes (calls of the search function), checks (calls of the square
test), the variant-specific counters (Place loop iterations; skipped and dead
nodes), time, and each variant's ratio to the row DFS.

  classic    classic backtracking with an O(k) Place (§3.1)
  row        row-by-row DFS with O(1) column/diagonal arrays (§3.2)
  cell       cell-by-cell DFS (§3.3)
  cellprune  cell-by-cell DFS with the row pruning (§3.4)`,
		Example: "  nqueens lab backtrack 10\n  nqueens lab backtrack 8 --variants classic,row --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			if n > lab.MaxSearchN {
				return usagef("the teaching searches take n ≤ %d, not %d", lab.MaxSearchN, n)
			}
			if err := of.check(); err != nil {
				return err
			}
			var algs []lab.Search
			for _, name := range strings.Split(variants, ",") {
				a, ok := lab.LookupSearch(strings.TrimSpace(name))
				if !ok {
					return usagef("unknown variant %q (want classic, row, cell, cellprune)", name)
				}
				algs = append(algs, a)
			}
			line := newLazyLine(e.stderr, isTerminal(e.stderr))
			rows := make([]backtrackRow, 0, len(algs))
			var runErr error
			for i, a := range algs {
				line.update(a.Name, float64(i)/float64(len(algs)))
				start := time.Now()
				st, err := a.Run(e.ctx, n, nil)
				if err != nil {
					runErr = err
					break
				}
				rows = append(rows, backtrackRow{Variant: a.Name, Title: a.Title, Section: a.Section,
					Solutions: st.Solutions, Nodes: st.Nodes, Checks: st.Checks, LoopIterations: st.LoopIterations,
					Skipped: st.Skipped, Dead: st.Dead, Seconds: time.Since(start).Seconds()})
			}
			line.finish()
			if runErr != nil && !errors.Is(runErr, e.ctx.Err()) {
				return runErr
			}
			// The reference of the ratios: the row DFS, run now if it was not selected.
			var ref *backtrackRow
			for i := range rows {
				if rows[i].Variant == "row" {
					ref = &rows[i]
				}
			}
			if ref == nil && runErr == nil {
				start := time.Now()
				st, err := lab.RowDFS(e.ctx, n, nil)
				if err == nil {
					ref = &backtrackRow{Nodes: st.Nodes, Checks: st.Checks, Seconds: time.Since(start).Seconds()}
				}
			}
			if ref != nil {
				for i := range rows {
					rows[i].NodesVsRow = float64(rows[i].Nodes) / float64(ref.Nodes)
					rows[i].ChecksVsRow = float64(rows[i].Checks) / float64(max(ref.Checks, 1))
					rows[i].TimeVsRow = rows[i].Seconds / max(ref.Seconds, 1e-9)
				}
			}
			t := table{header: []string{"variant", "solutions", "nodes", "checks", "place loop", "skipped", "dead", "seconds", "nodes/row", "checks/row", "time/row"},
				json: map[string]any{"n": n, "rows": rows, "complete": runErr == nil}}
			dash := func(v int64) string {
				if v == 0 {
					return "-"
				}
				return group(v)
			}
			for _, r := range rows {
				t.rows = append(t.rows, []string{r.Variant, group(r.Solutions), group(r.Nodes), group(r.Checks),
					dash(r.LoopIterations), dash(r.Skipped), dash(r.Dead), fmt.Sprintf("%.4f", r.Seconds),
					fmt.Sprintf("%.2f", r.NodesVsRow), fmt.Sprintf("%.2f", r.ChecksVsRow), fmt.Sprintf("%.2f", r.TimeVsRow)})
			}
			if !of.json && !of.csv {
				fmt.Fprintf(e.stdout, "n=%d\n", n)
			}
			if err := of.print(e.stdout, t); err != nil {
				return err
			}
			if of.plot != "" && len(rows) > 0 {
				if err := plotBacktrack(of.plot, n, rows); err != nil {
					return err
				}
			}
			return runErr
		},
	}
	cmd.Flags().StringVar(&variants, "variants", "classic,row,cell,cellprune", "comma-separated subset of classic, row, cell, cellprune")
	of.register(cmd)
	return cmd
}
