package lab

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/lasvegas"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// The runs behind the tables, one at a time and traced, for the web board's replays: a
// replay's counters are those of the table's row for the same n, m and seed.

// ErrBudget says that a Las Vegas run reached its budget of checks.
var ErrBudget = lasvegas.ErrBudget

// noSolution returns an error wrapping nqueens.ErrNoSolution, "n = 3: no solution exists",
// for the boards that have none (n = 2 and 3), and nil for the others: the runs and
// tables that look for a solution refuse them, rather than search for ever.
func noSolution(n int) error {
	if n == 2 || n == 3 {
		return fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
	}
	return nil
}

// LasVegasTracer receives the steps of one Las Vegas run in the order they happen, rows
// and columns 0-based. The counters of LasVegasRunStats follow from them alone: an attempt
// counts 1 start and 1 explored; a drawn square 1 draw and 1 check, and if placed 1
// random queen and 1 explored; a random row n checks, 1 random queen and 1 explored; a
// dead end n checks (row variant); the start of the backtracking 1 node; a place 1 node,
// 1 check and 1 explored; a conflict 1 check. Each step names the line of the variant's
// program (LasVegasCode, 1-based) that reports it.
type LasVegasTracer interface {
	// Attempt: an attempt starts, on an empty board.
	Attempt(line int)
	// Draw: the cell variant drew (row, col); placed says whether a queen was put there
	// (else its row, column or a diagonal was taken).
	Draw(row, col int, placed bool, line int)
	// RandomRow: the row variant put a queen on a column drawn among the free ones of row.
	RandomRow(row, col, line int)
	// DeadEnd: the random phase failed, and so does the attempt: row has no free column
	// (row variant), or the draws ran out (cell variant, row −1).
	DeadEnd(row, line int)
	// Backtrack: the backtracking over the empty rows starts (its root node).
	Backtrack(line int)
	// Place, Remove, Conflict: the backtracking puts a queen on (row, col) and descends,
	// takes it off, or finds the square attacked.
	Place(row, col, line int)
	Remove(row, col, line int)
	Conflict(row, col, line int)
	// Fail: the backtracking found no completion; the attempt fails.
	Fail(line int)
	// Solution: the board is solved; the run ends.
	Solution(line int)
}

// LasVegasRunOptions configures LasVegasRun.
type LasVegasRunOptions struct {
	Variant Variant
	// M is the number of random queens, 0..n.
	M int
	// Seed selects the random stream: PCG(Seed, M), that of the first run of row M of a
	// sampled LasVegas table with the same Seed.
	Seed uint64
	// MaxDraws bounds the draws of one attempt of the cell variant; 0 means n².
	MaxDraws int
	// MaxChecks bounds the checks of the run (then ErrBudget); 0 means
	// DefaultMaxChecks, negative no bound.
	MaxChecks int64
}

// LasVegasRunStats are the counters of one run, summed over its starts (its attempts
// from the empty board: docs/algorithms.md §3.5).
type LasVegasRunStats struct {
	Starts   int64 `json:"starts"`
	Draws    int64 `json:"draws"`  // cell variant
	Random   int64 `json:"random"` // queens placed at random
	Nodes    int64 `json:"nodes"`  // backtracking nodes, each attempt's root included
	Checks   int64 `json:"checks"`
	Explored int64 `json:"explored"` // Brassard & Bratley's nodes explored
}

