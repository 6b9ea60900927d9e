// The last five rows of the listing's search, solved by tables: one AND of six
// 128-bit masks gives every solution of the five rows at once.

package enumerate

import "math/bits"

// tailRows is the number of last rows solved by tables, tailPerms the orders of their
// columns: 120, two words of bits.
const (
	tailRows  = 5
	tailPerms = 120
)

// putTail prints the solutions that the tail permutations in lo (0..63) and hi (64..119)
// give to the last five rows, in that order: lexicographic.
func (l *lister) putTail(lo, hi uint64, cs *[tailRows]int32) bool {
	n := l.n
	q := l.q[:n]
	t := q[n-tailRows:]
	for w, m := range [2]uint64{lo, hi} {
		for ; m != 0; m &= m - 1 {
			pm := &l.tail.perm[(w*64+bits.TrailingZeros64(m))%tailPerms]
			for j := range t {
				t[j] = cs[pm[j]%tailRows]
			}
			if !l.put(q) {
				return false
			}
		}
	}
	return true
}

// tail holds the tables that solve the last five rows at once. With c0 < … < c4 the
// columns left, a permutation p puts column c_p[j] in relative row j; permutations are
// numbered in lexicographic order, which is the lexicographic order of the solutions
// they give. A permutation is a solution iff no queen is on a square attacked from above
// (col) and no two of the five attack each other (inner), so the solutions are the set
// bits of one AND of six 128-bit masks, with no branch per candidate.
type tail struct {
	perm [tailPerms][tailRows]uint8
	// col[i][b]: the permutations that put column c_i in a row not in b (bit j: relative
	// row j is attacked in column c_i).
	col [tailRows][1 << tailRows][2]uint64
	// inner[g]: the permutations with no diagonal attack among the five, for the gaps
	// between consecutive columns capped at 5 (a gap of 5 or more cannot be a diagonal
	// within five rows), g = Σ (min(c_{i+1}−c_i, 5) − 1)·5^i.
	inner [1024][2]uint64
	rev5  [1 << tailRows]uint8 // rev5[x]: the 5 bits of x in reverse order
}

func newTail() *tail {
	t := &tail{}
	k := 0
	var p [tailRows]uint8
	var gen func(j, used int)
	gen = func(j, used int) {
		if j == tailRows {
			t.perm[k] = p
			k++
			return
		}
		for i := range tailRows {
			if used&(1<<i) == 0 {
				p[j] = uint8(i)
				gen(j+1, used|1<<i)
			}
		}
	}
	gen(0, 0)
	for x := range t.rev5 {
		for j := range tailRows {
			t.rev5[x] |= uint8(x>>j&1) << (tailRows - 1 - j)
		}
	}
	// Two of the five attack each other iff their columns are as far apart as their rows.
	// Per pair of columns (10 pairs, 5 bits each), gaps[g] marks the column distance
	// (capped at 5) and rows[k] the row distance under permutation k: a permutation is
	// free of inner attacks iff the two masks share no bit.
	var gaps [1024]uint64
	for g := range pow(tailRows, tailRows-1) {
		var col [tailRows]int
		for i, x := 1, g; i < tailRows; i, x = i+1, x/tailRows {
			col[i] = col[i-1] + x%tailRows + 1
		}
		for i, pair := 1, 0; i < tailRows; i++ {
			for h := 0; h < i; h, pair = h+1, pair+1 {
				gaps[g] |= 1 << (tailRows*pair + min(col[i]-col[h], tailRows) - 1)
			}
		}
	}
	for k, p := range t.perm {
		w, bit := k/64, uint64(1)<<(k%64)
		var row [tailRows]int // row[i]: the relative row of column c_i
		for j, i := range p {
			row[i] = j
		}
		for i := range tailRows {
			for b := range 1 << tailRows {
				if b&(1<<row[i]) == 0 {
					t.col[i][b][w] |= bit
				}
			}
		}
		var rows uint64
		for i, pair := 1, 0; i < tailRows; i++ {
			for h := 0; h < i; h, pair = h+1, pair+1 {
				rows |= 1 << (tailRows*pair + max(row[i]-row[h], row[h]-row[i]) - 1)
			}
		}
		for g := range pow(tailRows, tailRows-1) {
			if gaps[g]&rows == 0 {
				t.inner[g][w] |= bit
			}
		}
	}
	return t
}

func pow(a, b int) int {
	r := 1
	for range b {
		r *= a
	}
	return r
}
