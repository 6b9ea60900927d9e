package fastcount

import (
	"math/bits"
	"slices"
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
func (j *joiner) halfSearch(sp *spec, depth int, top bool, pm uint64, shift uint, injS uint64, stop func() bool) (nodes uint64, ok bool) {
	n := uint(sp.n)
	lc := leafCtx{j: j, w: uint64(1)<<(n-1) - 1, n1: n - 1, pm: pm, tS: shift & 63, gap: shift & 63, injS: injS,
		bcols: sp.cols, full: sp.full, freeCols: j.freeCols,
		table: j.table, planes: j.planes, wp: uint32(j.wp), cells: j.cells, cut: j.cut, stamp: j.stamp,
		linear: j.linear, sorted: j.sorted, batch: j.batching, sub: j.sub}
	lc.rings = lineRings(sp.n)
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

// leafCtx holds what the last level of a half search needs.
type leafCtx struct {
	j           *joiner
	w           uint64 // n-1 ones: one line window
	n1          uint   // n-1
	pm          uint64 // the columns a queen may be placed on
	tS          uint   // top: rows from the leaf's row to row s
	gap         uint   // bottom: rows from row s-1 up to the next free row
	injS        uint64 // top: lines entering column 0 on the way
	bdl, bdr    uint64 // bottom: the border queens' lines at row s-1
	bcols, full uint64 // the border queens' columns; the board's columns
	freeCols    uint64 // the columns left to the inner queens
	table       []bucket
	planes      []uint64
	wp          uint32
	cells       []cell
	cut         cutter
	linear      bool
	sorted      []uint64
	batch       bool      // top: append the leaves to j.batch instead of joining
	sub         uint32    // top: the sub-problem's index in its group
	rings       [3]uint64 // the line bits, from the middle of the windows out
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
		xl, xr := nl, nr // the lines at row s
		if c.tS != s1 {  // row s is not the next free row
			xl = (dl|q)<<c.tS | c.injS
			xr = (dr | q) >> c.tS
		}
		lt := (xl>>1)&c.w | (xr&c.w)<<c.n1
		if c.linear {
			// Small buckets: compare the line words one by one.
			var cnt uint64
			for _, lb := range c.sorted[b.sub : b.sub+b.count] {
				// lt&lb < 2^52, so (lt&lb - 1) >> 63 is 1 exactly when lt&lb == 0.
				cnt += (lt&lb - 1) >> 63
			}
			sols += cnt
			pairs += uint64(b.count)
			continue
		}
		if c.batch {
			// Joined later, with the other top halves of the group that
			// look up the same bucket (batch.go).
			c.j.batch = append(c.j.batch, topRec{lt: lt, bucket: b.id, sub: c.sub})
			continue
		}
		n, p := c.scan(&b, lt)
		sols += n
		pairs += p
	}
	c.j.sols += sols
	c.j.pairs += pairs
	return nodes
}

// scan counts the bottom halves of bucket b whose line words have no bit in
// common with lt, and the halves it compared.
func (c *leafCtx) scan(b *bucket, lt uint64) (sols, pairs uint64) {
	if c.linear {
		// Small buckets: compare the line words one by one.
		var cnt uint64
		for _, lb := range c.sorted[b.sub : b.sub+b.count] {
			// lt&lb < 2^52, so (lt&lb - 1) >> 63 is 1 exactly when lt&lb == 0.
			cnt += (lt&lb - 1) >> 63
		}
		return cnt, uint64(b.count)
	}
	// This half's lines as plane indices, the middle lines first (they
	// are the likeliest to rule out bottom halves), padded to a multiple
	// of 4 with the block's empty plane.
	var idx [64]uint8
	ni := 0
	for r := range c.rings {
		for m := lt & c.rings[r]; m != 0; m &= m - 1 {
			idx[ni&63] = uint8(bits.TrailingZeros64(m))
			ni++
		}
	}
	for ni&3 != 0 {
		idx[ni&63] = uint8(c.wp - 1)
		ni++
	}
	// The cells whose cut lines avoid this half's, and in each block of
	// them the halves that use none of this half's lines.
	cells := c.cells[b.sub : b.sub+c.cut.cells()]
	free := ^c.cut.index(lt) & (c.cut.cells() - 1)
	for i := free; ; i = (i - 1) & free {
		e := cells[i&(c.cut.cells()-1)]
		off := int(e.start * c.wp)
		for rest := int(e.count); rest > 0; rest -= 64 {
			acc := ^uint64(0)
			if rest < 64 {
				acc = 1<<rest - 1
			}
			blk := (*[64]uint64)(c.planes[off : off+64])
			for t := 0; t+3 < ni && t < 64; t += 4 {
				acc &^= blk[idx[t]&63] | blk[idx[t+1]&63] | blk[idx[t+2]&63] | blk[idx[t+3]&63]
				if acc == 0 {
					break
				}
			}
			sols += uint64(bits.OnesCount64(acc))
			off += int(c.wp)
		}
		pairs += uint64(e.count)
		if i == 0 {
			break
		}
	}
	return sols, pairs
}

// bottom runs the last level of the bottom search from the node (cols, dl,
// dr): every queen that leaves a free square in the last top row is
// appended to j.keys, j.lines.
func (c *leafCtx) bottom(cols, dl, dr uint64, st *step) (nodes uint64) {
	s1, s2 := st.s1&63, st.s2&63
	j := c.j
	for f := ^(cols | dl | dr) & c.pm; f != 0; f &= f - 1 {
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

// bottomRows is the number of board rows below the cut (row n-1 included):
// s = n - bottomRows(n).
// sharedGroups tells whether the sub-problems of an n×n board share bottom
// halves (joinLayouts) or each have their own (fullLayout). Measured at
// n=15..18 against the unshared join: 1.5x fewer instructions at n=15,
// 1.2-1.4x less time at n=16, even at n=17, slower at n=18 (the bottom
// halves of a group, knowing only the border queens below the cut, grow
// about 6x per n).
func sharedGroups(n int) bool { return n <= maxSharedN }

// bottomRows is the largest number of board rows below the cut, row n-1
// included, with shared bottom halves; minBottomRows the smallest (see
// joinLayouts). Measured best at n=15..17 among n-9..n-6.
func bottomRows(n int) int    { return max(2, n-7) }
func minBottomRows(n int) int { return max(2, n-9) }

// layout is how a sub-problem is joined: the image of its border queens
// (in board coordinates), the cut s and the group key.
type layout struct {
	img []square
	s   int
	key uint64
	// full: the bottom search knows every border queen, not only those
	// below the cut (the group is then the sub-problem alone).
	full bool
}

// joinLayouts chooses, for every sub-problem of p with a trivial
// stabiliser, the image to count and the cut, so that many sub-problems
// share the same group (the same border queens below the cut) and so the
// same bottom halves: the cut lies between bottomRows(n) and
// minBottomRows(n) rows above the bottom border, preferring images and cuts
// that leave only the bottom queen below the cut (groups then differ only by
// the bottom queen's column and the cut), then the lowest cut, then the
// smallest key. Computed once per plan.
func (p *Plan) joinLayouts() []layout {
	p.layoutOnce.Do(func() {
		n := p.N
		out := make([]layout, len(p.Subs))
		for i, sub := range p.Subs {
			if sub.Kind == KindWhole || sub.Stab != 1 {
				continue
			}
			if sharedGroups(n) {
				out[i] = chooseLayout(n, sub.queens(n))
			} else {
				out[i] = fullLayout(n, sub.queens(n))
			}
		}
		p.layouts = out
	})
	return p.layouts
}

// chooseLayout picks the layout of one sub-problem; see joinLayouts.
func chooseLayout(n int, qs []square) layout {
	var best layout
	bestNK := 0
	for g := 0; g < 8; g++ {
		img := make([]square, len(qs))
		corner := false
		for k, q := range qs {
			img[k] = transform(g, n, q)
			corner = corner || img[k].r == n-1 && (img[k].c == 0 || img[k].c == n-1)
		}
		if corner {
			// A corner queen below the cut leaves the bottom search a
			// free side column: its group has 3x the bottom halves of any
			// other (at n=16: 0.9 M, 0.12 s to build, against 0.3 M), a
			// grain too coarse for progress and checkpoints. The image
			// with the corner on top serves as well.
			continue
		}
		for br := bottomRows(n); br >= minBottomRows(n); br-- {
			s := n - br
			if s < 1 || !joinable(n, img, s) {
				continue
			}
			key, nk := groupKeyOf(n, img, s, false)
			// Fewer queens below the cut first; among those, the most rows
			// below the cut (the key's s is smaller), then the smallest key.
			if best.img == nil || nk < bestNK || nk == bestNK && key < best.key {
				best, bestNK = layout{img: img, s: s, key: key}, nk
			}
		}
	}
	return best
}

// fullLayout is the layout of a sub-problem whose bottom halves are not
// shared: the image of orient (the smallest top-down tree), cut so that the
// bottom half has the free rows of splitRows.
func fullLayout(n int, qs []square) layout {
	img := orient(n, qs)
	sp := compileQueens(n, img)
	if sp.m < 2 {
		return layout{}
	}
	s := int(sp.rows[splitRows(sp.m)])
	key, _ := groupKeyOf(n, img, s, true)
	return layout{img: img, s: s, key: key, full: true}
}

// splitRows is the number of free rows given to the top half when the
// bottom halves are not shared: half of them, but never fewer than m-6, so
// that the bottom half, the one kept in memory, has at most 6 rows.
func splitRows(m int) int { return min(max(1, m/2, m-6), m-1) }

// groupKeyOf encodes s and the queens of img at or below row s, sorted, in
// one word; nk is their number.
func groupKeyOf(n int, img []square, s int, full bool) (key uint64, nk int) {
	var below []int
	for _, q := range img {
		if full || q.r >= s {
			below = append(below, q.r<<5|q.c)
		}
	}
	slices.Sort(below)
	key = uint64(s)
	for _, b := range below {
		key = key<<10 | uint64(b)
	}
	return key | uint64(len(below))<<60, len(below)
}

// joinable reports whether the layout leaves at least one free row on each
// side of the cut, as joinCount needs.
func joinable(n int, img []square, s int) bool {
	above, below := s-1, n-s
	for _, q := range img {
		if q.r == 0 {
			continue
		}
		if q.r < s {
			above--
		} else {
			below--
		}
	}
	return above >= 1 && below >= 1
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
	if _, ok := j.halfSearch(bot, d, false, ^edges, gap, 0, stop); !ok {
		return false
	}
	j.bottoms = uint64(len(j.keys))
	// Bucket the bottom halves by column set and cut pattern (a counting
	// sort over the touched table entries only) and bit-slice each cell
	// into blocks of 64 halves.
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
	j.linear = len(j.keys) < linearMax*len(j.touched)
	if j.forceMode {
		j.linear = j.forceCut < 0
	}
	if j.linear {
		off := uint32(0)
		for _, key := range j.touched {
			b := &j.table[key]
			b.sub = off
			off += b.count
			b.count = 0
		}
		if cap(j.sorted) < len(j.lines) {
			j.sorted = make([]uint64, len(j.lines), 2*len(j.lines))
		}
		j.sorted = j.sorted[:len(j.lines)]
		for i, key := range j.keys {
			b := &j.table[key]
			j.sorted[b.sub+b.count] = j.lines[i]
			b.count++
		}
		return true
	}
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
	// start is first the cell's first block, and count the cursor (halves
	// placed so far) while the planes are filled. A block has a plane per
	// line and an empty plane (for padding), and 64 more words follow the
	// last block so that a block can be read as a [64]uint64.
	// The line words are first sorted by cell (cursor: the next slot of
	// each cell in sorted), so that the planes are then filled in order.
	wp := 2*n - 1
	blocks := uint32(0)
	j.cursor = j.cursor[:0]
	off := uint32(0)
	for i := range j.cells {
		e := &j.cells[i]
		e.start = blocks
		blocks += (e.count + 63) >> 6
		j.cursor = append(j.cursor, off)
		off += e.count
	}
	if cap(j.sorted) < len(j.lines) {
		j.sorted = make([]uint64, len(j.lines), 2*len(j.lines))
	}
	j.sorted = j.sorted[:len(j.lines)]
	for i, key := range j.keys {
		l := j.lines[i]
		c := &j.cursor[j.table[key].sub+j.cut.index(l)]
		j.sorted[*c] = l
		*c++
	}
	size := int(blocks)*wp + 64
	if cap(j.planes) < size {
		j.planes = make([]uint64, size, size+size/4)
	}
	j.planes = j.planes[:size]
	j.wp = wp
	off = 0
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
	return true
}

// maxCutBits bounds the number of lines used to split a bucket into cells:
// a top half only visits the cells of the bottom halves that avoid its own
// lines among these (about a quarter of the cells with 4 cut lines).
const maxCutBits = 6

// cutter extracts the k cut lines of a line word: the "col-row" lines and
// the "col+row" lines closest to the middle of the board, those most likely
// to carry queens of both halves.
type cutter struct {
	p1, p2 uint   // first cut bit of each window
	m1, m2 uint64 // cut bits taken from each window, at bit 0
	k2     uint   // bits taken from the second window
	k      uint
}

func newCutter(n, k int) cutter {
	k1 := (k + 1) / 2
	k2 := k - k1
	return cutter{
		p1: uint(max(0, (n-1-k1)/2)), p2: uint(n - 1 + max(0, (n-1-k2)/2)),
		m1: 1<<uint(k1) - 1, m2: 1<<uint(k2) - 1, k2: uint(k2), k: uint(k),
	}
}

// cells is the number of cells per bucket, 2^k.
func (c cutter) cells() uint32 { return 1 << c.k }

// index returns the cut pattern of a line word, in 0..2^k-1.
func (c cutter) index(l uint64) uint32 {
	return uint32(l>>(c.p2&63)&c.m2 | (l>>(c.p1&63)&c.m1)<<(c.k2&63))
}

// lineRings splits the bits of a line word (two windows of n-1 lines) into
// three rings by distance from the middle of the windows: the middle
// quarter, the middle half and the rest.
func lineRings(n int) (r [3]uint64) {
	w := n - 1
	for i := 0; i < w; i++ {
		d := 2*i - (w - 1) // twice the distance from the middle
		if d < 0 {
			d = -d
		}
		ring := 2
		switch {
		case 4*d <= w:
			ring = 0
		case 2*d <= w:
			ring = 1
		}
		r[ring] |= 1<<uint(i) | 1<<uint(w+i)
	}
	return r
}

// transpose64 transposes a 64×64 bit matrix: bit i of a[l] becomes bit l of
// a[i] (rows of line words in, one plane per line out). Six rounds swap
// ever smaller blocks of bits (Hacker's Delight, 7-3).
func transpose64(a *[64]uint64) {
	j := uint(32)
	m := uint64(0x00000000FFFFFFFF)
	for j != 0 {
		for k := uint(0); k < 64; k = (k + j + 1) &^ j {
			t := (a[k&63]>>j ^ a[(k+j)&63]) & m
			a[k&63] ^= t << j
			a[(k+j)&63] ^= t
		}
		j >>= 1
		m ^= m << j
	}
}
