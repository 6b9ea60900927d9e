package localsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nqueens/nqueens/internal/rules"
	"github.com/nqueens/nqueens/internal/sysmem"
)

// Completion: the local search of Solve with some queens fixed in place (the n-Queens
// Completion problem, docs/algorithms.md §4). The free rows R[0..m−1] (in increasing
// order) and the free columns are the slots of a permutation P: slot i puts a queen on
// (R[i], P[i]). Slots play the part of Solve's rows, with three changes:
//
//   - the fixed queens are in the diagonal bits from the start, as placed queens that never
//     move (they attack each other nowhere: checked first);
//   - step 1 fills slot j from the slots j..m−1, checking the diagonals of (R[j], P[t]);
//   - step 3 swaps the conflicting slots with random slots (all m ≤ 200 in order), never
//     with a fixed row.
//
// A kept swap still never creates a conflict, and every conflict still involves one of
// the slots left by step 1 (placed queens, fixed ones included, share no diagonal), so a
// clean end of step 3 is a completion. Step 3's budget grows with the slots left by
// step 1 (fixedBudgetPerSlot). Unlike Solve, a run may keep failing (the fixed
// queens may leave no completion at all): SolveFixed gives up after FixedRuns runs with
// ErrGaveUp, which says nothing about whether a completion exists.
//
// Memory: P and R, 4 bytes per free row each, the bitsets (half a byte per queen) and the
// result (4 bytes per queen): FixedMemoryBytes.

// ErrGaveUp says that SolveFixed found no completion in its runs; one may exist or not.
var ErrGaveUp = errors.New("localsearch: no completion found within the runs allowed")

// DefaultFixedRuns is the number of runs of SolveFixed when Options.FixedRuns is zero. On
// instances that have completions the runs rarely fail (at n = 10^6 with 1,000 queens of
// a random solution, none failed); on those that have none each run costs O(n).
const DefaultFixedRuns = 16

// FixedMemoryBytes is what SolveFixed allocates for board n with free rows free: the
// result, 4 bytes per queen, P and R, 4 bytes per free row each, and the bitsets.
func FixedMemoryBytes(n, free int) int64 {
	return 4*int64(n) + 8*int64(free) + 8*int64(ScratchWords(n))
}

// SolveFixed returns a placement of n = len(fixed) queens that keeps the fixed ones:
// fixed[r] is the 0-based column of the queen fixed on row r, or −1 for a free row. It
// returns rules.ErrNoSolution when the fixed queens attack each other (or n is 2 or 3),
// ErrGaveUp when Options.FixedRuns runs found no completion (one may exist), and
// ctx.Err() on cancellation. Columns of fixed must be in [−1, n).
//
// Options apply as for Solve (Seed, AttemptFactor, FinalBudget, MemoryLimit, SmallPages,
// Progress, Tracer: its rows are the board's, a slot's row), and FixedRuns bounds the
// runs. With no queen fixed it is Solve.
func SolveFixed(ctx context.Context, fixed []int32, opt Options) ([]int32, Stats, error) {
	var st Stats
	n := len(fixed)
	if n < 1 || n > MaxN {
		return nil, st, fmt.Errorf("localsearch: n = %d, want 1 ≤ n ≤ %d", n, MaxN)
	}
	free := 0
	for r, c := range fixed {
		if c < -1 || int(c) >= n {
			return nil, st, fmt.Errorf("localsearch: row %d: column %d is off the board", r, c)
		}
		if c < 0 {
			free++
		}
	}
	if free == n {
		return Solve(ctx, n, opt)
	}
	limit := opt.MemoryLimit
	if limit == 0 {
		limit = sysmem.Limit()
	}
	if need := FixedMemoryBytes(n, free); limit > 0 && need > limit {
		return nil, st, fmt.Errorf("%w: n = %d needs %d bytes, limit %d", ErrTooLarge, n, need, limit)
	}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	s := newFixedSolver(fixed, free, opt)
	if !s.markFixed() {
		return nil, st, rules.ErrNoSolution
	}
	ok, err := s.run(ctx)
	st = s.st
	if err != nil {
		return nil, st, err
	}
	if !ok {
		return nil, st, ErrGaveUp
	}
	q := makeInt32s(n, !opt.SmallPages)
	copy(q, fixed)
	for i, r := range s.rows {
		q[r] = s.p[i]
	}
	return q, st, nil
}

// fixedSolver is the state of SolveFixed: Solve's solver, its q holding the slots'
// columns P, and the rows of the slots.
type fixedSolver struct {
	solver
	fixed []int32
	rows  []int32 // R: the free rows, increasing
	p     []int32 // P: the column of each slot (solver.q is the same slice)
	cols  []int32 // the free columns, increasing: the start of every run
}

