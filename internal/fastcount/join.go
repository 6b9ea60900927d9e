package fastcount

// Joining half boards (meet in the middle).
//
// A sub-problem's free rows are split in two: the first h free rows (the top
// half) and the others (the bottom half). Both halves are enumerated on their
// own by the same depth-first search, the bottom one on the vertically
// mirrored board, so that it runs upward from the bottom border. A top and a
// bottom half combine into a solution exactly when
//
//   - their queens' columns are disjoint: as the halves hold as many queens as
//     the free columns, this means the bottom half uses exactly the free
//     columns the top half left; and
//   - no diagonal line carries a queen of each half.
//
// Lines already used by the border queens were excluded by both searches.
// Only the lines that cross the split matter: of the "col-row" lines (index
// col-row+n-1) those in [n-s, 2n-2-s], of the "col+row" lines those in
// [s, n+s-2], where s is the first row of the bottom half; each window is n-1
// wide, so one uint64 (2n-2 ≤ 52 bits) holds every line a half uses that the
// other half could meet. The bottom halves are bucketed by column set in a
// table indexed by the column mask; each top half then scans the bucket of
// its complementary column set and counts the entries whose line word has no
// bit in common with its own: the inner loop is an AND and a branch-free
// zero test.
//
// This trades the lower part of the search tree for two shorter searches and
// a scan. Measured against countFast on the same sub-problems it is about as
// fast at n=14 and 1.3-2x faster at n=15..19; the half searches take about
// two thirds of the time (mostly their last level), the scans a quarter.

// maxJoinN bounds the bucket table: 2^(n-2) entries of 12 bytes per worker.
const maxJoinN = 23

// bucket is one entry of the column-set table: sorted[start:start+count]
// are the line words of the bottom halves with that column set. stamp says
// which sub-problem last wrote the entry, so the table is never cleared.
type bucket struct {
	stamp, start, count uint32
}

// joiner is one worker's scratch memory for joinCount.
type joiner struct {
	table   []bucket
	touched []uint32
	stamp   uint32
	// bottom halves found by the bottom search: column-set key, line word.
	keys  []uint32
	lines []uint64
	// bottom halves' line words, grouped by column set.
	sorted []uint64
	// set by joinCount for the top search's leaves
	freeCols uint64
	sols     uint64
	pairs    uint64
}

func newJoiner(n int) *joiner {
	return &joiner{table: make([]bucket, 1<<uint(n-2))}
}