// LasVegasRun runs the Las Vegas algorithm once on the n×n board, reporting each step to
// tr (nil: none), and returns the solution (0-based columns) and its counters. It is the
// first run of row opt.M of a sampled LasVegas table with the same Seed, MaxDraws and
// MaxChecks: with Trials 1, that row's means are these counters. On ErrBudget or
// cancellation the solution is nil and the counters are those reached. For n = 2 and 3,
// which have no solution, it returns an error wrapping nqueens.ErrNoSolution at once.
func LasVegasRun(ctx context.Context, n int, opt LasVegasRunOptions, tr LasVegasTracer) ([]int, LasVegasRunStats, error) {
	if err := noSolution(n); err != nil {
		return nil, LasVegasRunStats{}, err
	}
	o := lasvegas.Options{Variant: lasvegas.Variant(opt.Variant), M: opt.M, MaxDraws: opt.MaxDraws, MaxChecks: opt.MaxChecks}
	switch {
	case o.MaxChecks == 0:
		o.MaxChecks = DefaultMaxChecks
	case o.MaxChecks < 0:
		o.MaxChecks = 0
	}
	if tr != nil {
		o.Tracer = tr
	}
	r, err := lasvegas.Solve(ctx, n, o, rand.New(rand.NewPCG(opt.Seed, uint64(opt.M))))
	st := r.Stats
	return r.Solution, LasVegasRunStats{Starts: st.Attempts, Draws: st.Draws, Random: st.Random, Nodes: st.Nodes,
		Checks: st.Checks, Explored: st.Explored}, err
}

// LocalSearchTracer receives the steps of one local search (docs/algorithms.md §3.6) in
// the order they happen; rows are 0-based and q is the placement, a permutation. Each step
// names the line of the search's program (LocalSearchCode, the same numbers with either
// check; 1-based) that reports it.
type LocalSearchTracer interface {
	// Run: a run starts (the first, or a restart): q is the identity, no queen placed.
	Run(line int)
	// Try: step 1 tried the queen of row m (column q[m]) in row j, the next row to fill.
	// Placed: it shares no diagonal with the placed queens (rows 0..j−1), so rows j and m
	// swapped their queens and j advanced; else nothing changed. Scan is what the O(j)
	// check of the original program costs there: the placed queens it compares, up to the
	// first on a diagonal of (j, q[m]), or all j. The solver's O(1) check costs 1.
	Try(j, m int, placed bool, scan, line int)
	// Shuffle: step 2 swapped the queens of rows i and m (m ≥ i); the queen of row i is
	// counted from now on, conflicts or not.
	Shuffle(i, m, line int)
	// Final: step 3 starts; every queen is counted.
	Final(line int)
	// Swap: step 3 tried to swap the queens of rows i and m; kept says both are then free
	// of conflicts (the swap was made), else nothing changed.
	Swap(i, m int, kept bool, line int)
	// Solved: no queen is in conflict; the search ends.
	Solved(line int)
}

// LocalSearchRunStats are the counters of one local search, as a LocalSearchTable row
// has them: Conflicts is k of the last run, the others are summed over the runs.
type LocalSearchRunStats struct {
	Attempts    int64 `json:"attempts"`
	Conflicts   int64 `json:"conflicts"`
	Swaps       int64 `json:"swaps"`
	FailedSwaps int64 `json:"failed_swaps"`
	Restarts    int64 `json:"restarts"`
}

// LocalSearchRun solves the n×n board with the local search of nqueens.Solve and the
// given seed, reporting each step to tr (nil: none), and returns the placement (0-based
// columns, to check with nqueens.Verify) and its counters: those of the LocalSearch
// table's row n for the same seed. For n = 2 and 3, which have no solution, it returns an
// error wrapping nqueens.ErrNoSolution at once.
func LocalSearchRun(ctx context.Context, n int, seed uint64, tr LocalSearchTracer) ([]int32, LocalSearchRunStats, error) {
	if err := noSolution(n); err != nil {
		return nil, LocalSearchRunStats{}, err
	}
	opt := localsearch.Options{Seed: seed}
	if tr != nil {
		opt.Tracer = tr
	}
	q, st, err := localsearch.Solve(ctx, n, opt)
	return q, LocalSearchRunStats{Attempts: st.Attempts, Conflicts: st.K, Swaps: st.FinalSwaps, FailedSwaps: st.FinalFailed,
		Restarts: st.Restarts}, err
}
