// Package complete solves the n-Queens Completion problem (Gent, Jefferson & Nightingale
// 2017; docs/algorithms.md §4): given queens already fixed on some rows, find a full solution that
// keeps them, count all such solutions, or prove that none exists. The problem is
// NP-complete, so it needs real search.
//
// # Engines
//
//	prop.go    constraint propagation on bitsets with most-constrained-first branching:
//	           complete (finds, counts, proves that none exists), any n up to MaxN.
//	local.go   min-conflicts local search over permutations of the free columns, the
//	           fixed queens never moving: finds completions fast, but cannot prove
//	           that none exists.
//	localsearch.SolveFixed  (another package) Sosic–Gu with the fixed queens in place:
//	           O(n) time and memory per run, for large boards.
//	generate.go  random instances in the style of Gent et al.
//
// [Find] runs the first two as a portfolio: the propagation search with a node budget,
// then the local search with a swap budget, both budgets doubling from round to round,
// until one answers. The propagation search alone is complete, so a board without
// completion is always recognised in the end; the local search only shortens the
// satisfiable cases where the propagation search meets a heavy tail. From FixedMinN rows
// on, and when the propagation search does not fit the memory limit, SolveFixed runs
// first; when it gives up, the portfolio decides if the propagation search fits, and
// otherwise the answer is ErrUnknown.
//
// # Data layout of the propagation search
//
// Every free row r has a domain dom[r·w : (r+1)·w], a bitset of the columns still
// possible (w = ⌈n/64⌉ words), and its size sz[r]. Every free column c has a support
// count cnt[c], the number of free rows whose domain holds c. Placing a queen on (r, c)
// clears, in every other free row r', the at most three squares (r', c), (r', c ± |r'−r|)
// it attacks, and takes row r's whole domain out of the column counts. A row with an
// empty domain or a free column without support is a dead end; a row with one square, or
// a column with one supporting row, is forced and placed at once (unit propagation).
// Otherwise the search branches on the free row or column with the fewest options, the
// most constrained variable ("first fail"). Cleared squares go on a trail (r·n + c) and
// are restored on backtracking; the free rows and columns are sparse sets (an array and
// each element's position in it), restored by moving their length back.
//
// # Legend
//
//	n   board size        w    words per domain     dom  row domains
//	sz  domain sizes      cnt  column supports      q    column of each row, −1 if free
//	fr  free rows         fc   free columns         nr, nc  their lengths
package complete
