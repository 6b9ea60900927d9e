package fastcount

import "math/bits"

// spec is a sub-problem compiled for the search loop: the rows still free,
// the mask state at the first free row, and for every step from one free row
// to the next the row distance (shift) and the diagonal bits that enter the
// board from the left edge on the way (inj).
type spec struct {
	n     int
	m     int          // number of free rows
	rows  [MaxN]int8   // free rows, increasing
	shift [MaxN]uint8  // shift[k] = rows[k+1] - rows[k]
	inj   [MaxN]uint64 // dl bits entering between rows[k] and rows[k+1]
	cols  uint64       // occupied columns at rows[0]
	dl    uint64       // occupied "col-row" lines, as seen at rows[0]
	dr    uint64       // occupied "col+row" lines, as seen at rows[0]
	full  uint64       // the n board columns
	fixed [MaxN]int8   // column of the pre-placed queen of each row, or -1
	sym   uint8        // Sub.Stab: 1, 2 or 4
}

// compile turns a border sub-problem into a spec.
//
// Frames: at row r, bit j of dl stands for the line col-row = j-r and bit j
// of dr for the line col+row = j+r. Going down one row, dl shifts left and dr
// shifts right by one. A queen at (R,C) is therefore bit C+R of dr at row 0
// (C+R ≤ 2n-2 < 64, so it is preloaded even when it lies off the board), and
// bit C-R of dl at row 0 when C ≥ R. When C < R its dl line reaches column 0
// only at row R-C: that bit is injected then (inj), since a shift left cannot
// bring bits in from negative positions.
func compile(n int, s Sub) *spec {
	sp := &spec{n: n, sym: s.Stab, full: 1<<uint(n) - 1}
	for r := range sp.fixed {
		sp.fixed[r] = -1
	}
	var queens []square
	switch s.Kind {
	case KindCorner:
		queens = []square{{0, 0}, {n - 1, int(s.Bottom)}, {int(s.Right), n - 1}}
	case KindBorder:
		q4 := tuple{int(s.Top), int(s.Bottom), int(s.Left), int(s.Right)}.queens(n)
		queens = q4[:]
	default:
		panic("fastcount: compile of a whole-board sub-problem")
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
		sp.shift[k] = uint8(to - from)
		sp.inj[k] = advance(0, from, to)
	}
	return sp
}

// frame is one level of the explicit search stack.
type frame struct {
	cols, dl, dr, free uint64
}

// pollEvery is how many nodes the search runs between looks at the stop flag.
const pollEvery = 1 << 14

// countFast counts the completions of sp's free rows. It returns ok=false if
// stop was seen set; sols and nodes are then partial and must be discarded.
//
// Legend: k depth (index into rows), q the queen's bit, free the squares of
// the current row not attacked, s the row distance to the next free row.
func countFast(sp *spec, stop func() bool) (sols, nodes uint64, ok bool) {
	m := sp.m
	if m == 0 {
		return 1, 0, true
	}
	var stk [MaxN]frame
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
					return sols, nodes, false
				}
			}
			k--
			f := &stk[k]
			cols, dl, dr, free = f.cols, f.dl, f.dr, f.free
			continue
		}
		q := free & -free // lowest set bit (two's complement: -x = ^x+1)
		free ^= q
		nodes++
		if k == last {
			sols++
			continue
		}
		stk[k] = frame{cols, dl, dr, free}
		s := sp.shift[k] & 63
		cols |= q
		dl = (dl|q)<<s | sp.inj[k]
		dr = (dr | q) >> s
		free = ^(cols | dl | dr) & full
		k++
	}
	return sols, nodes, true
}

// countSym is countFast plus, at every solution, a test of its symmetry under
// the half turn and the quarter turn. It is used only for the few
// sub-problems whose border queens are symmetric (Stab 2 or 4), where the
// unique count needs those fixed points (Burnside over the stabiliser).
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
	var stk [MaxN]frame
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
		s := sp.shift[k] & 63
		cols |= q
		dl = (dl|q)<<s | sp.inj[k]
		dr = (dr | q) >> s
		free = ^(cols | dl | dr) & full
		k++
	}
	return sols, f180, f90, nodes, true
}
