package fastcount

import (
	"time"
)

// Joining half boards (meet in the middle), with bottom halves shared by
// sub-problems.
//
// A sub-problem's board is cut between rows s-1 and s. The top half is the
// inner queens of rows 1..s-1, the bottom half those of rows s..n-2. A top
// and a bottom half combine into a solution exactly when
//
//   - their queens' columns are disjoint: as the halves hold as many queens as
//     the free columns, this means the bottom half uses exactly the free
//     columns the top half left; and
//   - no diagonal line carries a queen of each half.
//
// The top half is enumerated by the search of countFast over the free rows
// above s, knowing every border queen. The bottom half is enumerated on the
// vertically mirrored board (so that it also runs top-down). Up to
// maxSharedN it knows only the border queens at or below row s, its group
// (joinLayouts): every sub-problem whose oriented border queens below the cut
// are the same shares the same bottom halves (about 60 groups for 3,000
// sub-problems at n=16), and the pool hands out a group's sub-problems
// together (countGroup). The border queens above the cut act on a bottom
// half only through the join: the column of the top queen is never in a top
// half's complement, and the top half's line word carries the lines of the
// border queens above the cut. Beyond maxSharedN the bottom halves of a
// group would not fit in memory, and the bottom search knows every border
// queen (fullLayout): one sub-problem per group.
//
// Only the lines that cross the cut matter: of the "col-row" lines (index
// col-row+n-1) those in [n-s, 2n-2-s], of the "col+row" lines those in
// [s, n+s-2]; each window is n-1 wide, so one uint64 (2n-2 ≤ 52 bits) holds
// every line a half uses that the other half could meet. A top half's word
// holds the lines of its queens and of every border queen, a bottom half's
// word only those of its own queens (they avoid the lines of the border
// queens their search knows, so those lines in the top word never meet
// them). The bottom halves are bucketed by column set in a table indexed by
// the column mask; each top half counts the halves of the bucket of its
// complementary column set whose line word has no bit in common with its
// own. Small buckets are scanned word by word (an AND and a branch-free zero
// test); larger ones are split into cells by a few "cut" lines near the
// middle of the board (a top half visits only the cells that avoid its own
// cut lines) and bit-sliced: for 64 bottom halves at once, one word per line
// tells which of them use it, so that ANDing out the planes of the top
// half's lines leaves the compatible ones, usually after a handful of
// planes (scan).

// maxJoinN bounds the bucket table: 2^(n-2) entries of 16 bytes per worker.
const maxJoinN = 23

// maxSharedN is the largest n whose sub-problems share bottom halves.
const maxSharedN = 17

// bucket is one entry of the column-set table: the count bottom halves with
// that column set, bit-sliced in blocks of 64 from block start on (see
// joiner.planes). stamp says which group last wrote the entry, so the table
// is never cleared.
type bucket struct {
	stamp uint32
	sub   uint32 // the bucket's cells are cells[sub:sub+1<<cut.k] (linear: its first half)
	count uint32 // the bucket's halves
	id    uint32 // the bucket's index among the group's buckets
}

// linearMax: groups whose buckets hold fewer halves than this on average
// are scanned linearly rather than bit-sliced.
const linearMax = 96

// cell is the part of a bucket whose halves have one pattern of cut lines
// (see cutIndex): count halves bit-sliced in blocks from block start on.
type cell struct {
	start, count uint32
}