// halfSearch runs the depth-first search of countFast over the first depth
// free rows of sp, keeping the placements that leave a free square in row
// rows[depth], the first row of the other half.
//
// At such a leaf the masks seen from row rows[depth] hold the lines of every
// queen above it, already aligned on the windows of join.go: in the top
// search (row s), dl bit j is the line col-row = j-s, so bits 1..n-1 are the
// "col-row" window, and dr bit j is the line col+row = j+s, so bits 0..n-2
// are the "col+row" window. In the mirrored bottom search the roles of dl
// and dr swap (a mirror maps one family of diagonals onto the other) and
// the same bit ranges come out, once shifted by gap: the number of
// pre-placed rows between the two halves, over which the bottom search's
// masks were not moved. The border queens' own lines (bdl, bdr, the
// masks with no inner queen) are removed: they are not part of either half.
//
// A top leaf looks its complementary column set up in the table and counts
// the compatible bottom halves (into j.sols); a bottom leaf is appended to
// j.cols and j.lines. ok is false if stop was set.
func (j *joiner) halfSearch(sp *spec, depth int, top bool, gap uint, stop func() bool) (nodes uint64, ok bool) {
	n := uint(sp.n)
	lc := leafCtx{j: j, w: uint64(1)<<(n-1) - 1, n1: n - 1, gap: gap & 63,
		bcols: sp.cols, full: sp.full, freeCols: j.freeCols,
		table: j.table, sorted: j.sorted, stamp: j.stamp}
	cols, dl, dr := sp.cols|^sp.full, sp.dl, sp.dr // see countFast
	lc.bdl, lc.bdr = dl, dr
	for k := 0; k < depth; k++ {
		st := &sp.steps[k]
		lc.bdl = lc.bdl<<(st.s1&63) | st.inj1
		lc.bdr >>= st.s1 & 63
	}
	// Rows further ahead that every leaf must still be able to fill: from
	// the first row after the half (rows[depth]), 2 and 3 free rows on.
	x := uint64(0)
	for t := depth; t < sp.m-1 && t < depth+aheadRows+1; t++ {
		x = x<<(sp.steps[t].s1&63) | sp.steps[t].inj1
		if i := t - depth - 1; i >= 0 {
			lc.ahead[i] = ahead{s: uint(int(sp.rows[t+1])-int(sp.rows[depth])) & 63, inj: x}
			lc.nAhead = i + 1
		}
	}
	if depth == 1 {
		if top {
			return lc.top(cols, dl, dr, &sp.steps[0]), true
		}
		return lc.bottom(cols, dl, dr, &sp.steps[0]), true
	}
	// The loop below is countFast's down to depth-2; the last level of
	// the half is run by leaves, one call per parent, with no stack traffic.
	var stk [32]frame
	free := ^(cols | dl | dr)
	pollDepth := max(0, depth-pollRows)
	last := depth - 2
	k := 0
	for {
		if free == 0 {
			if k == 0 {
				break
			}
			k--
			if k <= pollDepth && stop() {
				return nodes, false
			}
			f := &stk[k&31]
			cols, dl, dr, free = f.cols, f.dl, f.dr, f.free
			continue
		}
		q := free & -free
		free ^= q
		nodes++
		st := &sp.steps[k&31]
		nc := cols | q
		nl := (dl|q)<<(st.s1&63) | st.inj1
		nr := (dr | q) >> (st.s1 & 63)
		if ^(nc | nl | nr) == 0 {
			continue
		}
		// Two-row look-ahead, as in countFast: rows[k+2] exists when
		// s2 != 0, whichever half it belongs to.
		if st.s2 != 0 && ^(nc|nl<<(st.s2&63)|st.inj2|nr>>(st.s2&63)) == 0 {
			continue
		}
		if k == last {
			// Direct calls: a predictable branch is cheaper than a call
			// through a function value.
			if top {
				nodes += lc.top(nc, nl, nr, &sp.steps[(k+1)&31])
			} else {
				nodes += lc.bottom(nc, nl, nr, &sp.steps[(k+1)&31])
			}
			continue
		}
		stk[k&31] = frame{cols, dl, dr, free}
		cols, dl, dr, free = nc, nl, nr, ^(nc | nl | nr)
		k++
	}
	return nodes, true
}

// leafCtx holds what the last level of a half search needs.
type leafCtx struct {
	j           *joiner
	w           uint64 // n-1 ones: one line window
	n1, gap     uint   // n-1; see halfSearch
	bdl, bdr    uint64 // the border queens' lines at the other half's first row
	bcols, full uint64 // the border queens' columns; the board's columns
	freeCols    uint64 // the columns left to the inner queens
	table       []bucket
	sorted      []uint64
	stamp       uint32
	ahead       [aheadRows]ahead
	nAhead      int
}

// aheadRows is how many rows beyond the look-ahead of countFast a leaf of a
// half search checks for a free square before it is joined or stored.
const aheadRows = 2

// ahead moves the masks of a half's first outside row (rows[depth]) to a row
// further on: shift by s, inject inj.
type ahead struct {
	s   uint
	inj uint64
}

// fits reports whether every row checked ahead still has a free square.
func (c *leafCtx) fits(nc, nl, nr uint64) bool {
	for i := 0; i < c.nAhead; i++ {
		a := &c.ahead[i]
		if ^(nc | nl<<a.s | a.inj | nr>>a.s) == 0 {
			return false
		}
	}
	return true
}

// top runs the last level of the top search from the node (cols, dl, dr),
// st being its step: every queen that leaves a free square in the first
// bottom row is looked up and joined (into j.sols, j.pairs).
func (c *leafCtx) top(cols, dl, dr uint64, st *step) (nodes uint64) {
	s1, s2 := st.s1&63, st.s2&63
	var sols, pairs uint64
	for f := ^(cols | dl | dr); f != 0; f &= f - 1 {
		q := f & -f
		nodes++
		nc := cols | q
		nl := (dl|q)<<s1 | st.inj1
		nr := (dr | q) >> s1
		if ^(nc|nl|nr) == 0 || s2 != 0 && ^(nc|nl<<s2|st.inj2|nr>>s2) == 0 || !c.fits(nc, nl, nr) {
			continue
		}
		b := c.table[(c.freeCols&^nc)>>1] // the complementary column set
		if b.stamp != c.stamp {
			continue
		}
		xl, xr := nl&^c.bdl, nr&^c.bdr // this half's own lines
		lt := (xl>>1)&c.w | (xr&c.w)<<c.n1
		var cnt uint64
		for _, lb := range c.sorted[b.start : b.start+b.count] {
			// lt&lb < 2^52, so (lt&lb - 1) >> 63 is 1 exactly when lt&lb == 0.
			cnt += (lt&lb - 1) >> 63
		}
		sols += cnt
		pairs += uint64(b.count)
	}
	c.j.sols += sols
	c.j.pairs += pairs
	return nodes
}

