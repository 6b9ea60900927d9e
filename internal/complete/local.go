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
	n := len(fixed)
	q := make([]int32, n)
	copy(q, fixed)
	used := make([]bool, n)
	var rows, cols []int32
	for r, c := range fixed {
		if c >= 0 {
			used[c] = true
		} else {
			rows = append(rows, int32(r))
		}
	}
	for c := range n {
		if !used[c] {
			cols = append(cols, int32(c))
		}
	}
	m := len(rows)
	dd := make([]int32, 2*n)
	aa := make([]int32, 2*n)
	for r, c := range fixed {
		if c >= 0 {
			dd[r-int(c)+n-1]++
			aa[r+int(c)]++
		}
	}
	// Greedy start: each free row, in random order, takes a random remaining column that
	// is free of diagonal conflicts if one turns up in a few draws.
	rng.Shuffle(m, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	for i, r := range rows {
		for try := 0; try < 16; try++ {
			j := i + rng.IntN(m-i)
			c := cols[j]
			if dd[int(r)-int(c)+n-1] == 0 && aa[int(r)+int(c)] == 0 {
				cols[i], cols[j] = cols[j], cols[i]
				break
			}
			if try == 15 {
				cols[i], cols[j] = cols[j], cols[i]
			}
		}
		c := cols[i]
		q[r] = c
		dd[int(r)-int(c)+n-1]++
		aa[int(r)+int(c)]++
	}
	conflicted := func(r int32) bool {
		c := q[r]
		return dd[int(r)-int(c)+n-1] > 1 || aa[int(r)+int(c)] > 1
	}
	// excess is the number of queens in excess on the diagonals of (r, c).
	excess := func(r, c int32) int32 {
		return max(dd[int(r)-int(c)+n-1]-1, 0) + max(aa[int(r)+int(c)]-1, 0)
	}
	move := func(r, c int32, d int32) {
		dd[int(r)-int(c)+n-1] += d
		aa[int(r)+int(c)] += d
	}
	var bad []int32 // free rows that may be in conflict
	for _, r := range rows {
		if conflicted(r) {
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
		if !conflicted(a) {
			bad[k] = bad[len(bad)-1]
			bad = bad[:len(bad)-1]
			continue
		}
		accepted := false
		for try := 0; try < 32 && !accepted; try++ {
			swaps++
			b := rows[rng.IntN(m)]
			if b == a {
				continue
			}
			ca, cb := q[a], q[b]
			before := excess(a, ca) + excess(b, cb)
			move(a, ca, -1)
			move(b, cb, -1)
			move(a, cb, 1)
			move(b, ca, 1)
			after := excess(a, cb) + excess(b, ca)
			// Accept an improvement, or rarely a sideways or worse move to leave a plateau.
			if after < before || (try == 31 && rng.IntN(8) == 0) {
				q[a], q[b] = cb, ca
				accepted = true
				if conflicted(b) {
					bad = append(bad, b)
				}
			} else {
				move(a, cb, -1)
				move(b, ca, -1)
				move(a, ca, 1)
				move(b, cb, 1)
			}
		}
	}
	return q, swaps, nil
}
