// Bit-sliced buckets: the cut lines that split a large bucket of bottom halves into
// cells, and the 64×64 transpose that turns 64 line words into one plane per line.

package fastcount

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