// joiner is one worker's scratch memory for joinCount, and its cache of the
// last group's bottom halves.
type joiner struct {
	n       int
	table   []bucket
	touched []uint32
	stamp   uint32
	// key and bottoms of the group whose halves are in the table.
	haveKey bool
	key     uint64
	bottoms uint64
	// bottom halves found by the bottom search: column-set key, line word.
	keys  []uint32
	lines []uint64
	// planes holds the line words bit-sliced: block b (64 bottom halves of
	// one cell) is planes[b*wp:(b+1)*wp], and bit i of its word l is set
	// when the block's half i uses line l (bit l of its line word); its
	// last word is 0.
	planes []uint64
	wp     int // words per block: 2n-1
	cells  []cell
	cut    cutter
	// linear: the buckets are small (below linearMax halves on average),
	// and their line words are sorted[sub:sub+count], compared one by one.
	linear bool
	sorted []uint64
	cursor []uint32
	// For tests: forceCut ≥ 0 makes every group bit-sliced with forceCut
	// cut lines, forceCut = -1 makes every group linear; 0 value: choose.
	forceCut  int
	forceMode bool
	// the top leaves waiting to be joined, and the group's counts
	batching bool
	sub      uint32
	batch    []topRec
	batchTmp []topRec
	starts   []uint32
	gSols    []uint64
	gPairs   []uint64
	gOwn     []uint64 // the solutions joined at once, by sub-problem
	gNodes   []uint64 // the top searches' work, by sub-problem
	// reportEvery is the constant reportEvery; tests set 0 to join the
	// batch after every sub-problem.
	reportEvery time.Duration
	// set by joinCount for the top search's leaves
	freeCols uint64
	sols     uint64
	pairs    uint64
}

func newJoiner(n int) *joiner {
	return &joiner{n: n, table: make([]bucket, 1<<uint(n-2)), reportEvery: reportEvery}
}

// halfSearch runs the depth-first search of countFast over the first depth
// free rows of sp, keeping the placements that leave a free square in row
// rows[depth], the first row of the other half. Queens are placed only on
// the columns of pm (the bottom search leaves the border columns 0 and n-1
// to the side queens, which it does not know when they are above the cut).
//
// A top leaf computes the masks at row s (shift rows below its own row, the
// lines entering column 0 on the way being injS): there dl bit j is the line
// col-row = j-s, so bits 1..n-1 are the "col-row" window, and dr bit j is
// the line col+row = j+s, so bits 0..n-2 are the "col+row" window. It looks
// its complementary column set up in the table and counts the compatible
// bottom halves (into j.sols), or appends itself to j.batch (countGroup).
//
// A bottom leaf's masks at the next free row of the mirrored board, shift
// rows after row s-1 of the board (0 unless the search knows border queens
// above the cut), hold the same windows with the roles of dl and dr swapped
// (a mirror maps one family of diagonals onto the other), once moved back by
// shift. The lines of the border queens the search knows (bdl, bdr) are
// removed; the leaf is appended to j.keys and j.lines. ok is false if stop
// was set.
//
// Its loop is one function on purpose: it is the join's hot search (every
// node of every top and bottom half); only the leaves' setup is apart
// (newLeafCtx).
func (j *joiner) halfSearch(sp *spec, depth int, top bool, pm uint64, shift uint, injS uint64, stop func() bool) (nodes uint64, ok bool) {
	lc := j.newLeafCtx(sp, depth, pm, shift, injS)
	cols, dl, dr := sp.cols|^sp.full, sp.dl, sp.dr // see countFast
	if depth == 1 {
		if top {
			return lc.top(cols, dl, dr, &sp.steps[0]), true
		}
		return lc.bottom(cols, dl, dr, &sp.steps[0]), true
	}
	// The loop below is countFast's down to depth-2; the last level of
	// the half is run by leaves, one call per parent, with no stack traffic.
	var stk [32]frame
	free := ^(cols | dl | dr) & pm
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
		nf := ^(nc | nl | nr) & pm
		if nf == 0 {
			continue
		}
		// Two-row look-ahead, as in countFast: rows[k+2] exists when
		// s2 != 0, whichever half it belongs to. (Without pm: a row above
		// the cut may hold a side queen.)
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
		cols, dl, dr, free = nc, nl, nr, nf
		k++
	}
	return nodes, true
}

