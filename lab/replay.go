package lab

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/lasvegas"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// The runs behind the tables, one at a time and traced, for the web board's replays: a
// replay's counters are those of the table's row for the same n, m and seed.

// RunResult is the outcome of one run of a search, the one result type of the runs behind
// the tables and the web board's replays: a teaching search (Search.Run), the Las Vegas
// hybrid (LasVegasRun), the local search (LocalSearchRun) or the explicit construction
// (ConstructRun). Its counters are named as the keys of the lab's tables
// (docs/vocabulary.md) and mean the same; each search has some of them, the others stay 0.
type RunResult struct {
	N int
	// Placement is the solution the run ended on, 0-based columns, checked with
	// nqueens.Verify: the Las Vegas hybrid's, the local search's, the construction's. It
	// is nil for a teaching search, which counts the solutions without keeping one, and
	// for a run that did not end (an error, ErrBudget or a cancellation).
	Placement nqueens.Placement
	// Total is the solutions found: a teaching search's, the board's (OEIS A000170); 1
	// for the other runs when they ended.
	Total int64
	// Nodes counts the calls of a teaching search's function (root and leaves included),
	// or the Las Vegas hybrid's backtracking nodes, each start's root included; Checks the
	// tests of a square (for the Las Vegas hybrid, every draw and n per random row too).
	Nodes, Checks int64
	// The teaching searches': PlaceLoopIterations counts the executions of the body of
	// Place's loop (§3.1 only); SkippedNodes the nodes entered while a row before the
	// current one is empty, DeadNodes the skipped nodes past the last square (§3.3 only).
	PlaceLoopIterations, SkippedNodes, DeadNodes int64
	// The Las Vegas hybrid's, summed over its starts (its attempts from the empty board):
	// Draws the drawn squares (cell variant), Random the queens placed at random, Explored
	// Brassard & Bratley's nodes explored.
	Starts, Draws, Random, Explored int64
	// The local search's, as a LocalSearchTable row has them: Conflicts is k of the last
	// run, Attempts, Swaps, FailedSwaps and Restarts are summed over the runs.
	Attempts, Conflicts, Swaps, FailedSwaps, Restarts int64
}

// found sets r's Placement to q, once it passed nqueens.Verify, and its Total to 1; what
// names the run for the internal error of a q that fails.
func (r *RunResult) found(q nqueens.Placement, what string) error {
	if err := nqueens.Verify(q); err != nil {
		return fmt.Errorf("internal error: %s of %d: %w", what, r.N, err)
	}
	r.Placement, r.Total = q, 1
	return nil
}

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
// and columns 0-based. The counters of its RunResult follow from them alone: a start
// counts 1 start and 1 explored; a drawn square 1 draw and 1 check, and if placed 1
// random queen and 1 explored; a random row n checks, 1 random queen and 1 explored; a
// dead end n checks (row variant); the start of the backtracking 1 node; a place 1 node,
// 1 check and 1 explored; a conflict 1 check. Each step names the line of the variant's
// program (LasVegasCode, 1-based) that reports it.
type LasVegasTracer interface {
	// Start: a start from the empty board begins.
	Start(line int)
	// Draw: the cell variant drew (row, col); placed says whether a queen was put there
	// (else its row, column or a diagonal was taken).
	Draw(row, col int, placed bool, line int)
	// RandomRow: the row variant put a queen on a column drawn among the free ones of row.
	RandomRow(row, col, line int)
	// DeadEnd: the random phase failed, and so does the start: row has no free column
	// (row variant), or the draws ran out (cell variant, row −1).
	DeadEnd(row, line int)
	// Backtrack: the backtracking over the empty rows starts (its root node).
	Backtrack(line int)
	// Place, Remove, Conflict: the backtracking puts a queen on (row, col) and descends,
	// takes it off, or finds the square attacked.
	Place(row, col, line int)
	Remove(row, col, line int)
	Conflict(row, col, line int)
	// Fail: the backtracking found no completion; the start fails.
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
	// MaxDraws bounds the draws of one start of the cell variant; 0 means n².
	MaxDraws int
	// MaxChecks bounds the checks of the run (then ErrBudget); 0 means
	// DefaultMaxChecks, negative no bound.
	MaxChecks int64
}