func newFixedSolver(fixed []int32, free int, opt Options) *fixedSolver {
	n := len(fixed)
	s := &fixedSolver{solver: *newSolverSized(n, free, opt), fixed: fixed}
	s.tr, s.traced = opt.Tracer, opt.Tracer != nil
	s.p = s.q
	s.rows = makeInt32s(free, !opt.SmallPages)
	s.cols = make([]int32, 0, free)
	if opt.FixedRuns <= 0 {
		s.opt.FixedRuns = DefaultFixedRuns
	}
	used := s.a.bits // 2n−1 bits, borrowed as the columns' marks before the search
	i := 0
	for r, c := range fixed {
		if c >= 0 {
			used[c>>6] |= 1 << (c & 63)
		} else {
			s.rows[i] = int32(r)
			i++
		}
	}
	for c := range n {
		if used[c>>6]>>(c&63)&1 == 0 {
			s.cols = append(s.cols, int32(c))
		}
	}
	clear(used)
	s.maxAttempts = int64(float64(free) * float64(s.maxAttempts) / float64(n))
	return s
}

// markFixed puts the fixed queens in the diagonal bits; false when two of them share a
// column or a diagonal.
func (s *fixedSolver) markFixed() bool {
	n := s.n
	if len(s.cols) != len(s.rows) {
		return false // two fixed queens in one column
	}
	for r, c := range s.fixed {
		if c < 0 {
			continue
		}
		ai, di := r+int(c), r-int(c)+n-1
		if s.a.has(ai) || s.d.has(di) {
			return false
		}
		s.a.add(ai)
		s.d.add(di)
	}
	return true
}

// run makes up to FixedRuns runs; it reports whether one ended without conflict.
func (s *fixedSolver) run(ctx context.Context) (bool, error) {
	s.ctx, s.done = ctx, ctx.Done()
	m := len(s.rows)
	for run := 0; run < s.opt.FixedRuns; run++ {
		if run > 0 {
			s.st.Restarts++
			s.a.reset()
			s.d.reset()
			s.markFixed()
		}
		copy(s.p, s.cols)
		if s.traced {
			s.tr.Run(lineRun)
		}
		var j int
		var err error
		if s.traced {
			j, err = s.initialTraced()
		} else {
			j, err = s.initial()
		}
		if err != nil {
			return false, err
		}
		s.st.K = int64(m - j)
		s.progress("final", 0, 0)
		s.placeRestSlots(j)
		if s.traced {
			s.tr.Final(lineFinal)
		}
		if m <= smallN {
			s.finalScanSlots(j)
		} else if err := s.finalRandomSlots(j, max(s.opt.FinalBudget, fixedBudgetPerSlot*(m-j))); err != nil {
			return false, err
		}
		if s.a.clean() && s.d.clean() {
			if s.traced {
				s.tr.Solved(lineSolved)
			}
			return true, nil
		}
	}
	return false, nil
}

// initial is step 1 over the slots: draw t in [j, m−1]; if column P[t] on row R[j] is free
// on both diagonals among the placed and the fixed queens, swap it into slot j, mark its
// diagonals and advance j. It returns j.
func (s *fixedSolver) initial() (int, error) {
	n, p, rows := s.n, s.p, s.rows
	m := len(rows)
	A, D := s.a.bits, s.d.bits
	rng := s.rng
	j := 0
	var att int64
	for att < s.maxAttempts && j < m {
		end := min(att+pollEvery, s.maxAttempts)
		for ; att < end && j < m; att++ {
			t := j + below(rng.next(), m-j)
			c := p[t]
			r := int(rows[j])
			ai := r + int(c)
			di := r - int(c) + n - 1
			ab := uint64(1) << (ai & 63)
			db := uint64(1) << (di & 63)
			if A[ai>>6]&ab|D[di>>6]&db == 0 {
				A[ai>>6] |= ab
				D[di>>6] |= db
				p[t] = p[j]
				p[j] = c
				j++
			}
		}
		if s.cancelled() {
			s.rng = rng
			s.st.Attempts += att
			return j, s.ctx.Err()
		}
		if att&(progressEvery-1) < pollEvery {
			s.progress("initial", uint64(att), uint64(s.maxAttempts))
		}
	}
	s.rng = rng
	s.st.Attempts += att
	return j, nil
}

// initialTraced is initial, attempt for attempt the same, reporting each attempt to the
// tracer with the rows of the slots: the slot j's row, and the row of the slot t whose
// column it tried. A copy, as Solve's initialTraced is, so that the hot loop keeps its code.
func (s *fixedSolver) initialTraced() (int, error) {
	n, p, rows := s.n, s.p, s.rows
	m := len(rows)
	A, D := s.a.bits, s.d.bits
	board := slices.Clone(s.fixed) // the queens placed: the fixed ones, then each slot's
	j := 0
	var att int64
	for ; att < s.maxAttempts && j < m; att++ {
		if att&(pollEvery-1) == pollEvery-1 && s.cancelled() {
			s.st.Attempts += att
			return j, s.ctx.Err()
		}
		t := j + below(s.rng.next(), m-j)
		c := p[t]
		r := int(rows[j])
		ai, di := r+int(c), r-int(c)+n-1
		free := A[ai>>6]>>(ai&63)&1|D[di>>6]>>(di&63)&1 == 0
		line := lineTryRejected
		if free {
			line = lineTryPlaced
		}
		s.tr.Try(r, int(rows[t]), free, scanCostBoard(board, r, int(c)), line)
		if free {
			A[ai>>6] |= 1 << (ai & 63)
			D[di>>6] |= 1 << (di & 63)
			p[t] = p[j]
			p[j] = c
			board[r] = c
			j++
		}
	}
	s.st.Attempts += att
	return j, nil
}