// newLeafCtx returns what the leaves of halfSearch(sp, depth, ...) need: the
// joiner's table and planes, the border queens' lines at the half's last row
// (bdl, bdr) and the rows ahead every leaf must still be able to fill.
func (j *joiner) newLeafCtx(sp *spec, depth int, pm uint64, shift uint, injS uint64) leafCtx {
	n := uint(sp.n)
	lc := leafCtx{j: j, w: uint64(1)<<(n-1) - 1, n1: n - 1, pm: pm, tS: shift & 63, gap: shift & 63, injS: injS,
		bcols: sp.cols, full: sp.full, freeCols: j.freeCols,
		table: j.table, planes: j.planes, wp: uint32(j.wp), cells: j.cells, cut: j.cut, stamp: j.stamp,
		linear: j.linear, sorted: j.sorted, batch: j.batching, sub: j.sub}
	lc.rings = lineRings(sp.n)
	lc.bdl, lc.bdr = sp.dl, sp.dr
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
	return lc
}

// joinCount counts the solutions of a sub-problem, given as its border
// queens img cut at row s (group key key, see joinLayout), by joining half
// boards; see the comment at the top of this file. The bottom halves of the
// group are reused when the previous call had the same key. nodes counts
// the queens placed by the top search, the pairs of halves compared and
// the group's bottom halves (charged to every sub-problem, so that it does
// not depend on which worker enumerated them).
func (j *joiner) joinCount(n int, l layout, stop func() bool) (sols, nodes uint64, ok bool) {
	img, s, key := l.img, l.s, l.key
	if !j.haveKey || j.key != key {
		if !j.buildBottoms(n, img, s, l.full, stop) {
			return 0, 0, false
		}
		j.haveKey, j.key = true, key
	}
	top := compileQueens(n, img)
	h := 0
	for h < top.m && int(top.rows[h]) < s {
		h++
	}
	// The masks at row s from the last top row: shift by tS, injecting the
	// dl lines of border queens that enter column 0 on the way.
	r0 := int(top.rows[h-1])
	injS := uint64(0)
	for _, q := range img {
		if e := q.r - q.c; q.c < q.r && e > r0 && e <= s {
			injS |= 1 << uint(s-e)
		}
	}
	j.freeCols = top.full &^ top.cols
	j.sols, j.pairs = 0, 0
	nd, ok := j.halfSearch(top, h, true, ^uint64(0), uint(s-r0), injS, stop)
	if !ok {
		return 0, 0, false
	}
	return j.sols, nd + j.pairs + j.bottoms, true
}

// buildBottoms enumerates the bottom halves of the group of img cut at s and
// buckets them by column set. It returns false if stop was seen set; the
// cache is then invalid.
func (j *joiner) buildBottoms(n int, img []square, s int, full bool, stop func() bool) bool {
	j.haveKey = false
	if !j.searchBottoms(n, img, s, full, stop) {
		return false
	}
	j.bottoms = uint64(len(j.keys))
	// Bucket the bottom halves by column set and cut pattern (a counting
	// sort over the touched table entries only) and bit-slice each cell
	// into blocks of 64 halves.
	j.countBuckets()
	j.linear = len(j.keys) < linearMax*len(j.touched)
	if j.forceMode {
		j.linear = j.forceCut < 0
	}
	if j.linear {
		j.sortLinear()
		return true
	}
	blocks := j.sortCells(n)
	j.fillPlanes(n, blocks)
	return true
}

// searchBottoms runs the bottom search of the group of img cut at s on the
// mirrored board, leaving its halves' column-set keys and line words in
// j.keys and j.lines. It returns false if stop was seen set.
func (j *joiner) searchBottoms(n int, img []square, s int, full bool, stop func() bool) bool {
	var below []square
	for _, q := range img {
		if full || q.r >= s {
			below = append(below, q)
		}
	}
	bot := compileQueens(n, flipQueens(n, below))
	d := 0 // free rows of the mirrored board below its row n-s
	for d < bot.m && int(bot.rows[d]) < n-s {
		d++
	}
	edges := uint64(1) | uint64(1)<<uint(n-1)
	j.keys, j.lines = j.keys[:0], j.lines[:0]
	// The next free row of the mirrored board is row n-s (row s-1 of the
	// board) unless the bottom search knows border queens above the cut.
	gap := uint(int(bot.rows[d]) - (n - s))
	_, ok := j.halfSearch(bot, d, false, ^edges, gap, 0, stop)
	return ok
}

