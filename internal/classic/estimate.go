package classic

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/nqueens/nqueens/internal/cputime"
)

// Estimating the size of a search before running it, by Knuth's random probes (D. E.
// Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975): walk one
// random path from the root, choosing each child uniformly; a node at depth d on it stands
// for the product of the numbers of children of the nodes above it, so summing those
// products along the path gives an unbiased estimate of the nodes of the whole tree (and,
// weighting each node's own checks the same way, of its checks). The mean of many probes
// converges; its spread is large for these skewed trees, and EstimateSearch calibrates it
// on the search itself (see there).

// Estimate is the estimated size of one search on one board.
type Estimate struct {
	Nodes, Checks float64 // estimated counters of the whole search
	// Work is what the search's time is proportional to: Checks, plus LoopIterations for
	// Classic (whose Place loops over the queens above).
	Work float64
	// Rate is the work per second of the search on the board, the median of a few
	// moments of it; MaxRate the fastest of them (both 0 when Exact, a search measured
	// whole).
	Rate, MaxRate float64
	// Seconds is Work/Rate, the estimated time (the measured time when Exact), and
	// MinSeconds Work/MaxRate, its optimistic bound.
	Seconds, MinSeconds float64
	Exact               bool
}

// estimateProbes is the number of random probes of EstimateSearch up to n = 16.
const estimateProbes = 2000

// calibrationRun is how long EstimateSearch lets one run of the search last, on the
// smaller boards it calibrates with and on the board itself.
const calibrationRun = 40 * time.Millisecond

// The speed of a search is timed on speedRuns moments of speedRun on the board itself.
const (
	speedRuns = 3
	speedRun  = 15 * time.Millisecond
)

// EstimateSearch estimates the counters and the time of search a on the n×n board, and
// calibrates the work on the search itself, whose trees differ: it runs the search whole
// on the boards from 4 up for as long as each run ends within calibrationRun (a board that
// ends so is measured exactly), then for a few moments on the board itself, to time it.
//
// The work is the larger of two estimates. Knuth's random probes of the tree (drawn from
// PCG(seed, n)) are unbiased, but for the skewed trees of the cell searches the mean of a
// few thousand probes is mostly far too low (a third of the checks of n = 11, a seventh
// of n = 12). The exact counters of the runs on smaller boards, extrapolated by their
// growth from board to board (a ratio that grows by the same step from one size to the
// next: 6.5, 6.9, 7.3 … 10.2 for the cell search's checks from n = 5 to 12), came within
// 2% of n = 10..12 for the cell search, 10% for the others. The time is the work at the
// median speed of the moments timed, and its optimistic bound at the fastest: one moment
// of a busy machine does not change them.
func EstimateSearch(ctx context.Context, a Algorithm, n int, seed uint64) (Estimate, error) {
	if err := checkN(n); err != nil {
		return Estimate{}, err
	}
	type point struct{ nodes, checks, work float64 }
	var pts []point // the boards from 4 (or n) up, measured exactly
	for m := min(4, n); m <= n; m++ {
		tctx, cancel := context.WithTimeout(ctx, calibrationRun)
		start := time.Now()
		st, err := a.Run(tctx, m, nil)
		elapsed := time.Since(start)
		cancel()
		if ctx.Err() != nil {
			return Estimate{}, ctx.Err()
		}
		if err != nil {
			break // too long to measure whole
		}
		if m == n {
			return Estimate{Nodes: float64(st.Nodes), Checks: float64(st.Checks), Work: work(a, st),
				Seconds: elapsed.Seconds(), MinSeconds: elapsed.Seconds(), Exact: true}, nil
		}
		pts = append(pts, point{float64(st.Nodes), float64(st.Checks), work(a, st)})
	}
	// The speed on n itself (it differs from board to board: the cell search makes 1.5·10^8
	// checks a second at n = 8, 2.3·10^8 at n = 12), from a few moments of the search, in
	// CPU time.
	var rates []float64
	for range speedRuns {
		tctx, cancel := context.WithTimeout(ctx, speedRun)
		start := cputime.Now() // the CPU time: the machine's load is not the search's speed
		st, _ := a.Run(tctx, n, nil)
		used := cputime.Since(start)
		cancel()
		if ctx.Err() != nil {
			return Estimate{}, ctx.Err()
		}
		if w := work(a, st); w > 0 && used > 0 {
			rates = append(rates, w/used.Seconds())
		}
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
	if k := len(pts); k >= 3 {
		e.Nodes = max(e.Nodes, extrapolate(pts[k-3].nodes, pts[k-2].nodes, pts[k-1].nodes, n-(k-1+min(4, n))))
		e.Checks = max(e.Checks, extrapolate(pts[k-3].checks, pts[k-2].checks, pts[k-1].checks, n-(k-1+min(4, n))))
		e.Work = max(e.Work, extrapolate(pts[k-3].work, pts[k-2].work, pts[k-1].work, n-(k-1+min(4, n))))
	}
	if len(rates) == 0 {
		rates = append(rates, 1e8) // nothing lasted long enough to time: a guess
	}
	slices.Sort(rates)
	e.Rate, e.MaxRate = rates[len(rates)/2], rates[len(rates)-1]
	e.Seconds, e.MinSeconds = e.Work/max(e.Rate, 1), e.Work/max(e.MaxRate, 1)
	return e, nil
}

// extrapolate continues the counts a, b, c of three successive boards by steps more: the
// ratio of one board's count to the last one's grows by the same step each time (that of
// the last two ratios, never negative).
func extrapolate(a, b, c float64, steps int) float64 {
	if a <= 0 || b <= 0 || c <= 0 {
		return 0
	}
	g := c / b
	step := max(0, g-b/a)
	v := c
	for range steps {
		g += step
		v *= g
	}
	return v
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
