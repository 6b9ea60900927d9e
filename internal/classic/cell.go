package classic

import "context"

// CellDFS is the cell-by-cell depth-first search of docs/algorithms.md §3.3 (seed 002,
// "v3"): dfs(pos, cnt) tries every cell k = pos..n²−1 in order and places a
// queen where row, column and both diagonals are free. Every node is one set
// of mutually non-attacking queens (the empty set too), so the search visits
// all of them.
//
// Counters: Nodes = calls of dfs, Checks = calls of check, Skipped = nodes
// entered while some row before row pos/n is still empty (such a node can
// never lead to a solution, because pos only grows), Dead = skipped nodes
// with pos == n². For n=10: 7,535,369 nodes, 70,450,278 checks, 7,499,830
// skipped, 429,169 dead.
//
// tr may be nil.
func CellDFS(ctx context.Context, n int, tr Tracer) (Stats, error) {
	if err := checkN(n); err != nil {
		return Stats{N: n}, err
	}
	s := newCellSearch(ctx, n, tr)
	s.dfs(0, 0)
	return s.st, s.p.err
}

type cellSearch struct {
	n                    int
	row, col, diag, anti []bool
	tr                   Tracer
	traced               bool
	st                   Stats
	p                    poller
	// prune selects §3.4: return from a node that left a row before pos/n empty,
	// right after counting it (and before counting it as skipped).
	prune bool
	// lines are the lines of the program (CellCode or CellPruneCode) of the events.
	lines cellLines
}

func newCellSearch(ctx context.Context, n int, tr Tracer) *cellSearch {
	s := &cellSearch{
		n:    n,
		row:  make([]bool, n),
		col:  make([]bool, n),
		diag: make([]bool, 2*n),
		anti: make([]bool, 2*n),
		tr:   tr, traced: tr != nil, p: newPoller(ctx),
		lines: cellLinesPlain,
	}
	s.st.N = n
	return s
}

// emptyRowBefore returns the first row before row pos/n that is still empty, or −1.
func (s *cellSearch) emptyRowBefore(pos int) int {
	next := min(pos/s.n, s.n)
	for r := 0; r < next; r++ {
		if !s.row[r] {
			return r
		}
	}
	return -1
}

func (s *cellSearch) dfs(pos, cnt int) {
	s.st.Nodes++
	if s.st.Nodes&pollMask == 0 && s.p.stop() {
		return
	}
	n := s.n
	empty := s.emptyRowBefore(pos)
	skipped := empty >= 0
	if skipped && s.prune {
		if s.traced {
			s.tr.Prune(empty, s.lines.prune)
		}
		return
	}
	if skipped {
		s.st.Skipped++
	}
	if cnt == n {
		s.st.Solutions++
		if s.traced {
			s.tr.Solution(s.lines.solution)
		}
		return
	}
	if pos == n*n {
		if skipped {
			s.st.Dead++
		}
		return
	}
	for k := pos; k < n*n; k++ {
		x, y := k/n, k%n
		s.st.Checks++
		if s.row[x] || s.col[y] || s.diag[x-y+n] || s.anti[x+y] {
			if s.traced {
				s.tr.Conflict(x, y, s.lines.conflict)
			}
			continue
		}
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = true, true, true, true
		if s.traced {
			s.tr.Place(x, y, s.lines.place)
		}
		s.dfs(k+1, cnt+1)
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = false, false, false, false
		if s.traced {
			s.tr.Remove(x, y, s.lines.remove)
		}
		if s.p.err != nil {
			return
		}
	}
}
