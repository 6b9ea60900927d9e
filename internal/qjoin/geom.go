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

// Bits of an entry word above the line bits: the flags of the quarters of
// the flagged half (see geom), one per quarter, at most one per word.
const (
	flagN = 62 // the North quarter's: a (NW, main diagonal) or c (NE, anti-diagonal)
	flagS = 63 // the South quarter's: d (SW, anti-diagonal) or b (SE, main diagonal)
	// maxLines bounds the line bits (the crossing lines and, for odd n,
	// the lines of geom.extra and geom.anti): they must stay below the
	// flags.
	maxLines = flagN
)

// geom describes an n×n board cut at h = ⌊n/2⌋: West = columns [0,h),
// East = columns [h,n), North = rows [0,h), South = rows [h,n).
//
// One half is restricted: it holds no queen on either long diagonal (the
// West: a = d = 0, or the East: b = c = 0), and the other half, the
// flagged one, is weighted by its queens there (see doc.go). Which half is
// restricted is the plan's choice (westRestricted).
//
// An entry word has one bit per East–West crossing line that both halves
// may use (bits 0..L-1), in the order of cut priority from the top: bit
// L-1 is the line most worth cutting (see cutRank), so that the c cut
// lines of any row set are the top c bits; for odd n, a bit or two more
// for the lines through the centre square and the East diagonal r-c = -h
// (see newGeom); and the flags at bits 62, 63.
type geom struct {
	n, h  int
	lines int // L: crossing-line bits of the East–West word (bits 0..L-1)
	// westRestricted: the West half is restricted and the East flagged;
	// else the other way round.
	westRestricted bool
	// centre is, for odd n with the East restricted, bit 0: the centre
	// square, on both long diagonals, which the restricted East uses and
	// the flagged West may meet on either; 0 otherwise.
	centre uint64
	// extra is, for odd n, the bit of the East diagonal r-c = -h, from
	// (0,h) to (h,n-1), a line that NE and SE may share without it
	// crossing the East–West cut; 0 for even n.
	extra uint64
	// anti is, for odd n with the West restricted, the bit of the
	// anti-diagonal, which the flagged East meets in NE (segment c) and at
	// the centre (in SE); 0 otherwise.
	anti  uint64
	quads [4]quadGeom
}

// quadGeom is one quadrant: its size, its place on the board, and for every
// square the word of a queen standing there. allowed[i] is the set of local
// columns where row i may hold a queen (the restricted half leaves out the
// long diagonals).
type quadGeom struct {
	rows, cols int
	r0, c0     int
	sq         []uint64 // [i*cols+j]
	allowed    []uint32
	flagged    bool // in the flagged half: entries are split by their flag
}

// line names a crossing line: anti is true for the anti-diagonal r+c =
// n-1+off, false for the diagonal r-c = off.
type line struct {
	anti bool
	off  int
}

// cutRank lists the crossing lines of an n×n board, the long ones aside, in
// the order in which they are worth cutting: the lines most used by both
// halves first. Measured on row sets of n = 16..19 (the share of East
// halves times the share of West halves that use the line), the order is
// the anti-diagonals next to the long one, then alternately the diagonals
// next to the long one and the anti-diagonals one further out: a-1, a+1,
// a-2, a+2, d+1, d-1, a-3, a+3, d+2, d-2, ...
func cutRank(n int) []line {
	h := n / 2
	exists := func(l line) bool {
		if l.off == 0 {
			return false
		}
		if l.anti {
			s := n - 1 + l.off
			return s >= h && s <= n-2+h
		}
		return l.off > -h && l.off <= n-1-h
	}
	var out []line
	add := func(l line) {
		if exists(l) {
			out = append(out, l)
		}
	}
	for i := 1; i <= n; i++ {
		add(line{true, -i})
		add(line{true, i})
		if i >= 2 {
			add(line{false, i - 1})
			add(line{false, -(i - 1)})
		}
	}
	return out
}

// newGeom builds the geometry of an n×n board, MinN ≤ n ≤ MaxN, with the
// West or the East half restricted.
//
// Two quarters of a half are compatible when they share no line, and every
// line through both a North and a South quarter of the same half crosses
// the row cut inside that half. Such a line also crosses the East–West cut
// but for odd n the East diagonal r-c = -h (extra) and, with the West
// restricted, the anti-diagonal, which meets the East half in NE and at
// the centre (anti). The restricted half uses neither long diagonal, so
// these need no bit in the East–West test but the centre of an odd board
// when the East is restricted: the restricted East may hold it, and the
// flagged West meets it on either diagonal (centre). The test of a quarter
// pair is x&y on pairMask.
func newGeom(n int, westRestricted bool) *geom {
	g := &geom{n: n, h: n / 2, westRestricted: westRestricted}
	ewDiag, ewAnti := g.crossingBits()
	for q := range g.quads {
		g.fillQuad(q, ewDiag, ewAnti)
	}
	return g
}

