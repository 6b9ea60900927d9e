package lab

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nqueens/nqueens"

	"github.com/nqueens/nqueens/internal/classic"
	"github.com/nqueens/nqueens/internal/labplot"
)

// The four teaching searches of docs/algorithms.md §3.1–3.4.

// MaxSearchN is the largest board of the teaching searches.
const MaxSearchN = 64

// Search is one teaching search.
type Search struct {
	// Name is its short name: "classic", "row", "cell" or "cellprune".
	Name string
	// Title describes it in a line; Section is the section of docs/algorithms.md that
	// defines it ("3.1").
	Title, Section string
	run            classic.Func
	from           classic.FromFunc // nil: it does not start from a partial board
	code           Code
}

// Tracer receives a search's events in the order they happen, rows and columns 0-based:
// a queen put on a square (and the search descends), a queen taken off (it comes back), a
// square whose check failed, a solution, (§3.4 only) a node pruned because row, above
// its first square, is empty, and (§3.1 only) each comparison of Place's loop. Each names the line of the search's program (Search.Code,
// 1-based) that reports it. A nil Tracer costs the search nothing.
type Tracer interface {
	Place(row, col, line int)
	Remove(row, col, line int)
	Conflict(row, col, line int)
	Solution(line int)
	Prune(row, line int)
	// Compare is an iteration of Place's loop, classic only (§3.1): the queen of row, in
	// col, compared with the queen of row j < row, in colJ; attacks when they share a
	// column or a diagonal (Conflict follows). Its count is PlaceLoopIterations.
	Compare(row, col, j, colJ int, attacks bool, line int)
}

// Code returns the search's program, whose lines the Tracer's events name.
func (s Search) Code() Code { return s.code }

// Run runs the search on the n×n board to its end, reporting each event to tr (nil: no
// trace), and returns its exact counters (docs/algorithms.md §3): Total the board's
// solutions, Nodes the calls of the search function, root and leaves included, Checks
// the calls of the square test, and the counters of its own: PlaceLoopIterations (§3.1),
// SkippedNodes and DeadNodes (§3.3). Its Placement is nil: it counts the solutions, it
// does not keep one. On cancellation it returns ctx.Err() with the counters reached.
func (s Search) Run(ctx context.Context, n int, tr Tracer) (RunResult, error) {
	if s.run == nil {
		return RunResult{N: n}, fmt.Errorf("lab: unknown search %q", s.Name)
	}
	var ct classic.Tracer
	if tr != nil {
		ct = tr
	}
	st, err := s.run(ctx, n, ct)
	return runResult(st), err
}

// runResult is a teaching search's RunResult.
func runResult(st classic.Stats) RunResult {
	return RunResult{N: st.N, Total: st.Solutions, Nodes: st.Nodes, Checks: st.Checks,
		PlaceLoopIterations: st.LoopIterations, SkippedNodes: st.Skipped, DeadNodes: st.Dead}
}

// StartsFromPartial tells whether RunFrom runs the search: the row-by-row searches
// (classic, row) do; the cell searches, whose programs have no place for a fixed queen,
// do not.
func (s Search) StartsFromPartial() bool { return s.from != nil }

// RunFrom is Run from a partial board of n = len(fixed) rows, the n-Queens completion by
// backtracking: in a row with a fixed queen the search tries its column only, and checks
// it as any other square, so that fixed queens that attack each other (or leave a row no
// square) end every branch, and Total counts the completions of fixed (Run's total when
// no queen is fixed). A search that does not start from a partial board
// (StartsFromPartial) returns an error.
func (s Search) RunFrom(ctx context.Context, fixed nqueens.Partial, tr Tracer) (RunResult, error) {
	n := len(fixed)
	if s.from == nil {
		return RunResult{N: n}, fmt.Errorf("lab: the %s search does not start from a partial board (classic and row do)", s.Name)
	}
	cols := make([]int, n)
	for r, c := range fixed {
		cols[r] = int(c)
	}
	var ct classic.Tracer
	if tr != nil {
		ct = tr
	}
	st, err := s.from(ctx, n, cols, ct)
	return runResult(st), err
}

// Searches returns the four searches in the order of docs/algorithms.md.
func Searches() []Search {
	var out []Search
	for _, a := range classic.Algorithms() {
		out = append(out, Search{Name: a.Name, Title: a.Title, Section: a.Section, run: a.Run, from: a.From, code: codeOf(a.Code)})
	}
	return out
}

// LookupSearch returns the search with the given name.
func LookupSearch(name string) (Search, bool) {
	for _, s := range Searches() {
		if s.Name == name {
			return s, true
		}
	}
	return Search{}, false
}

