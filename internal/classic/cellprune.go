package classic

import "context"

// CellDFSPruned is the cell-by-cell search of SPEC.md §3.4 (seed 002,
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
	s.dfsPruned(0, 0)
	return s.st, s.p.err
}

func (s *cellSearch) dfsPruned(pos, cnt int) {
	s.st.Nodes++
	if s.st.Nodes&pollMask == 0 && s.p.stop() {
		return
	}
	if s.emptyRowBefore(pos) {
		return
	}
	n := s.n
	if cnt == n {
		s.st.Solutions++
		if s.traced {
			s.tr.Solution()
		}
		return
	}
	if pos == n*n {
		return
	}
	for k := pos; k < n*n; k++ {
		x, y := k/n, k%n
		s.st.Checks++
		if s.row[x] || s.col[y] || s.diag[x-y+n] || s.anti[x+y] {
			if s.traced {
				s.tr.Conflict(x, y)
			}
			continue
		}
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = true, true, true, true
		if s.traced {
			s.tr.Place(x, y)
		}
		s.dfsPruned(k+1, cnt+1)
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = false, false, false, false
		if s.traced {
			s.tr.Remove(x, y)
		}
		if s.p.err != nil {
			return
		}
	}
}
