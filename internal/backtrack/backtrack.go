// Package backtrack finds the lexicographically first solution of a small board by
// depth-first search over rows, with bit masks for the attacked columns and diagonals.
//
// The search is the textbook one: row r tries its free columns from left to right
// (lowest set bit first, x & -x) and backs up when a row has none. The number of nodes to
// the first solution grows irregularly with n (114 for n = 8, about 10^10 for n = 39), so
// the package accepts boards up to MaxN only.
package backtrack

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/internal/rules"
)

// MaxN is the largest board accepted: every n up to it finishes in well under a second.
const MaxN = 32

// Find returns the first solution in lexicographic order (0-based columns) and the number
// of nodes (calls of the search, root included) it took. ctx is polled every 4096 nodes.
func Find(ctx context.Context, n int) ([]int32, uint64, error) {
	if n < 1 || n > MaxN {
		return nil, 0, fmt.Errorf("backtracking handles n from 1 to %d, not %d", MaxN, n)
	}
	full := uint64(1)<<uint(n) - 1
	// Explicit stack, one entry per row: the masks entering the row and its untried squares.
	type frame struct{ cols, dl, dr, free uint64 }
	stack := make([]frame, n+1)
	q := make([]int32, n)
	done := ctx.Done()
	var nodes uint64 = 1
	stack[0] = frame{free: full}
	r := 0
	for r >= 0 {
		f := &stack[r]
		if f.free == 0 {
			r-- // dead end: back to the previous row
			continue
		}
		bit := f.free & -f.free // lowest set bit: leftmost untried column
		f.free ^= bit
		q[r] = int32(bits.TrailingZeros64(bit))
		nodes++
		if nodes&0xfff == 0 {
			select {
			case <-done:
				return nil, nodes, ctx.Err()
			default:
			}
		}
		if r+1 == n {
			return q, nodes, nil
		}
		cols, dl, dr := f.cols|bit, ((f.dl|bit)<<1)&full, (f.dr|bit)>>1
		stack[r+1] = frame{cols, dl, dr, ^(cols | dl | dr) & full}
		r++
	}
	return nil, nodes, rules.ErrNoSolution
}
