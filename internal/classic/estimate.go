package classic

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Estimating the size of a search before running it, by Knuth's random probes (D. E.
// Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975): walk one
// random path from the root, choosing each child uniformly; a node at depth d on it stands
// for the product of the numbers of children of the nodes above it, so summing those
// products along the path gives an unbiased estimate of the nodes of the whole tree (and,
// weighting each node's own checks the same way, of its checks). The mean of many probes
// converges; its spread is large for these skewed trees, but an order of magnitude is what
// a warning needs. The time comes from the search itself, run for a moment on the same
// board: its work per second times the estimated work.

// Estimate is the estimated size of one search on one board.
type Estimate struct {
	Nodes, Checks float64 // estimated counters of the whole search
	// Work is what the search's time is proportional to: Checks, plus LoopIterations for
	// Classic (whose Place loops over the queens above).
	Work float64
	// Rate is the work per second measured by running the search for a moment (0 when it
	// finished in that moment: then Exact holds its counters).
	Rate float64
	// Seconds is Work/Rate, the estimated time; the measured time when Exact.
	Seconds float64
	Exact   bool
}

// estimateProbes is the number of random probes of EstimateSearch up to n = 16.
const estimateProbes = 2000

// estimateTrial is how long EstimateSearch runs the search itself to measure its speed.
const estimateTrial = 20 * time.Millisecond

// EstimateSearch estimates the counters and the time of search a on the n×n board: random
// probes of its tree drawn from PCG(seed, n), and a trial run of a itself (at most
// estimateTrial; a search that ends within it is measured exactly).
func EstimateSearch(ctx context.Context, a Algorithm, n int, seed uint64) (Estimate, error) {
	if err := checkN(n); err != nil {
		return Estimate{}, err
	}
	tctx, cancel := context.WithTimeout(ctx, estimateTrial)
	start := time.Now()
	st, err := a.Run(tctx, n, nil)
	elapsed := time.Since(start).Seconds()
	cancel()
	if err == nil {
		return Estimate{Nodes: float64(st.Nodes), Checks: float64(st.Checks), Work: work(a, st),
			Seconds: elapsed, Exact: true}, nil
	}
	if ctx.Err() != nil {
		return Estimate{}, ctx.Err()
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	// A probe costs about n³ steps: fewer of them on large boards, whose estimates are
	// astronomical anyway (n = 64, cellprune: 0.1 s).
	probes := estimateProbes
	if n > 16 {
		probes = max(100, int(estimateProbes*math.Pow(16/float64(n), 3)))
	}
	var e Estimate
	for range probes {
		var nodes, checks, loops float64
		switch a.Name {
		case "cell", "cellprune":
			nodes, checks = probeCell(n, a.Name == "cellprune", rng)
		default:
			nodes, checks, loops = probeRows(n, rng)
		}
		p := float64(probes)
		e.Nodes += nodes / p
		e.Checks += checks / p
		if a.Name == "classic" {
			e.Work += (checks + loops) / p
		} else {
			e.Work += checks / p
		}
	}
	e.Rate = work(a, st) / max(elapsed, 1e-9)
	e.Seconds = e.Work / max(e.Rate, 1)
	return e, nil
}

// work is the work of st in the unit of Estimate.Work.
func work(a Algorithm, st Stats) float64 {
	if a.Name == "classic" {
		return float64(st.Checks + st.LoopIterations)
	}
	return float64(st.Checks)
}

// probeRows is one probe of the row tree (§3.1 and §3.2, the same tree): per node n
// checks, and for Classic's Place the loop iterations of each column tried (up to the
// first queen above it attacks, or all of them).
func probeRows(n int, rng *rand.Rand) (nodes, checks, loops float64) {
	x := make([]int, 0, n)
	free := make([]int, 0, n)
	w := 1.0 // the nodes this one stands for
	for u := 0; ; u++ {
		nodes += w
		if u == n {
			return
		}
		checks += w * float64(n)
		free = free[:0]
		var it float64
		for c := range n {
			k := 0
			for k < u {
				d := c - x[k]
				if d == 0 || d == u-k || d == k-u {
					break
				}
				k++
			}
			if k == u {
				free = append(free, c)
				it += float64(u)
			} else {
				it += float64(k + 1)
			}
		}
		loops += w * it
		if len(free) == 0 {
			return
		}
		w *= float64(len(free))
		x = append(x, free[rng.IntN(len(free))])
	}
}

// probeCell is one probe of the cell tree (§3.3, or §3.4 with prune): a node (pos, cnt)
// checks the cells pos..n²−1 and has a child for each free one. With prune, a child that
// leaves a row before its pos/n empty returns at once: such children are counted exactly,
// as one node each, and the probe descends among the others (drawing among all of them,
// it would nearly always end in one, and the estimate would hang on rare long paths).
func probeCell(n int, prune bool, rng *rand.Rand) (nodes, checks float64) {
	row := make([]bool, n)
	col := make([]bool, n)
	diag := make([]bool, 2*n)
	anti := make([]bool, 2*n)
	free := make([]int, 0, n*n)
	w := 1.0
	pos, cnt := 0, 0
	for {
		nodes += w
		if cnt == n || pos == n*n {
			return
		}
		checks += w * float64(n*n-pos)
		// The first two empty rows, n when there are none.
		r0, r1 := n, n
		for r := range n {
			if !row[r] {
				if r0 == n {
					r0 = r
				} else {
					r1 = r
					break
				}
			}
		}
		free = free[:0]
		pruned := 0
		for k := pos; k < n*n; k++ {
			x, y := k/n, k%n
			if row[x] || col[y] || diag[x-y+n] || anti[x+y] {
				continue
			}
			if prune {
				first := r0 // the first empty row once the queen is on (x, y)
				if x == r0 {
					first = r1
				}
				if first < (k+1)/n {
					pruned++
					continue
				}
			}
			free = append(free, k)
		}
		nodes += w * float64(pruned)
		if len(free) == 0 {
			return
		}
		w *= float64(len(free))
		k := free[rng.IntN(len(free))]
		x, y := k/n, k%n
		row[x], col[y], diag[x-y+n], anti[x+y] = true, true, true, true
		pos, cnt = k+1, cnt+1
	}
}
