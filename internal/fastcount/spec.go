package fastcount

import "math/bits"

// spec is a sub-problem compiled for the search loop: the rows still free,
// the mask state at the first free row, and the step table that moves the
// masks from one free row to the next.
type spec struct {
	n     int
	m     int        // number of free rows
	rows  [32]int8   // free rows, increasing
	steps [32]step   // steps[k] leads from rows[k] to rows[k+1] (and on)
	cols  uint64     // occupied columns at rows[0]
	dl    uint64     // occupied "col-row" lines, as seen at rows[0]
	dr    uint64     // occupied "col+row" lines, as seen at rows[0]
	full  uint64     // the n board columns
	fixed [MaxN]int8 // column of the pre-placed queen of each row, or -1
}

// step moves the masks from free row rows[k] to rows[k+1] (s1, inj1), and
// for the look-ahead on to rows[k+2] (s2, inj2): dl shifts left and dr right
// by the row distance, and inj holds the dl bits of pre-placed queens that
// enter the board at column 0 on the way (see compile).
type step struct {
	s1, s2     uint
	inj1, inj2 uint64
}

// queens returns the pre-placed queens of a border sub-problem in its
// canonical orientation.
func (s Sub) queens(n int) []square {
	switch s.Kind {
	case KindCorner:
		return []square{{0, 0}, {n - 1, int(s.Bottom)}, {int(s.Right), n - 1}}
	case KindBorder:
		q4 := tuple{int(s.Top), int(s.Bottom), int(s.Left), int(s.Right)}.queens(n)
		return q4[:]
	}
	panic("fastcount: queens of a whole-board sub-problem")
}

// orient picks, among the 8 images of the sub-problem's border queens, the
// one whose top-down search tree is expected to be smallest. All images have
// the same number of solutions (and of symmetric ones), so any choice is
// correct; measured at n=12..14, the tree is smallest when the bottom queen
// is near a corner (its diagonal then cuts many rows early) and the side
// queens sit low. This heuristic gets within 5% of the best image and saves
// about 30% of the nodes of the canonical one.
func orient(n int, qs []square) []square {
	var best []square
	bestKey := 0
	for g := 0; g < 8; g++ {
		img := make([]square, len(qs))
		bottom, low := n, 0
		for i, q := range qs {
			img[i] = transform(g, n, q)
			switch r := img[i].r; {
			case r == n-1:
				bottom = min(img[i].c, n-1-img[i].c)
			case r != 0:
				low = max(low, r)
			}
		}
		if key := bottom*1000 - low; best == nil || key < bestKey {
			best, bestKey = img, key
		}
	}
	return best
}

// compileQueens turns border queens, given in board coordinates, into a spec.
//
// Frames: at row r, bit j of dl stands for the line col-row = j-r and bit j
// of dr for the line col+row = j+r. Going down one row, dl shifts left and dr
// shifts right by one. A queen at (R,C) is therefore bit C+R of dr at row 0
// (C+R ≤ 2n-2 < 64, so it is preloaded even when it lies off the board), and
// bit C-R of dl at row 0 when C ≥ R. When C < R its dl line reaches column 0
// only at row R-C: that bit is injected then (inj), since a shift left cannot
// bring bits in from negative positions.
func compileQueens(n int, queens []square) *spec {
	sp := &spec{n: n, full: 1<<uint(n) - 1}
	for r := range sp.fixed {
		sp.fixed[r] = -1
	}
	var injAt [2 * MaxN]bool // injAt[r]: a dl line enters column 0 at row r
	var dl uint64
	for _, q := range queens {
		sp.fixed[q.r] = int8(q.c)
		sp.cols |= 1 << uint(q.c)
		sp.dr |= 1 << uint(q.c+q.r)
		if q.c >= q.r {
			dl |= 1 << uint(q.c-q.r)
		} else {
			injAt[q.r-q.c] = true
		}
	}
	for r := 0; r < n; r++ {
		if sp.fixed[r] < 0 {
			sp.rows[sp.m] = int8(r)
			sp.m++
		}
	}
	// advance moves dl from row `from` to row `to`, injecting on the way.
	advance := func(dl uint64, from, to int) uint64 {
		for r := from + 1; r <= to; r++ {
			dl <<= 1
			if injAt[r] {
				dl |= 1
			}
		}
		return dl
	}
	if sp.m == 0 {
		return sp
	}
	first := int(sp.rows[0])
	sp.dl = advance(dl, 0, first)
	sp.dr >>= uint(first)
	for k := 0; k+1 < sp.m; k++ {
		from, to := int(sp.rows[k]), int(sp.rows[k+1])
		st := &sp.steps[k]
		st.s1 = uint(to - from)
		st.inj1 = advance(0, from, to)
		if k+2 < sp.m {
			st.s2 = uint(int(sp.rows[k+2]) - to)
			st.inj2 = advance(0, to, int(sp.rows[k+2]))
		}
	}
	return sp
}

// frame is one level of the explicit search stack.
type frame struct {
	cols, dl, dr, free uint64
}

// pollEvery is how many nodes the plain searches run between looks at the
// stop flag.
const pollEvery = 1 << 14

