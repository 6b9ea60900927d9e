package complete

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/internal/localsearch"
)

// Mode says how Generate places the fixed queens.
type Mode string

// The instance generators of Gent, Jefferson & Nightingale (2017).
const (
	// FromSolution takes k queens at random rows of a random full solution (found by the
	// local search from a random start): the instance always has a completion.
	FromSolution Mode = "solution"
	// Random places k queens one by one on random squares not attacked by the queens
	// already placed: the instance may have no completion, which makes the hard ones.
	Random Mode = "random"
)

// maxRestarts bounds the attempts of the Random generator.
const maxRestarts = 1000

// Generate returns a random partial placement of an n×n board with k fixed queens (−1
// for the free rows), drawn from rng.
func Generate(ctx context.Context, n, k int, mode Mode, rng *rand.Rand) ([]int32, error) {
	if n < 1 || n > MaxFindN || k < 0 || k > n {
		return nil, fmt.Errorf("cannot fix %d queens on a %d×%d board", k, n, n)
	}
	if n == 2 || n == 3 {
		if k > 0 && mode == FromSolution {
			return nil, fmt.Errorf("n = %d has no solution to take queens from", n)
		}
	}
	p := make([]int32, n)
	for i := range p {
		p[i] = -1
	}
	var err error
	switch mode {
	case FromSolution:
		err = fromSolution(ctx, p, k, rng)
	case Random:
		err = randomQueens(ctx, p, k, rng)
	default:
		return nil, fmt.Errorf("unknown generator %q (want solution or random)", mode)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// fromSolution fixes in p (all free) the queens of k random rows of a random solution.
func fromSolution(ctx context.Context, p []int32, k int, rng *rand.Rand) error {
	n := len(p)
	if k == 0 {
		return nil
	}
	var sol []int32
	var err error
	switch {
	case n < localSearchMinN:
		sol, _, err = Find(ctx, p, Options{Rand: rng, Shuffle: true, PropagationOnly: true})
	case n <= MaxN:
		sol, _, err = localSearch(ctx, p, rng, 1<<62)
	default: // beyond the boards of earlier versions: the O(n) solver, and no n-sized permutation
		sol, _, err = localsearch.Solve(ctx, n, localsearch.Options{Seed: rng.Uint64()})
		if err == nil {
			for _, r := range sampleRows(rng, n, k) {
				p[r] = sol[r]
			}
			return nil
		}
	}
	if err != nil {
		return err
	}
	for _, r := range rng.Perm(n)[:k] {
		p[r] = sol[r]
	}
	return nil
}

// randomBoard is randomQueens' board: its queens, and the columns and diagonals they hold.
type randomBoard struct {
	n      int
	p      []int32 // the queens, by row (−1: none)
	placed int     // how many
	col    []bool
	dd, aa []bool  // by r−c+n−1 and r+c
	free   []int32 // freeColumns' buffer
}

// randomQueens fixes in p (all free) k queens, none attacking another, one at a time on
// a random free square of a random free row; it starts again when the chosen row has no
// free square left, at most maxRestarts times.
func randomQueens(ctx context.Context, p []int32, k int, rng *rand.Rand) error {
	n := len(p)
	b := &randomBoard{n: n, p: p, col: make([]bool, n), dd: make([]bool, 2*n), aa: make([]bool, 2*n),
		free: make([]int32, 0, n)}
	restarts := 0
	for b.placed < k {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r := rng.IntN(n)
		if p[r] >= 0 {
			continue
		}
		// Beyond the boards of earlier versions a scan of the row per queen would take k·n
		// steps: draw columns until one is free (uniform among the free ones all the
		// same), scanning only when a few draws fail.
		if n > MaxN && b.drawColumn(r, rng) {
			continue
		}
		free := b.freeColumns(r)
		if len(free) == 0 {
			if restarts++; restarts > maxRestarts {
				return fmt.Errorf("could not place %d non-attacking queens on a %d×%d board in %d tries", k, n, n, maxRestarts)
			}
			b.clear()
			continue
		}
		b.place(r, int(free[rng.IntN(len(free))]))
	}
	return nil
}

// drawColumn places a queen on row r in a column drawn at random, if one of 64 draws is
// free; it reports whether it did.
func (b *randomBoard) drawColumn(r int, rng *rand.Rand) bool {
	for range 64 {
		if c := rng.IntN(b.n); b.isFree(r, c) {
			b.place(r, c)
			return true
		}
	}
	return false
}

// freeColumns lists the free squares of row r, by column.
func (b *randomBoard) freeColumns(r int) []int32 {
	b.free = b.free[:0]
	for c := range b.n {
		if b.isFree(r, c) {
			b.free = append(b.free, int32(c))
		}
	}
	return b.free
}

// isFree reports whether no queen attacks (r, c) (its row aside).
func (b *randomBoard) isFree(r, c int) bool {
	return !b.col[c] && !b.dd[r-c+b.n-1] && !b.aa[r+c]
}

// place puts a queen on (r, c).
func (b *randomBoard) place(r, c int) {
	b.p[r] = int32(c)
	b.col[c], b.dd[r-c+b.n-1], b.aa[r+c] = true, true, true
	b.placed++
}

// clear takes every queen off.
func (b *randomBoard) clear() {
	for i := range b.p {
		b.p[i] = -1
	}
	clear(b.col)
	clear(b.dd)
	clear(b.aa)
	b.placed = 0
}

// sampleRows returns k distinct rows of n drawn uniformly (Floyd's algorithm), without an
// n-sized permutation.
func sampleRows(rng *rand.Rand, n, k int) []int {
	seen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for j := n - k; j < n; j++ {
		r := rng.IntN(j + 1)
		if seen[r] {
			r = j
		}
		seen[r] = true
		out = append(out, r)
	}
	return out
}
