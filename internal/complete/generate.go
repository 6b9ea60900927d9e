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
	switch mode {
	case FromSolution:
		if k == 0 {
			return p, nil
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
				return p, nil
			}
		}
		if err != nil {
			return nil, err
		}
		for _, r := range rng.Perm(n)[:k] {
			p[r] = sol[r]
		}
	case Random:
		// Place queens until k are on the board; start again when the chosen row has no
		// free square left.
		col := make([]bool, n)
		dd := make([]bool, 2*n)
		aa := make([]bool, 2*n)
		free := make([]int32, 0, n)
		restarts := 0
		for placed := 0; placed < k; {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			r := rng.IntN(n)
			if p[r] >= 0 {
				continue
			}
			if n > MaxN {
				// Beyond the boards of earlier versions a scan of the row per queen would
				// take k·n steps: draw columns until one is free (uniform among the free
				// ones all the same), scanning only when a few draws fail.
				placed1 := false
				for range 64 {
					if c := rng.IntN(n); !col[c] && !dd[r-c+n-1] && !aa[r+c] {
						p[r] = int32(c)
						col[c], dd[r-c+n-1], aa[r+c] = true, true, true
						placed, placed1 = placed+1, true
						break
					}
				}
				if placed1 {
					continue
				}
			}
			free = free[:0]
			for c := range n {
				if !col[c] && !dd[r-c+n-1] && !aa[r+c] {
					free = append(free, int32(c))
				}
			}
			if len(free) == 0 {
				if restarts++; restarts > maxRestarts {
					return nil, fmt.Errorf("could not place %d non-attacking queens on a %d×%d board in %d tries", k, n, n, maxRestarts)
				}
				for i := range p {
					p[i] = -1
				}
				clear(col)
				clear(dd)
				clear(aa)
				placed = 0
				continue
			}
			c := int(free[rng.IntN(len(free))])
			p[r] = int32(c)
			col[c], dd[r-c+n-1], aa[r+c] = true, true, true
			placed++
		}
	default:
		return nil, fmt.Errorf("unknown generator %q (want solution or random)", mode)
	}
	return p, nil
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
