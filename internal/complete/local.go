package complete

import (
	"context"
	"math/rand/v2"
)

// localSearch looks for a completion by min-conflicts repair of a permutation: the free
// columns are dealt to the free rows, so rows and columns never conflict, and pairs of
// free queens swap columns until no diagonal holds two queens. The fixed queens never
// move, but they count on their diagonals. It gives up after maxSwaps swap attempts.
//
// Diagonal counters dd[r−c+n−1] and aa[r+c] hold every queen, so a swap is evaluated in
// O(1): take both queens off their diagonals, put them on the new ones, and compare the
// number of queens in excess on these (at most 8) diagonals.
func localSearch(ctx context.Context, fixed []int32, rng *rand.Rand, maxSwaps uint64) ([]int32, uint64, error) {
	b, cols := newRepairBoard(fixed)
	b.deal(cols, rng)
	var bad []int32 // free rows that may be in conflict
	for _, r := range b.rows {
		if b.conflicted(r) {
			bad = append(bad, r)
		}
	}
	var swaps uint64
	for len(bad) > 0 {
		if swaps > maxSwaps {
			return nil, swaps, errLimit
		}
		if swaps&1023 == 0 && ctx.Err() != nil {
			return nil, swaps, ctx.Err()
		}
		k := rng.IntN(len(bad))
		a := bad[k]
		if !b.conflicted(a) {
			bad[k] = bad[len(bad)-1]
			bad = bad[:len(bad)-1]
			continue
		}
		if r, ok := b.swapFrom(a, rng, &swaps); ok && b.conflicted(r) {
			bad = append(bad, r)
		}
	}
	return b.q, swaps, nil
}

// repairBoard is localSearch's board: the queens by row, the free rows, and the queens on
// each diagonal.
type repairBoard struct {
	n    int
	q    []int32
	rows []int32 // the free rows
	dd   []int32 // queens on the diagonal r−c+n−1
	aa   []int32 // queens on the anti-diagonal r+c
}

// newRepairBoard returns the board of the fixed queens, with the free rows and the free
// columns (cols), none of them dealt yet.
func newRepairBoard(fixed []int32) (b *repairBoard, cols []int32) {
	n := len(fixed)
	b = &repairBoard{n: n, q: make([]int32, n), dd: make([]int32, 2*n), aa: make([]int32, 2*n)}
	copy(b.q, fixed)
	used := make([]bool, n)
	for r, c := range fixed {
		if c >= 0 {
			used[c] = true
			b.move(int32(r), c, 1)
		} else {
			b.rows = append(b.rows, int32(r))
		}
	}
	for c := range n {
		if !used[c] {
			cols = append(cols, int32(c))
		}
	}
	return b, cols
}

// deal is the greedy start: each free row, in random order, takes a random remaining
// column of cols that is free of diagonal conflicts if one turns up in a few draws.
func (b *repairBoard) deal(cols []int32, rng *rand.Rand) {
	n, rows, m := b.n, b.rows, len(b.rows)
	rng.Shuffle(m, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	for i, r := range rows {
		for try := 0; try < 16; try++ {
			j := i + rng.IntN(m-i)
			c := cols[j]
			if b.dd[int(r)-int(c)+n-1] == 0 && b.aa[int(r)+int(c)] == 0 {
				cols[i], cols[j] = cols[j], cols[i]
				break
			}
			if try == 15 {
				cols[i], cols[j] = cols[j], cols[i]
			}
		}
		c := cols[i]
		b.q[r] = c
		b.move(r, c, 1)
	}
}

// swapFrom tries up to 32 swaps of the columns of the free row a and a random free row,
// counting them in swaps, and makes the first that lowers the queens in excess on the
// diagonals of both, or rarely a sideways or worse one to leave a plateau. It returns the
// other row and whether it swapped.
func (b *repairBoard) swapFrom(a int32, rng *rand.Rand, swaps *uint64) (int32, bool) {
	for try := 0; try < 32; try++ {
		*swaps++
		r := b.rows[rng.IntN(len(b.rows))]
		if r == a {
			continue
		}
		ca, cb := b.q[a], b.q[r]
		before := b.excess(a, ca) + b.excess(r, cb)
		b.move(a, ca, -1)
		b.move(r, cb, -1)
		b.move(a, cb, 1)
		b.move(r, ca, 1)
		after := b.excess(a, cb) + b.excess(r, ca)
		if after < before || (try == 31 && rng.IntN(8) == 0) {
			b.q[a], b.q[r] = cb, ca
			return r, true
		}
		b.move(a, cb, -1)
		b.move(r, ca, -1)
		b.move(a, ca, 1)
		b.move(r, cb, 1)
	}
	return 0, false
}

// conflicted reports whether the queen of row r shares a diagonal.
func (b *repairBoard) conflicted(r int32) bool {
	c := b.q[r]
	return b.dd[int(r)-int(c)+b.n-1] > 1 || b.aa[int(r)+int(c)] > 1
}

// excess is the number of queens in excess on the diagonals of (r, c).
func (b *repairBoard) excess(r, c int32) int32 {
	return max(b.dd[int(r)-int(c)+b.n-1]-1, 0) + max(b.aa[int(r)+int(c)]-1, 0)
}

// move adds d queens on the diagonals of (r, c).
func (b *repairBoard) move(r, c int32, d int32) {
	b.dd[int(r)-int(c)+b.n-1] += d
	b.aa[int(r)+int(c)] += d
}
