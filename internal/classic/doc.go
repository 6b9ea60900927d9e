// Package classic implements the four teaching searches of docs/algorithms.md §3.1–3.4
// with exact counters, so that the lab can reproduce the published figures.
//
// The searches are deliberately naive: they are the programs of the seed
// documents, instrumented, not fast counters. Each lives in its own file:
//
//	classic.go    §3.1 classic backtracking with an O(k) Place (seed 004)
//	row.go        §3.2 row-by-row DFS with O(1) arrays (seed 002, "v1")
//	cell.go       §3.3 cell-by-cell DFS (seed 002, "v3")
//	cellprune.go  §3.4 cell-by-cell DFS with the row pruning (seed 002, "dfs2")
//
// All four share one signature ([Func]) and report a [Stats] struct of plain
// counters. A node is one call of the recursive search function (root and
// leaves included); a check is one call of the function that tests a square.
// Rows and columns are 0-based.
//
// # Tracing
//
// Every search takes an optional [Tracer] that receives place, remove,
// conflict and solution events in search order, so that a board animation
// can replay the search. A nil Tracer costs one well-predicted branch on a
// local boolean per event; BenchmarkTraceOverhead compares each search
// against a tracer-free copy (see classic_test.go) and shows equal ns/op.
//
// # Cancellation
//
// The context is polled every [PollInterval] nodes. On cancellation a
// search unwinds at once and returns ctx.Err() with the counters reached so
// far.
//
// # Legend for the short names in hot loops
//
//	n     board size          u     row being filled (row DFS)
//	pos   first cell (r*n+c) the cell DFS may still use
//	cnt   queens placed       x, y  row and column of a cell
//	col, diag, anti  occupancy of columns, diagonals (r-c+n), anti-diagonals (r+c)
package classic