// bottom runs the last level of the bottom search from the node (cols, dl,
// dr): every queen that leaves a free square in the last top row is
// appended to j.cols, j.lines.
func (c *leafCtx) bottom(cols, dl, dr uint64, st *step) (nodes uint64) {
	s1, s2 := st.s1&63, st.s2&63
	j := c.j
	for f := ^(cols | dl | dr); f != 0; f &= f - 1 {
		q := f & -f
		nodes++
		nc := cols | q
		nl := (dl|q)<<s1 | st.inj1
		nr := (dr | q) >> s1
		if ^(nc|nl|nr) == 0 || s2 != 0 && ^(nc|nl<<s2|st.inj2|nr>>s2) == 0 || !c.fits(nc, nl, nr) {
			continue
		}
		xl, xr := nl&^c.bdl, nr&^c.bdr
		j.keys = append(j.keys, uint32((nc&c.full&^c.bcols)>>1))
		j.lines = append(j.lines, (xr<<c.gap)&c.w|((xl>>(c.gap+1))&c.w)<<c.n1)
	}
	return nodes
}

// flipQueens mirrors the border queens top to bottom.
func flipQueens(n int, qs []square) []square {
	out := make([]square, len(qs))
	for i, q := range qs {
		out[i] = square{n - 1 - q.r, q.c}
	}
	return out
}

// joinCount counts the solutions of a sub-problem by joining half boards;
// see the comment at the top of this file. h is the number of free rows in
// the top half (1 ≤ h < m). nodes counts the queens placed by both half
// searches plus the pairs of halves compared.
func (j *joiner) joinCount(n int, queens []square, h int, stop func() bool) (sols, nodes uint64, ok bool) {
	top := compileQueens(n, queens)
	m := top.m
	bot := compileQueens(n, flipQueens(n, queens))

	j.keys, j.lines = j.keys[:0], j.lines[:0]
	gap := uint(int(top.rows[h]) - 1 - int(top.rows[h-1]))
	nd, ok := j.halfSearch(bot, m-h, false, gap, stop)
	nodes += nd
	if !ok {
		return 0, nodes, false
	}
	// Bucket the bottom halves by column set: a counting sort over the
	// touched table entries only.
	j.stamp++
	if j.stamp == 0 { // wrapped: old stamps could collide
		clear(j.table)
		j.stamp = 1
	}
	stamp := j.stamp
	j.touched = j.touched[:0]
	for _, key := range j.keys {
		b := &j.table[key]
		if b.stamp != stamp {
			*b = bucket{stamp: stamp}
			j.touched = append(j.touched, key)
		}
		b.count++
	}
	off := uint32(0)
	for _, key := range j.touched {
		b := &j.table[key]
		b.start = off
		off += b.count
		b.count = 0
	}
	if cap(j.sorted) < len(j.lines) {
		j.sorted = make([]uint64, len(j.lines), 2*len(j.lines))
	}
	j.sorted = j.sorted[:len(j.lines)]
	for i, key := range j.keys {
		b := &j.table[key]
		j.sorted[b.start+b.count] = j.lines[i]
		b.count++
	}

	j.freeCols = top.full &^ top.cols
	j.sols, j.pairs = 0, 0
	nd, ok = j.halfSearch(top, h, true, 0, stop)
	nodes += nd + j.pairs
	if !ok {
		return 0, nodes, false
	}
	return j.sols, nodes, true
}

// splitRows is the number of free rows given to the top half: half of them,
// but never fewer than m-6, so that the bottom half, the one kept in memory,
// has at most 6 rows. Measured at n=17..19, a 6-row bottom half is also the
// fastest split (20-30% faster than halves of equal height), and it bounds
// the join's memory: at n=20 the largest sub-problem keeps about 2 million
// bottom halves (40 MB).
func splitRows(m int) int { return min(max(1, m/2, m-6), m-1) }
