package classic

import "context"

// Classic is the textbook backtracking of docs/algorithms.md §3.1 (seed 004):
// Backtrack(t) tries the columns of row t in order and descends when
// Place(t) accepts, and Place(k) compares queen k with every queen above it,
// in O(k), stopping at the first conflict.
//
// Counters: Nodes = calls of Backtrack (root and leaves included), Checks =
// calls of Place, LoopIterations = executions of the body of Place's loop.
// For n=8: 2,057 / 15,720 / 46,752; for n=10: 35,539 / 348,150 / 1,297,558.
//
// tr may be nil. A Conflict event names the square Place rejected.
func Classic(ctx context.Context, n int, tr Tracer) (Stats, error) {
	return ClassicFrom(ctx, n, nil, tr)
}

// ClassicFrom is Classic from a partial board: fixed[r] ≥ 0 is the column of a queen that
// row r must hold (−1: a free row; nil: every row free). In a fixed row the loop tries
// that column only, and Place checks it as any other: the search counts the completions
// of the partial board.
func ClassicFrom(ctx context.Context, n int, fixed []int, tr Tracer) (Stats, error) {
	if err := checkFixed(n, fixed); err != nil {
		return Stats{N: n}, err
	}
	s := classicSearch{n: n, x: make([]int, n), fixed: fixed, tr: tr, traced: tr != nil, p: newPoller(ctx)}
	s.lt, _ = tr.(LoopTracer)
	s.st.N = n
	s.backtrack(0)
	return s.st, s.p.err
}

type classicSearch struct {
	n      int
	x      []int // x[t] is the column of the queen of row t
	fixed  []int // the column each row must hold, −1 for a free row; nil: all free
	tr     Tracer
	lt     LoopTracer // tr, when it sees Place's loop too
	traced bool
	st     Stats
	p      poller
}

// place is Place(k) of the seed: whether queen k attacks none of the queens
// of rows 0..k-1.
func (s *classicSearch) place(k int) bool {
	s.st.Checks++
	x := s.x
	xk := x[k]
	for j := 0; j < k; j++ {
		s.st.LoopIterations++
		d := xk - x[j]
		if d == 0 || d == k-j || d == j-k {
			return false
		}
	}
	return true
}

// placeTraced is place reporting each comparison of its loop to the LoopTracer: a copy,
// so that the untraced loop, the one the lab times, keeps its code.
func (s *classicSearch) placeTraced(k int) bool {
	s.st.Checks++
	x := s.x
	xk := x[k]
	for j := 0; j < k; j++ {
		s.st.LoopIterations++
		d := xk - x[j]
		attacks := d == 0 || d == k-j || d == j-k
		s.lt.Compare(k, xk, j, x[j], attacks, classicCompare)
		if attacks {
			return false
		}
	}
	return true
}

func (s *classicSearch) backtrack(t int) {
	s.st.Nodes++
	if s.st.Nodes&pollMask == 0 && s.p.stop() {
		return
	}
	n := s.n
	if t == n {
		s.st.Solutions++
		if s.traced {
			s.tr.Solution(classicSolution)
		}
		return
	}
	lo, hi := columns(s.fixed, t, n)
	for i := lo; i < hi; i++ {
		s.x[t] = i
		var ok bool
		if s.lt != nil {
			ok = s.placeTraced(t)
		} else {
			ok = s.place(t)
		}
		if ok {
			if s.traced {
				s.tr.Place(t, i, classicPlace)
			}
			s.backtrack(t + 1)
			if s.traced {
				s.tr.Remove(t, i, classicRemove)
			}
			if s.p.err != nil {
				return
			}
		} else if s.traced {
			s.tr.Conflict(t, i, classicConflict)
		}
	}
}