// pollRows: the fast searches look at the stop flag whenever they backtrack
// to a depth with at most pollRows free rows below it, a subtree small
// enough (well under a second even at n=27) to bound the reaction time,
// while costing nothing in the inner loop.
const pollRows = 11

// countFast counts the completions of sp's free rows. It returns ok=false if
// stop was seen set; sols and nodes are then partial and must be discarded.
//
// The loop is an explicit-stack depth-first search. A node is one queen
// tried at depth k; its masks for row k+1 are computed at once, and the
// child is pushed only if row k+1 has a free square and row k+2 still has
// one when only the queens placed so far are counted (a two-row look-ahead,
// as in the fastest constellation solvers). A non-empty last row is a
// solution: one column is left, so it has at most one free square. The
// queens of the next-to-last row are tried in an inner loop, without stack
// frames.
//
// Legend: k depth (index into rows and steps), q the queen's bit, free the
// squares of row k not yet tried, nc/nl/nr/nf the column, diagonal and free
// masks of row k+1 after placing q.
func countFast(sp *spec, stop func() bool) (sols, nodes uint64, ok bool) {
	// cols also marks every bit outside the board, so ^(cols|dl|dr) needs
	// no mask.
	cols, dl, dr := sp.cols|^sp.full, sp.dl, sp.dr
	free := ^(cols | dl | dr)
	switch sp.m {
	case 0:
		return 1, 0, true
	case 1:
		c := uint64(bits.OnesCount64(free))
		return c, c, true
	}
	var stk [32]frame
	steps := &sp.steps
	last := sp.m - 1
	pollDepth := max(0, sp.m-pollRows)
	k := 0
	for {
		if free == 0 {
			if k == 0 {
				break
			}
			k--
			if k <= pollDepth && stop() {
				return sols, nodes, false
			}
			f := &stk[k&31]
			cols, dl, dr, free = f.cols, f.dl, f.dr, f.free
			continue
		}
		q := free & -free // lowest set bit (two's complement: -x = ^x+1)
		free ^= q
		nodes++
		st := &steps[k&31]
		nc := cols | q
		nl := (dl|q)<<(st.s1&63) | st.inj1
		nr := (dr | q) >> (st.s1 & 63)
		nf := ^(nc | nl | nr)
		if nf == 0 {
			continue
		}
		if k+1 == last {
			sols++
			continue
		}
		if ^(nc | nl<<(st.s2&63) | st.inj2 | nr>>(st.s2&63)) == 0 {
			continue
		}
		if k+2 == last {
			// The child is the next-to-last row: count its queens that
			// leave the last row a free square, without a stack frame.
			st2 := &steps[(k+1)&31]
			s := st2.s1 & 63
			for f := ^(nc | nl | nr); f != 0; f &= f - 1 {
				q2 := f & -f
				nodes++
				if ^(nc | q2 | ((nl|q2)<<s | st2.inj1) | (nr|q2)>>s) != 0 {
					sols++
				}
			}
			continue
		}
		stk[k&31] = frame{cols, dl, dr, free}
		cols, dl, dr, free = nc, nl, nr, nf
		k++
	}
	return sols, nodes, true
}

// countSym is a plain version of countFast that also tests every solution
// for symmetry under the half turn and the quarter turn. It is used only for
// the few sub-problems whose border queens are symmetric (Stab 2 or 4),
// where the unique count needs those fixed points (Burnside over the
// stabiliser).
func countSym(sp *spec, stop func() bool) (sols, f180, f90, nodes uint64, ok bool) {
	n, m := sp.n, sp.m
	var col [MaxN]int
	for r := 0; r < n; r++ {
		col[r] = int(sp.fixed[r])
	}
	leaf := func() {
		s180, s90 := true, true
		for r := 0; r < n; r++ {
			if col[n-1-r] != n-1-col[r] {
				s180 = false
			}
			if col[col[r]] != n-1-r {
				s90 = false
			}
		}
		if s180 {
			f180++
		}
		if s90 {
			f90++
		}
	}
	if m == 0 {
		leaf()
		return 1, f180, f90, 0, true
	}
	var stk [32]frame
	full := sp.full
	cols, dl, dr := sp.cols, sp.dl, sp.dr
	free := ^(cols | dl | dr) & full
	last := m - 1
	nextPoll := uint64(pollEvery)
	k := 0
	for {
		if free == 0 {
			if k == 0 {
				break
			}
			if nodes >= nextPoll {
				nextPoll = nodes + pollEvery
				if stop() {
					return sols, f180, f90, nodes, false
				}
			}
			k--
			f := &stk[k]
			cols, dl, dr, free = f.cols, f.dl, f.dr, f.free
			continue
		}
		q := free & -free
		free ^= q
		nodes++
		col[sp.rows[k]] = bits.TrailingZeros64(q)
		if k == last {
			sols++
			leaf()
			continue
		}
		stk[k] = frame{cols, dl, dr, free}
		s := sp.steps[k].s1 & 63
		cols |= q
		dl = (dl|q)<<s | sp.steps[k].inj1
		dr = (dr | q) >> s
		free = ^(cols | dl | dr) & full
		k++
	}
	return sols, f180, f90, nodes, true
}
