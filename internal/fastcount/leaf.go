// The last levels of the half searches and the scan of a bucket: the hot loops of the
// join, with their state in a leafCtx of locals (see the legend in doc.go).

package fastcount

import "math/bits"

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
