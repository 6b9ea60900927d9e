package localsearch

import (
	"context"
	"fmt"
	"time"
)

// This file is the instrumented initial search of the lab (issue 6): the same loop as the
// solver's, with a choice of collision check, timed and bounded. It is a teaching tool and
// a regression test, not a solver: nothing here is used by Solve.

// Check selects the collision check of LabInitialSearch.
type Check int

const (
	// CheckScan is the seed's partial_collision: scan the placed queens (rows 0..j−1) for
	// one sharing a diagonal with row j. Correct, O(j) per attempt, O(n²) in all.
	CheckScan Check = iota
	// CheckPlaced is the solver's check: O(1) bits of the diagonals of the placed queens.
	CheckPlaced
	// CheckAllQueens is the tutorial's broken "optimisation" (docs/algorithms.md §3.6): total_collisions
	// on counters that hold all n queens, placed or not. Every swap from the identity
	// start puts queens j and m on the same anti-diagonal, so no queen is ever placed.
	// Only for showing that; always bound it with an attempt limit.
	CheckAllQueens
)

func (c Check) String() string {
	switch c {
	case CheckScan:
		return "scan"
	case CheckPlaced:
		return "placed"
	case CheckAllQueens:
		return "allqueens"
	}
	return fmt.Sprintf("Check(%d)", int(c))
}

// LabResult reports one instrumented initial search.
type LabResult struct {
	N        int
	Check    Check
	Attempts int64 // attempts made
	Placed   int   // j reached: queens placed without conflict (n − k)
	// Checks counts the elementary tests of the check: one per attempt for the O(1)
	// checks, and for CheckScan the placed queens compared (up to the first conflict).
	Checks  int64
	Elapsed time.Duration // wall time of the search loop, allocation excluded
	Q       []int32       // the permutation at the end (rows ≥ Placed not yet shuffled)
}

// LabInitialSearch runs step 1 of docs/algorithms.md §3.6 on board n with the given check, for at most
// maxAttempts attempts (0 means 3.08·n) and stops early when every queen is placed. The
// draws are the same for every check (m = j + uniform[0, n−j) from the seed), so CheckScan
// and CheckPlaced follow exactly the same path and differ only in time. The context is
// polled every few thousand attempts.
//
// It is long on purpose: its attempt loop is what the lab times (Elapsed), with the three
// checks inline, and the compiler lays the loop out differently for any change of the
// function around it. Moving only the argument checks, the boards' setup and the result
// into helpers made the loop 10% slower with CheckAllQueens and, by another layout, 30%
// slower with CheckScan (CPU time of 40 runs, n = 10^5 and 3000, 8 rounds interleaved).
func LabInitialSearch(ctx context.Context, n int, seed uint64, check Check, maxAttempts int64) (LabResult, error) {
	res := LabResult{N: n, Check: check}
	if n < 1 || n > MaxN {
		return res, fmt.Errorf("localsearch: lab: n = %d out of range", n)
	}
	if check < CheckScan || check > CheckAllQueens {
		return res, fmt.Errorf("localsearch: lab: unknown check %v", check)
	}
	if maxAttempts <= 0 {
		maxAttempts = int64(n) * 308 / 100
	}
	q := make([]int32, n)
	for i := range q {
		q[i] = int32(i)
	}
	var A, D []uint64  // CheckPlaced: bits of the placed queens
	var nd, pd []int32 // CheckAllQueens: counters of all queens, as in the tutorial
	switch check {
	case CheckPlaced:
		A, D = make([]uint64, diagWords(n)), make([]uint64, diagWords(n))
	case CheckAllQueens:
		nd, pd = make([]int32, 2*n-1), make([]int32, 2*n-1)
		for r, c := range q {
			nd[r+int(c)]++
			pd[r-int(c)+n-1]++
		}
	}
	swapCounted := func(a, b int) { // the tutorial's swap: counters follow both queens
		for _, r := range [2]int{a, b} {
			nd[r+int(q[r])]--
			pd[r-int(q[r])+n-1]--
		}
		q[a], q[b] = q[b], q[a]
		for _, r := range [2]int{a, b} {
			nd[r+int(q[r])]++
			pd[r-int(q[r])+n-1]++
		}
	}
	done := ctx.Done()
	rng := newRand(seed)
	j := 0
	var att, checks int64
	start := time.Now()
	for ; att < maxAttempts && j < n; att++ {
		if att&(pollEvery-1) == 0 {
			select {
			case <-done:
				res.Attempts, res.Placed, res.Elapsed, res.Q = att, j, time.Since(start), q
				res.Checks = checks
				if check != CheckScan {
					res.Checks = att
				}
				return res, ctx.Err()
			default:
			}
		}
		m := j + below(rng.next(), n-j)
		c := int(q[m])
		switch check {
		case CheckScan:
			free := true
			for i := 0; i < j; i++ {
				checks++
				if d := j - i; int(q[i]) == c-d || int(q[i]) == c+d {
					free = false
					break
				}
			}
			if free {
				q[m], q[j] = q[j], q[m]
				j++
			}
		case CheckPlaced:
			ai, di := j+c, j-c+n-1
			if A[ai>>6]>>(ai&63)&1 == 0 && D[di>>6]>>(di&63)&1 == 0 {
				A[ai>>6] |= 1 << (ai & 63)
				D[di>>6] |= 1 << (di & 63)
				q[m], q[j] = q[j], q[m]
				j++
			}
		case CheckAllQueens:
			swapCounted(j, m)
			if nd[j+int(q[j])]+pd[j-int(q[j])+n-1]-2 == 0 {
				j++
			} else {
				swapCounted(j, m)
			}
		}
	}
	res.Attempts, res.Placed, res.Elapsed, res.Q = att, j, time.Since(start), q
	res.Checks = checks
	if check != CheckScan {
		res.Checks = att // one test per attempt
	}
	return res, nil
}
