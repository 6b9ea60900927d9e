// Package lasvegas implements the Las Vegas algorithms of docs/algorithms.md §3.5: put
// m queens at random, then complete the board by deterministic first-fit
// backtracking; on any failure restart from an empty board; stop at the
// first complete solution. m = 0 is plain backtracking.
//
// Two variants are published:
//
//   - [Cell] (seed 001, the 2013 article): draw cells uniformly from the
//     whole board, rejecting cells whose row, column or a diagonal is taken,
//     until m queens stand or MaxDraws draws were spent (default n²); then
//     backtrack over the rows still empty, in increasing order.
//   - [Row] (Brassard & Bratley's QueensLV): for rows 0..m−1 in order pick
//     a column uniformly among the free ones; then backtrack over rows
//     m..n−1.
//
// The package has three engines, one file each:
//
//	lasvegas.go  [Solve]: one run, with counters summed over its attempts
//	sweep.go     [Sweep]: many runs per m, means, standard errors, optimum
//	exact.go     [Exact]: the expected cost computed exactly by enumerating
//	             every random choice with its probability (small n)
//	trace.go     the traced copy of one attempt, for Options.Tracer: every
//	             draw, random row, dead end, place, remove, conflict, in order,
//	             for a replay on the web board
//
// Randomness only comes from the source passed in ([Rand], which
// *math/rand/v2.Rand satisfies) or, for Sweep, from a seed in its options:
// the same seed gives the same counters.
//
// # Counters
//
// All counters of a run are summed over its attempts: attempts, draws (cell
// variant), random queens placed, backtracking nodes (one per call of the
// backtracking function, each attempt's root included), checks (every draw;
// n per random row, the failing one included; every square tried while
// backtracking) and Brassard & Bratley's "nodes explored": per attempt,
// 1 + queens placed at random + backtracking nodes other than the root.
// Plain first-fit backtracking explores 114 nodes for n=8.
package lasvegas
