package classic

import "context"

// CellDFSPruned is the cell-by-cell search of docs/algorithms.md §3.4 (seed 002,
// "dfs2"): [CellDFS] with one pruning rule, applied right after counting
// the node: return if some row before row pos/n is still empty.
//
// Counters: Nodes = calls of dfs (pruned ones included), Checks = calls of
// check. For n=10: 185,489 nodes, 1,256,703 checks. The seed's lesson:
// modelling the search by rows ([RowDFS]) removes the work that this
// pruning only cuts short.
//
// tr may be nil.
func CellDFSPruned(ctx context.Context, n int, tr Tracer) (Stats, error) {
	if err := checkN(n); err != nil {
		return Stats{N: n}, err
	}
	s := newCellSearch(ctx, n, tr)
	s.prune, s.lines = true, cellLinesPruned
	s.dfs(0, 0)
	return s.st, s.p.err
}