// crossingBits numbers the East–West crossing lines (g.lines, and the bits
// centre, extra and anti of odd n) and returns the bit of each: the
// diagonals r-c = k for -h < k ≤ n-1-h by k+n-1 and the anti-diagonals
// r+c = s for h ≤ s ≤ n-2+h by s, but the main diagonal k = 0 and the
// anti-diagonal s = n-1, which the restricted half does not use; -1 for
// the lines that do not cross.
func (g *geom) crossingBits() (ewDiag, ewAnti []int) {
	n, odd := g.n, g.n%2 == 1
	ewDiag = make([]int, 2*n-1) // by k+n-1
	ewAnti = make([]int, 2*n-1) // by s
	for i := range ewDiag {
		ewDiag[i], ewAnti[i] = -1, -1
	}
	rank := cutRank(n)
	L := len(rank)
	low := 0 // the bit of the lowest-ranked line
	if odd && !g.westRestricted {
		g.centre = 1
		low = 1
	}
	for i, l := range rank {
		if l.anti {
			ewAnti[n-1+l.off] = low + L - 1 - i
		} else {
			ewDiag[l.off+n-1] = low + L - 1 - i
		}
	}
	L += low
	g.lines = L
	if odd {
		g.extra = 1 << uint(L)
		if g.westRestricted {
			g.anti = 1 << uint(L+1)
		}
	}
	return ewDiag, ewAnti
}

// fillQuad sets quadrant q's size and place, and the word and the allowed
// columns of each of its squares (squareWord).
func (g *geom) fillQuad(q int, ewDiag, ewAnti []int) {
	n, h := g.n, g.h
	dims := [4][4]int{ // rows, cols, r0, c0
		qNW: {h, h, 0, 0},
		qNE: {h, n - h, 0, h},
		qSW: {n - h, h, h, 0},
		qSE: {n - h, n - h, h, h},
	}
	d := dims[q]
	qg := &g.quads[q]
	qg.rows, qg.cols, qg.r0, qg.c0 = d[0], d[1], d[2], d[3]
	east := q == qNE || q == qSE
	qg.flagged = east == g.westRestricted
	qg.sq = make([]uint64, qg.rows*qg.cols)
	qg.allowed = make([]uint32, qg.rows)
	for i := 0; i < qg.rows; i++ {
		for j := 0; j < qg.cols; j++ {
			word, ok := g.squareWord(q, qg.r0+i, qg.c0+j, ewDiag, ewAnti)
			qg.sq[i*qg.cols+j] = word
			if ok {
				qg.allowed[i] |= 1 << uint(j)
			}
		}
	}
}

// squareWord is the word of a queen on square (r, c) of quadrant q: its
// crossing lines' bits, and its flags where the square is on a long
// diagonal of the flagged half; ok is false where the restricted half may
// not hold a queen.
func (g *geom) squareWord(q, r, c int, ewDiag, ewAnti []int) (word uint64, ok bool) {
	n, h, odd := g.n, g.h, g.n%2 == 1
	k, s := r-c, r+c
	if x := ewDiag[k+n-1]; x >= 0 {
		word |= 1 << uint(x)
	}
	if x := ewAnti[s]; x >= 0 {
		word |= 1 << uint(x)
	}
	if odd && k == -h {
		word |= g.extra
	}
	centre := odd && r == h && c == h
	// The square's segment of a long diagonal (the centre is on both and
	// in neither): a in NW, c in NE, d in SW, b in SE.
	seg := !centre && (k == 0 || s == n-1)
	ok = true
	switch {
	case !g.quads[q].flagged:
		ok = !seg
		if centre {
			word |= g.centre // the restricted East's centre
		}
	case seg:
		if r < h {
			word |= 1 << flagN
		} else {
			word |= 1 << flagS
		}
		if q == qNE {
			word |= g.anti
		}
		if q == qNW || q == qSW {
			word |= g.centre // the flagged West meets the centre
		}
	case centre:
		word |= g.anti // the flagged East's centre
	}
	return word, ok
}

// ewMask is the set of East–West crossing-line bits.
func (g *geom) ewMask() uint64 { return 1<<uint(g.lines) - 1 }

// pairMask is the set of bits on which two quarters of the East half
// (east) or of the West half must not overlap: every line bit, and in the
// East the bits of the crossing-free lines of an odd board. In the West
// the centre bit stands for two lines, the main diagonal through NW and
// the anti-diagonal through SW, which no two queens of one West half can
// share: it is left out.
func (g *geom) pairMask(east bool) uint64 {
	if east {
		return g.ewMask() | g.extra | g.anti
	}
	return g.ewMask() &^ g.centre
}