// countBuckets starts a new stamp and counts the bottom halves of each
// column set in its table entry, listing the entries it touches in
// j.touched (each with its index there as id).
func (j *joiner) countBuckets() {
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
			*b = bucket{stamp: stamp, id: uint32(len(j.touched))}
			j.touched = append(j.touched, key)
		}
		b.count++
	}
}

// sortLinear lays the buckets out for the linear scan: each bucket's line
// words are sorted[sub:sub+count].
func (j *joiner) sortLinear() {
	off := uint32(0)
	for _, key := range j.touched {
		b := &j.table[key]
		b.sub = off
		off += b.count
		b.count = 0
	}
	j.growSorted()
	for i, key := range j.keys {
		b := &j.table[key]
		j.sorted[b.sub+b.count] = j.lines[i]
		b.count++
	}
}

// growSorted makes j.sorted as long as j.lines.
func (j *joiner) growSorted() {
	if cap(j.sorted) < len(j.lines) {
		j.sorted = make([]uint64, len(j.lines), 2*len(j.lines))
	}
	j.sorted = j.sorted[:len(j.lines)]
}

// sortCells chooses the cut lines, splits each bucket into its cells (each
// with its count and its first block, start) and sorts the line words by
// cell into j.sorted. It returns the number of blocks of 64 halves.
func (j *joiner) sortCells(n int) (blocks uint32) {
	// As many cut lines as keep the cells at 64 halves or more on average
	// (a cell costs at least one block to scan).
	k := 0
	for k < maxCutBits && len(j.keys)>>uint(k+1) >= 64*len(j.touched) {
		k++
	}
	if j.forceMode {
		k = j.forceCut
	}
	j.cut = newCutter(n, k)
	nc := uint32(j.cut.cells())
	j.cells = j.cells[:0]
	for _, key := range j.touched {
		b := &j.table[key]
		b.sub = uint32(len(j.cells))
		j.cells = append(j.cells, make([]cell, nc)...)
	}
	for i, key := range j.keys {
		j.cells[j.table[key].sub+j.cut.index(j.lines[i])].count++
	}
	// The line words are sorted by cell (cursor: the next slot of each
	// cell in sorted), so that fillPlanes fills the planes in order.
	j.cursor = j.cursor[:0]
	off := uint32(0)
	for i := range j.cells {
		e := &j.cells[i]
		e.start = blocks
		blocks += (e.count + 63) >> 6
		j.cursor = append(j.cursor, off)
		off += e.count
	}
	j.growSorted()
	for i, key := range j.keys {
		l := j.lines[i]
		c := &j.cursor[j.table[key].sub+j.cut.index(l)]
		j.sorted[*c] = l
		*c++
	}
	return blocks
}

// fillPlanes bit-slices the sorted line words of each cell into its blocks
// of j.planes. A block has a plane per line and an empty plane (for
// padding), and 64 more words follow the last block so that a block can be
// read as a [64]uint64.
func (j *joiner) fillPlanes(n int, blocks uint32) {
	wp := 2*n - 1
	size := int(blocks)*wp + 64
	if cap(j.planes) < size {
		j.planes = make([]uint64, size, size+size/4)
	}
	j.planes = j.planes[:size]
	j.wp = wp
	off := uint32(0)
	var blk [64]uint64
	for _, e := range j.cells {
		ls := j.sorted[off : off+e.count]
		for b := 0; len(ls) > 0; b++ {
			k := copy(blk[:], ls)
			clear(blk[k:])
			transpose64(&blk)
			copy(j.planes[(int(e.start)+b)*wp:(int(e.start)+b+1)*wp], blk[:wp])
			ls = ls[k:]
		}
		off += e.count
	}
}
