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

// Bits of an entry word above the line bits.
const (
	flagA = 62 // NW: a queen on the main diagonal (segment a)
	flagD = 63 // SW: a queen on the anti-diagonal (segment d)
	// maxLines bounds the line bits (the crossing lines and the extra
	// East line): they must stay below the flags.
	maxLines = flagA
)

// geom describes an n×n board cut at h = ⌊n/2⌋: West = columns [0,h),
// East = columns [h,n), North = rows [0,h), South = rows [h,n).
//
// An entry word has one bit per East–West crossing line (bits 0..L-1), in
// the order of cut priority from the top: bit L-1 is the line most worth
// cutting (see cutRank), so that the c cut lines of any row set are the top
// c bits. For odd n it has one more bit, L, for the only line that joins
// the North and South quarters of a half without crossing the East–West
// cut (see newGeom), and the flags a, d at bits 62, 63.
type geom struct {
	n, h  int
	lines int // L: crossing-line bits of the East–West word (bits 0..L-1)
	// centre is, for odd n, the bit shared by the two long diagonals (the
	// centre square is on both); 0 for even n.
	centre uint64
	// extra is, for odd n, bit L: the East diagonal r-c = -h, from (0,h) to
	// (h,n-1), the one line that NE and SE may share without it crossing
	// the East–West cut; 0 for even n.
	extra uint64
	quads [4]quadGeom
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

// newGeom builds the geometry of an n×n board, MinN ≤ n ≤ MaxN.
//
// Two quarters of a half are compatible when they share no line, and every
// line through both a North and a South quarter of the same half crosses
// the row cut inside that half. Such a line also crosses the East–West cut,
// with one exception: for odd n, the East diagonal r-c = -h (extra). So the
// test of a quarter pair is x&y on the line bits, which pairMask gives per
// half (see there for the centre bit).
func newGeom(n int) *geom {
	h := n / 2
	g := &geom{n: n, h: h}
	// East–West crossing lines: the diagonals r-c = k for -h < k ≤ n-1-h and
	// the anti-diagonals r+c = s for h ≤ s ≤ n-2+h. The stored East halves
	// never use the main diagonal k = 0 nor the anti-diagonal s = n-1 except
	// through the centre square of an odd board, so these two lines get no
	// bit of their own: none for even n, one shared "centre" bit (bit 0,
	// never cut) for odd n.
	ewDiag := make([]int, 2*n-1) // by k+n-1
	ewAnti := make([]int, 2*n-1) // by s
	for i := range ewDiag {
		ewDiag[i], ewAnti[i] = -1, -1
	}
	rank := cutRank(n)
	L := len(rank)
	if n%2 == 1 {
		L++
		ewDiag[n-1], ewAnti[n-1] = 0, 0
		g.centre = 1
		g.extra = 1 << uint(L)
	}
	g.lines = L
	for i, l := range rank {
		if l.anti {
			ewAnti[n-1+l.off] = L - 1 - i
		} else {
			ewDiag[l.off+n-1] = L - 1 - i
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
				if n%2 == 1 && k == -h {
					word |= g.extra
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

// pairMask is the set of bits on which two quarters of the East half
// (east) or of the West half must not overlap. In the East it is every line
// bit: NE holds no square of either long diagonal, so the centre bit can
// only come from SE. In the West the centre bit stands for two lines, the
// main diagonal through NW and the anti-diagonal through SW, which no two
// queens of one West half can share: it is left out.
func (g *geom) pairMask(east bool) uint64 {
	if east {
		return g.ewMask() | g.extra
	}
	return g.ewMask() &^ g.centre
}
