package qjoin

// Geometry: how an n×n board is cut into halves and quadrants, and which bit
// of an entry word stands for which line (see doc.go for the picture).

// Quadrant numbers, in the order of geom.quads.
const (
	qNW = iota
	qNE
	qSW
	qSE
)

// Bits of an entry word above the crossing-line bits.
const (
	nsShift = 42 // first bit of the north–south crossing lines of a half
	flagA   = 62 // NW: a queen on the main diagonal (segment a)
	flagD   = 63 // SW: a queen on the anti-diagonal (segment d)
	maxEW   = nsShift
)

// geom describes an n×n board cut at h = ⌊n/2⌋: West = columns [0,h),
// East = columns [h,n), North = rows [0,h), South = rows [h,n).
type geom struct {
	n, h  int
	lines int // L: crossing-line bits of the East–West word (bits 0..L-1)
	// cut is set (n ≥ minCutN) when the two anti-diagonals next to the
	// long one, r+c = n-2 and r+c = n, are cut lines (see match.go): they
	// take bits L-2 and L-1, and the matcher compares bits 0..L-3 only.
	cut   bool
	quads [4]quadGeom
}

// minCutN is the smallest n with cut lines: below, the East halves of a
// row set are too few (a few hundred) to gain from being split four ways.
const minCutN = 17

// matchLines is the number of low bits of the East–West word that the
// chunk tables compare: all of them, or all but the two cut lines.
func (g *geom) matchLines() int {
	if g.cut {
		return g.lines - 2
	}
	return g.lines
}

// quadGeom is one quadrant: its size, its place on the board, and for every
// square the word of a queen standing there. allowed[i] is the set of local
// columns where row i may hold a queen (the East filters b = c = 0).
type quadGeom struct {
	rows, cols int
	r0, c0     int
	sq         []uint64 // [i*cols+j]
	allowed    []uint32
	flagged    bool // West: entries are split by their flag (a for NW, d for SW)
}

// newGeom builds the geometry of an n×n board, 4 ≤ n ≤ MaxN, with or
// without cut lines.
func newGeom(n int, cut bool) *geom {
	h := n / 2
	g := &geom{n: n, h: h}
	// East–West crossing lines: the diagonals r-c = k for -h < k ≤ n-1-h and
	// the anti-diagonals r+c = s for h ≤ s ≤ n-2+h. The stored East halves
	// never use the main diagonal k = 0 nor the anti-diagonal s = n-1 except
	// through the centre square of an odd board, so these two lines get no
	// bit of their own: none for even n, one shared "centre" bit for odd n.
	ewDiag := make([]int, 2*n-1) // by k+n-1
	ewAnti := make([]int, 2*n-1) // by s
	for i := range ewDiag {
		ewDiag[i], ewAnti[i] = -1, -1
	}
	b := 0
	for k := -h + 1; k <= n-1-h; k++ {
		if k != 0 {
			ewDiag[k+n-1] = b
			b++
		}
	}
	for s := h; s <= n-2+h; s++ {
		if s != n-1 {
			ewAnti[s] = b
			b++
		}
	}
	if n%2 == 1 {
		ewDiag[n-1], ewAnti[n-1] = b, b
		b++
	}
	g.lines = b
	if cut {
		// Move the cut lines to the top two bits, keeping the others in
		// order below them.
		g.cut = true
		top := []int{ewAnti[n-2], ewAnti[n]}
		remap := func(x int) int {
			switch {
			case x < 0:
				return x
			case x == top[0]:
				return b - 2
			case x == top[1]:
				return b - 1
			}
			d := 0
			for _, t := range top {
				if x > t {
					d++
				}
			}
			return x - d
		}
		for i := range ewDiag {
			ewDiag[i], ewAnti[i] = remap(ewDiag[i]), remap(ewAnti[i])
		}
	}

	dims := [4][4]int{ // rows, cols, r0, c0
		qNW: {h, h, 0, 0},
		qNE: {h, n - h, 0, h},
		qSW: {n - h, h, h, 0},
		qSE: {n - h, n - h, h, h},
	}
	for q := range g.quads {
		d := dims[q]
		qg := &g.quads[q]
		qg.rows, qg.cols, qg.r0, qg.c0 = d[0], d[1], d[2], d[3]
		qg.flagged = q == qNW || q == qSW
		qg.sq = make([]uint64, qg.rows*qg.cols)
		qg.allowed = make([]uint32, qg.rows)
		w := qg.cols
		for i := 0; i < qg.rows; i++ {
			for j := 0; j < qg.cols; j++ {
				r, c := qg.r0+i, qg.c0+j
				k, s := r-c, r+c
				var word uint64
				if x := ewDiag[k+n-1]; x >= 0 {
					word |= 1 << uint(x)
				}
				if x := ewAnti[s]; x >= 0 {
					word |= 1 << uint(x)
				}
				// North–south crossing lines of the half (columns
				// [c0, c0+w)): the diagonal through (h-1, x) and
				// (h, x+1), the anti-diagonal through (h-1, x) and
				// (h, x-1).
				if x := h - 1 - k; x >= qg.c0 && x <= qg.c0+w-2 {
					word |= 1 << uint(nsShift+x-qg.c0)
				}
				if x := s - h + 1; x >= qg.c0+1 && x <= qg.c0+w-1 {
					word |= 1 << uint(nsShift+w-1+x-qg.c0-1)
				}
				ok := true
				switch q {
				case qNW:
					if k == 0 {
						word |= 1 << flagA
					}
				case qSW:
					if s == n-1 {
						word |= 1 << flagD
					}
				case qNE:
					ok = s != n-1 // segment c
				case qSE:
					ok = k != 0 || (n%2 == 1 && r == h) // segment b; the centre is allowed
				}
				qg.sq[i*qg.cols+j] = word
				if ok {
					qg.allowed[i] |= 1 << uint(j)
				}
			}
		}
	}
	return g
}

// ewMask is the set of East–West crossing-line bits.
func (g *geom) ewMask() uint64 { return 1<<uint(g.lines) - 1 }
