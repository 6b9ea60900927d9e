// Package lab is the teaching side of nqueens: the classic algorithms instrumented with
// exact counters, reproducing the published figures (docs/algorithms.md §3), and the
// figures that show them. It is what "nqueens lab" and the web board run.
//
//   - Backtracking: the four teaching searches of §3.1–3.4 (Searches), each a SearchFunc
//     reporting SearchStats (nodes, checks, Place loop iterations, skipped and dead
//     nodes), with an optional Tracer that receives every place, remove, conflict and
//     solution in search order, for an animation.
//   - Las Vegas (§3.5): random queens, then backtracking; Sweep measures the cost
//     against the number m of random queens (the U-shaped curve), Exact and ExactTable
//     compute the expectations exactly for small boards (Brassard & Bratley's table).
//   - Sosic–Gu (§3.6): InitialSearch runs the first phase of the local search with the
//     O(j) collision scan of the original program, the solver's O(1) check, or the
//     tempting O(1) check on all queens that never places a queen.
//   - Figures (PNG or SVG): CostCurve, Bars and LogLog.
//
// The types are those of the engines inside nqueens, under the names used here.
package lab

import (
	"context"
	"time"

	"github.com/nqueens/nqueens/internal/classic"
	"github.com/nqueens/nqueens/internal/labplot"
	"github.com/nqueens/nqueens/internal/lasvegas"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// The four teaching searches of §3.1–3.4.
type (
	// Search is one teaching search: its name ("classic", "row", "cell", "cellprune"),
	// the section that defines it, and its function.
	Search = classic.Algorithm
	// SearchFunc runs a search on the n×n board, reporting to tr (nil: no trace).
	SearchFunc = classic.Func
	// SearchStats are a search's exact counters.
	SearchStats = classic.Stats
	// Tracer receives a search's events in the order they happen.
	Tracer = classic.Tracer
)

// MaxSearchN is the largest board of the teaching searches.
const MaxSearchN = classic.MaxN

// Searches returns the four searches in the order of docs/algorithms.md.
func Searches() []Search { return classic.Algorithms() }

// LookupSearch returns the search with the given name.
func LookupSearch(name string) (Search, bool) { return classic.Lookup(name) }

// SearchRow is one search's line of the table of §3.1–3.4, in the JSON names that
// "nqueens lab backtrack --json" and the web board's /api/lab/backtrack share.
//
// The variant-specific counters are nil, and absent from the JSON, for the searches
// they do not apply to: the Place loop exists in §3.1 only, skipped and dead nodes are
// counted by the cell search of §3.3 only. Where a counter applies it is always there,
// 0 included (lab backtrack 1: the classic search's Place loop runs 0 times).
type SearchRow struct {
	Variant        string  `json:"variant"` // the search's name
	Title          string  `json:"title"`
	Section        string  `json:"section"`
	Solutions      int64   `json:"solutions"`
	Nodes          int64   `json:"nodes"`
	Checks         int64   `json:"checks"`
	LoopIterations *int64  `json:"place_loop_iterations,omitempty"` // §3.1 only
	Skipped        *int64  `json:"skipped,omitempty"`               // §3.3 only
	Dead           *int64  `json:"dead,omitempty"`                  // §3.3 only
	Seconds        float64 `json:"seconds"`
}

// Measure runs s on the n×n board, untraced, and returns its counters and time.
func Measure(ctx context.Context, n int, s Search) (SearchRow, error) {
	start := time.Now()
	st, err := s.Run(ctx, n, nil)
	if err != nil {
		return SearchRow{}, err
	}
	return searchRow(s, st, time.Since(start)), nil
}

// searchRow is the row of search s with counters st and time took: the counters
// that s does not have are left nil.
func searchRow(s Search, st SearchStats, took time.Duration) SearchRow {
	r := SearchRow{Variant: s.Name, Title: s.Title, Section: s.Section,
		Solutions: st.Solutions, Nodes: st.Nodes, Checks: st.Checks, Seconds: took.Seconds()}
	switch s.Name {
	case "classic":
		r.LoopIterations = &st.LoopIterations
	case "cell":
		r.Skipped, r.Dead = &st.Skipped, &st.Dead
	}
	return r
}

// SearchEstimate is the estimated size and time of a teaching search on one board.
type SearchEstimate = classic.Estimate

// EstimateSearch estimates the counters and the time of s on the n×n board before running
// it: Knuth's random probes of its tree (drawn from seed) and a trial run of a few
// milliseconds for its speed; a search that ends within the trial is measured exactly.
func EstimateSearch(ctx context.Context, n int, s Search, seed uint64) (SearchEstimate, error) {
	return classic.EstimateSearch(ctx, s, n, seed)
}

// RowDFS is the row-by-row search of §3.2 (the reference of the others' ratios).
func RowDFS(ctx context.Context, n int, tr Tracer) (SearchStats, error) {
	return classic.RowDFS(ctx, n, tr)
}

// The Las Vegas hybrid of §3.5.
type (
	// Variant is how the random queens are placed: Cell or Row.
	Variant = lasvegas.Variant
	// Objective is the per-run mean that defines the optimum m of a sweep.
	Objective = lasvegas.Objective
	// LasVegasOptions configures one run, and Exact.
	LasVegasOptions = lasvegas.Options
	// SweepOptions configures Sweep; SweepResult and SweepRow are its outcome.
	SweepOptions = lasvegas.SweepOptions
	SweepResult  = lasvegas.SweepResult
	SweepRow     = lasvegas.SweepRow
	// SweepProgress is what Sweep reports while it runs.
	SweepProgress = lasvegas.Progress
	// Estimate is a mean with its standard error.
	Estimate = lasvegas.Estimate
	// ExactResult holds the exact expectations of one m.
	ExactResult = lasvegas.ExactResult
)

// The variants, the objectives and the defaults of a sweep.
const (
	Cell             = lasvegas.Cell
	Row              = lasvegas.Row
	ByChecks         = lasvegas.ByChecks
	ByExplored       = lasvegas.ByExplored
	ByTime           = lasvegas.ByTime
	DefaultTrials    = lasvegas.DefaultTrials
	DefaultMaxChecks = lasvegas.DefaultMaxChecks
	MaxLasVegasN     = lasvegas.MaxN
	MaxExactRowN     = lasvegas.MaxExactRowN // the largest board of Exact for the row variant
)

// ErrTooLarge says that an exact computation would enumerate too many random choices.
var ErrTooLarge = lasvegas.ErrTooLarge

// Sweep runs the Las Vegas algorithm opt.Trials times for each m of opt.Ms and
// summarises each m; the cost against m is U-shaped.
func Sweep(ctx context.Context, n int, opt SweepOptions) (SweepResult, error) {
	return lasvegas.Sweep(ctx, n, opt)
}

// SweepEstimate is the estimated cost of a Sweep.
type SweepEstimate = lasvegas.SweepEstimate

// EstimateSweep estimates the checks and the time of Sweep(ctx, n, opt) from a few short
// pilot runs (a second at most).
func EstimateSweep(ctx context.Context, n int, opt SweepOptions) (SweepEstimate, error) {
	return lasvegas.EstimateSweep(ctx, n, opt)
}

// Exact computes the expectations of one m exactly, by enumerating every random choice
// with its probability (small boards only: ErrTooLarge otherwise).
func Exact(ctx context.Context, n int, opt LasVegasOptions) (ExactResult, error) {
	return lasvegas.Exact(ctx, n, opt)
}

// The first phase of Sosic–Gu's local search (§3.6), with each collision check.
type (
	// Check selects the collision check of InitialSearch: CheckScan, CheckPlaced or
	// CheckAllQueens.
	Check = localsearch.Check
	// InitialSearchResult is the outcome of InitialSearch.
	InitialSearchResult = localsearch.LabResult
)

// The collision checks.
const (
	CheckScan      = localsearch.CheckScan      // O(j) scan of the placed queens (the original program)
	CheckPlaced    = localsearch.CheckPlaced    // O(1) on counters of the placed queens (the solver)
	CheckAllQueens = localsearch.CheckAllQueens // O(1) on counters of all queens: wrong, places nothing
)

// LocalSearchStats are the counters of a whole local search: attempts, the k queens
// left by the initial search, final-search swaps and failures, retries and restarts.
type LocalSearchStats = localsearch.Stats

// LocalSearch solves the n×n board with the local search of nqueens.Solve and returns the
// placement (0-based columns, not verified: check it with nqueens.Verify) and all of its
// counters.
func LocalSearch(ctx context.Context, n int, seed uint64) ([]int32, LocalSearchStats, error) {
	return localsearch.Solve(ctx, n, localsearch.Options{Seed: seed})
}

// InitialSearch runs the initial search of the local search on the n×n board with the
// given check, for at most maxAttempts attempts (0: the solver's budget).
func InitialSearch(ctx context.Context, n int, seed uint64, check Check, maxAttempts int64) (InitialSearchResult, error) {
	return localsearch.LabInitialSearch(ctx, n, seed, check, maxAttempts)
}

// The figures, drawn with gonum/plot; each has a Save(path) method writing PNG or SVG by
// the file's extension.
type (
	Size      = labplot.Size
	Series    = labplot.Series
	Curve     = labplot.Curve
	Panel     = labplot.Panel
	CostCurve = labplot.CostCurve
	Bars      = labplot.Bars
	BarSeries = labplot.BarSeries
	LogLog    = labplot.LogLog
)