// LasVegasRun runs the Las Vegas algorithm once on the n×n board, reporting each step to
// tr (nil: none), and returns the solution (Placement) and the counters of the run: Starts,
// Draws, Random, Nodes, Checks and Explored, summed over its starts. It is the first run
// of row opt.M of a sampled LasVegas table with the same Seed, MaxDraws and MaxChecks: with
// Trials 1, that row's means are these counters. On ErrBudget or cancellation the
// Placement is nil and the counters are those reached. For n = 2 and 3, which have no
// solution, it returns an error wrapping nqueens.ErrNoSolution at once.
func LasVegasRun(ctx context.Context, n int, opt LasVegasRunOptions, tr LasVegasTracer) (RunResult, error) {
	res := RunResult{N: n}
	if err := noSolution(n); err != nil {
		return res, err
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
	res.Starts, res.Draws, res.Random, res.Nodes, res.Checks, res.Explored = st.Attempts, st.Draws, st.Random, st.Nodes, st.Checks, st.Explored
	if err != nil {
		return res, err
	}
	q := make(nqueens.Placement, len(r.Solution))
	for i, c := range r.Solution {
		q[i] = int32(c)
	}
	return res, res.found(q, "the Las Vegas run")
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

// LocalSearchRun solves the n×n board with the local search of nqueens.Solve and the
// given seed, reporting each step to tr (nil: none), and returns the placement it found
// (Placement) and its counters, Attempts, Conflicts, Swaps, FailedSwaps and Restarts:
// those of the LocalSearch table's row n for the same seed. For n = 2 and 3, which have
// no solution, it returns an error wrapping nqueens.ErrNoSolution at once.
func LocalSearchRun(ctx context.Context, n int, seed uint64, tr LocalSearchTracer) (RunResult, error) {
	res := RunResult{N: n}
	if err := noSolution(n); err != nil {
		return res, err
	}
	opt := localsearch.Options{Seed: seed}
	if tr != nil {
		opt.Tracer = tr
	}
	q, st, err := localsearch.Solve(ctx, n, opt)
	res.Attempts, res.Conflicts, res.Swaps, res.FailedSwaps, res.Restarts = st.Attempts, st.K, st.FinalSwaps, st.FinalFailed, st.Restarts
	if err != nil {
		return res, err
	}
	return res, res.found(q, "the local search")
}

// LocalSearchRunFrom is LocalSearchRun from a partial board of n = len(fixed) rows: the
// local search of nqueens.FindCompletion, which keeps the fixed queens where they are and
// fills the free rows with the free columns (docs/algorithms.md §4), reporting each step
// to tr with the board's rows (a fixed row is never in a step). Its Placement keeps every
// fixed queen. Fixed queens that attack each other are an error wrapping
// nqueens.ErrNoSolution; runs that all fail, ErrNoCompletionFound (a completion may exist).
func LocalSearchRunFrom(ctx context.Context, fixed nqueens.Partial, seed uint64, tr LocalSearchTracer) (RunResult, error) {
	n := len(fixed)
	res := RunResult{N: n}
	if err := noSolution(n); err != nil {
		return res, err
	}
	// Small boards, the replay's, often need many runs: a few fixed queens of n = 8 leave
	// few completions, which 16 runs (FindCompletion's) miss half the time.
	opt := localsearch.Options{Seed: seed, FixedRuns: LocalSearchRunsFrom}
	if tr != nil {
		opt.Tracer = tr
	}
	q, st, err := localsearch.SolveFixed(ctx, fixed, opt)
	res.Attempts, res.Conflicts, res.Swaps, res.FailedSwaps, res.Restarts = st.Attempts, st.K, st.FinalSwaps, st.FinalFailed, st.Restarts
	switch {
	case errors.Is(err, localsearch.ErrGaveUp):
		return res, fmt.Errorf("%w (%d runs)", ErrNoCompletionFound, st.Restarts+1)
	case errors.Is(err, nqueens.ErrNoSolution):
		return res, fmt.Errorf("the fixed queens attack each other: %w", nqueens.ErrNoSolution)
	case err != nil:
		return res, err
	}
	for r, c := range fixed {
		if c >= 0 && q[r] != c {
			return res, fmt.Errorf("internal error: the local search moved the fixed queen of row %d", r+1)
		}
	}
	return res, res.found(q, "the local search")
}

// LocalSearchRunsFrom is the most runs LocalSearchRunFrom makes (each O(n)).
const LocalSearchRunsFrom = 1000

// ErrNoCompletionFound says that LocalSearchRunFrom's runs all failed: the local search
// gives up, and says nothing of whether a completion exists.
var ErrNoCompletionFound = errors.New("the local search found no completion of the fixed queens in its runs")