// BacktrackOptions configures Backtrack.
type BacktrackOptions struct {
	// Searches names the searches to run, in that order; nil means all four.
	Searches []string
	// Progress, if set, is called before each search (nqueens.Progress, the hook of every
	// long run): Phase is the search's name, Done the searches finished, Total their
	// number (with the row DFS, run last for the ratios when it is not among them).
	Progress func(nqueens.Progress)
}

// BacktrackTable is the outcome of Backtrack: the table of docs/algorithms.md §3.1–3.4, as
// "nqueens lab backtrack --json" prints it and the web board's /api/lab/backtrack
// answers.
type BacktrackTable struct {
	N    int         `json:"n"`
	Rows []SearchRow `json:"rows"`
	// Complete is false when the run was interrupted: Rows holds the searches that
	// finished.
	Complete bool `json:"complete"`
}

// SearchRow is one search's line of the table.
//
// The search-specific counters are nil, and absent from the JSON, for the searches they
// do not apply to: the Place loop exists in §3.1 only, skipped and dead nodes are counted
// by the cell search of §3.3 only. Where a counter applies it is always there, 0 included
// (lab backtrack 1: the classic search's Place loop runs 0 times).
type SearchRow struct {
	Search              string  `json:"search"` // the search's name (Search.Name)
	Title               string  `json:"title"`
	Section             string  `json:"section"`
	Total               int64   `json:"total"` // solutions of the board
	Nodes               int64   `json:"nodes"`
	Checks              int64   `json:"checks"`
	PlaceLoopIterations *int64  `json:"place_loop_iterations,omitempty"` // §3.1 only
	SkippedNodes        *int64  `json:"skipped_nodes,omitempty"`         // §3.3 only
	DeadNodes           *int64  `json:"dead_nodes,omitempty"`            // §3.3 only
	Seconds             float64 `json:"seconds"`
	// NodesVsRow, ChecksVsRow and TimeVsRow are the row's nodes, checks and time over
	// those of the row DFS of §3.2 (run for them when it is not in the table); 0, and
	// absent from the JSON, when the run was interrupted before the row DFS ran.
	NodesVsRow  float64 `json:"nodes_vs_row,omitempty"`
	ChecksVsRow float64 `json:"checks_vs_row,omitempty"`
	TimeVsRow   float64 `json:"time_vs_row,omitempty"`
}

// searches resolves the names of opt.
func (opt BacktrackOptions) searches() ([]Search, error) {
	if opt.Searches == nil {
		return Searches(), nil
	}
	var out []Search
	for _, name := range opt.Searches {
		s, ok := LookupSearch(name)
		if !ok {
			return nil, fmt.Errorf("lab: unknown search %q (want classic, row, cell, cellprune)", name)
		}
		out = append(out, s)
	}
	return out, nil
}

// Backtrack runs the teaching searches on the n×n board, untraced, one after the other,
// and returns their counters, times and ratios to the row DFS. On cancellation it returns
// the rows of the searches that finished (Complete false) and ctx.Err().
func Backtrack(ctx context.Context, n int, opt BacktrackOptions) (BacktrackTable, error) {
	t := BacktrackTable{N: n, Rows: []SearchRow{}}
	list, err := opt.searches()
	if err != nil {
		return t, err
	}
	total := uint64(len(list))
	if !slices.ContainsFunc(list, func(s Search) bool { return s.Name == "row" }) {
		total++
	}
	for i, s := range list {
		report(opt.Progress, s.Name, uint64(i), total)
		r, err := measure(ctx, n, s)
		if err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, r)
	}
	var ref *SearchRow
	for i := range t.Rows {
		if t.Rows[i].Search == "row" {
			ref = &t.Rows[i]
		}
	}
	if ref == nil {
		row, _ := LookupSearch("row")
		report(opt.Progress, "row", total-1, total)
		r, err := measure(ctx, n, row)
		if err != nil {
			return t, err // the rows stand, without their ratios
		}
		ref = &r
	}
	for i := range t.Rows {
		r := &t.Rows[i]
		r.NodesVsRow = float64(r.Nodes) / float64(ref.Nodes)
		r.ChecksVsRow = float64(r.Checks) / float64(max(ref.Checks, 1))
		r.TimeVsRow = r.Seconds / max(ref.Seconds, 1e-9)
	}
	t.Complete = true
	return t, nil
}

// measure runs s on the n×n board, untraced, and returns its row, without ratios.
func measure(ctx context.Context, n int, s Search) (SearchRow, error) {
	start := time.Now()
	st, err := s.Run(ctx, n, nil)
	if err != nil {
		return SearchRow{}, err
	}
	r := SearchRow{Search: s.Name, Title: s.Title, Section: s.Section,
		Total: st.Total, Nodes: st.Nodes, Checks: st.Checks, Seconds: time.Since(start).Seconds()}
	switch s.Name {
	case "classic":
		r.PlaceLoopIterations = &st.PlaceLoopIterations
	case "cell":
		r.SkippedNodes, r.DeadNodes = &st.SkippedNodes, &st.DeadNodes
	}
	return r, nil
}