// scanCostBoard is scanCost with fixed queens: the queens placed on board (−1 for an
// empty row), in row order, that the O(j) scan compares with (r, c) up to the first on
// one of its diagonals.
func scanCostBoard(board []int32, r, c int) int {
	k := 0
	for i, q := range board {
		if q < 0 {
			continue
		}
		k++
		if d := r - i; int(q) == c-d || int(q) == c+d {
			return k
		}
	}
	return k
}

// placeRestSlots shuffles the columns of slots j..m−1 and counts them in the diagonal sets.
func (s *fixedSolver) placeRestSlots(j int) {
	m := len(s.rows)
	for i := j; i < m; i++ {
		t := i + below(s.rng.next(), m-i)
		s.p[i], s.p[t] = s.p[t], s.p[i]
		s.addSlot(i)
		if s.traced {
			s.tr.Shuffle(int(s.rows[i]), int(s.rows[t]), lineShuffle)
		}
	}
}

func (s *fixedSolver) addSlot(i int) {
	r, c := int(s.rows[i]), int(s.p[i])
	s.a.add(r + c)
	s.d.add(r - c + s.n - 1)
}

func (s *fixedSolver) removeSlot(i int) {
	r, c := int(s.rows[i]), int(s.p[i])
	s.a.remove(r + c)
	s.d.remove(r - c + s.n - 1)
}

// conflictsSlot is the number of other queens on the two diagonals of slot i's queen.
func (s *fixedSolver) conflictsSlot(i int) int {
	r, c := int(s.rows[i]), int(s.p[i])
	return s.a.count(r+c) + s.d.count(r-c+s.n-1) - 2
}

// trySwapSlots is trySwap for slots i and t: the queens of rows R[i] and R[t] exchange
// columns when both are then free of conflicts.
func (s *fixedSolver) trySwapSlots(i, t int) bool {
	s.st.FinalSwaps++
	n := s.n
	ri, rt := int(s.rows[i]), int(s.rows[t])
	ci, ct := int(s.p[i]), int(s.p[t])
	if i == t || ri+ct == rt+ci || ri-ct == rt-ci ||
		s.a.has(ri+ct) || s.a.has(rt+ci) || s.d.has(ri-ct+n-1) || s.d.has(rt-ci+n-1) {
		s.st.FinalFailed++
		if s.traced {
			s.tr.Swap(ri, rt, false, lineSwapFailed)
		}
		return false
	}
	s.removeSlot(i)
	s.removeSlot(t)
	s.p[i], s.p[t] = s.p[t], s.p[i]
	s.addSlot(i)
	s.addSlot(t)
	if s.traced {
		s.tr.Swap(ri, rt, true, lineSwapKept)
	}
	return true
}

// fixedBudgetPerSlot scales the failed swaps of step 3 with the slots left by step 1.
// Without fixed queens about 25 slots are left, whatever n, and Solve's 7,000 failed
// swaps suffice; fixed queens crowd the diagonals, step 1 leaves more slots (about 3,000
// at n = 10^5 with a tenth of the queens fixed, 14,000 with six tenths), and step 3
// needs about 60 swaps per slot left: 7,000 in all made nearly every run fail there.
const fixedBudgetPerSlot = 256

// finalRandomSlots is step 3 for m > 200: each conflicting slot of j..m−1 is swapped with
// random slots until both are free; the failed swaps share budget. The budget grows with
// the board, so the context is polled every pollEvery failed swaps.
func (s *fixedSolver) finalRandomSlots(j, budget int) error {
	m := len(s.rows)
	failed := 0
	for i := j; i < m; i++ {
		if s.conflictsSlot(i) == 0 {
			continue
		}
		for !s.trySwapSlots(i, below(s.rng.next(), m)) {
			if failed++; failed >= budget {
				return nil
			}
			if failed%pollEvery == 0 && s.cancelled() {
				return s.ctx.Err()
			}
		}
	}
	return nil
}

// finalScanSlots is step 3 for m ≤ 200: the partner slots are tried in order.
func (s *fixedSolver) finalScanSlots(j int) {
	m := len(s.rows)
	for i := j; i < m; i++ {
		if s.conflictsSlot(i) == 0 {
			continue
		}
		for t := range m {
			if s.trySwapSlots(i, t) {
				break
			}
		}
	}
}