// Table lays the table out for printing: a line "n=N", then one row per search.
func (t BacktrackTable) Table() Table {
	out := Table{Head: []string{fmt.Sprintf("n=%d", t.N)}, Columns: []Column{
		{Key: "search", Head: "search"}, {Key: "total", Head: "total"}, {Key: "nodes", Head: "nodes"},
		{Key: "checks", Head: "checks"}, {Key: "place_loop_iterations", Head: "place loop"},
		{Key: "skipped_nodes", Head: "skipped"}, {Key: "dead_nodes", Head: "dead"}, {Key: "seconds", Head: "seconds"},
		{Key: "nodes_vs_row", Head: "nodes/row"}, {Key: "checks_vs_row", Head: "checks/row"}, {Key: "time_vs_row", Head: "time/row"},
	}}
	ratio := func(v float64) Entry {
		if !t.Complete {
			return naCell()
		}
		return floatCell(v, 2)
	}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, []Entry{textCell(r.Search), intCell(r.Total), intCell(r.Nodes), intCell(r.Checks),
			optInt(r.PlaceLoopIterations), optInt(r.SkippedNodes), optInt(r.DeadNodes), floatCell(r.Seconds, 4),
			ratio(r.NodesVsRow), ratio(r.ChecksVsRow), ratio(r.TimeVsRow)})
	}
	return out
}

// Plot draws the nodes and checks of each search as bars on a log scale, to a PNG or
// SVG file by path's extension.
func (t BacktrackTable) Plot(path string) error {
	b := labplot.Bars{Title: fmt.Sprintf("Teaching searches, n = %d", t.N), YLabel: "count (log scale)",
		Series: []labplot.BarSeries{{Label: "nodes"}, {Label: "checks"}}}
	for _, r := range t.Rows {
		b.Groups = append(b.Groups, r.Search)
		b.Series[0].Values = append(b.Series[0].Values, float64(r.Nodes))
		b.Series[1].Values = append(b.Series[1].Values, float64(r.Checks))
	}
	return b.Save(path)
}

// CostEstimate is what an experiment is expected to cost, estimated before it runs.
type CostEstimate struct {
	// Seconds is the estimated time of the whole experiment, and MinSeconds its
	// optimistic bound (at the fastest speed measured, and for a Las Vegas sweep with the
	// pilots that were stopped early counted at what they did): the command refuses a run
	// only when even that is past its limit, so that one slow moment of a busy machine
	// does not refuse a short run.
	Seconds, MinSeconds float64
	// Nodes and Checks estimate the work: for Backtrack, of its costliest search
	// (Costliest); for a Las Vegas sweep, the checks of all its runs (Nodes 0).
	Nodes, Checks float64
	// Rate is the work done a second in a short trial run.
	Rate float64
	// Costliest names the search that takes most of the time (Backtrack only).
	Costliest string
}

// EstimateBacktrack estimates the time of Backtrack(ctx, n, opt) before running it,
// calibrated on each search: its nodes and checks are the larger of Knuth's random probes
// of its tree (drawn from a fixed seed) and the growth of its exact counters on smaller
// boards, run whole (those of 40 ms at most), extrapolated; its speed is the median of
// those runs' and of a moment of the search on n (a search that ends within 40 ms is
// measured exactly). The row DFS, which the ratios need, is counted too. It takes a
// fraction of a second.
func EstimateBacktrack(ctx context.Context, n int, opt BacktrackOptions) (CostEstimate, error) {
	var e CostEstimate
	list, err := opt.searches()
	if err != nil {
		return e, err
	}
	hasRow := false
	for _, s := range list {
		hasRow = hasRow || s.Name == "row"
	}
	if !hasRow {
		row, _ := LookupSearch("row")
		list = append(list, row)
	}
	var worst float64
	for _, s := range list {
		est, err := classic.EstimateSearch(ctx, classic.Algorithm{Name: s.Name, Title: s.Title, Section: s.Section, Run: s.run}, n, 1)
		if err != nil {
			return e, err
		}
		e.Seconds += est.Seconds
		e.MinSeconds += est.MinSeconds
		if e.Costliest == "" || est.Seconds > worst {
			worst, e.Costliest, e.Nodes, e.Checks, e.Rate = est.Seconds, s.Name, est.Nodes, est.Checks, est.Rate
		}
	}
	return e, nil
}

// report calls the hook of an experiment, if set; the experiment runs on one goroutine,
// so that calls never overlap, and Done never decreases within a phase.
func report(hook func(nqueens.Progress), phase string, done, total uint64) {
	if hook != nil {
		hook(nqueens.Progress{Phase: phase, Done: done, Total: total})
	}
}
