package localsearch

import (
	"context"
)

// pollEvery is the number of steps between two looks at the context (a power of two).
const pollEvery = 1 << 12

// progressEvery is the number of initial-search attempts between two Progress calls.
const progressEvery = 1 << 20

// solver holds the state of one Solve call. See doc.go for the layout and the names.
type solver struct {
	n           int
	q           []int32  // q[r] = column of the queen in row r; always a permutation of 0..n−1
	diag        []uint64 // the bits of a, then those of d, in one array
	a           diagSet  // anti-diagonals, index r+c
	d           diagSet  // diagonals, index r−c+n−1
	rng         wyrand   // the only source of randomness
	opt         Options  // as given, with defaults filled in
	st          Stats    // counters, summed over runs
	done        <-chan struct{}
	ctx         context.Context
	maxAttempts int64
	tr          Tracer // the replay's, or nil
	traced      bool   // tr != nil
}

// newSolver is the solver of Solve, with its tracer.
func newSolver(n int, opt Options) *solver {
	s := newSolverSized(n, n, opt)
	s.tr, s.traced = opt.Tracer, opt.Tracer != nil
	return s
}

// newSolverSized is newSolver with a q of qlen entries (the slots of SolveFixed).
func newSolverSized(n, qlen int, opt Options) *solver {
	if opt.AttemptFactor <= 0 {
		opt.AttemptFactor = 3.08
	}
	if opt.FinalBudget <= 0 {
		opt.FinalBudget = 7000
	}
	opt.FinalRetries = max(opt.FinalRetries, 0)
	w := diagWords(n)
	var diag []uint64
	if len(opt.Scratch) >= 2*w {
		diag = opt.Scratch[: 2*w : 2*w]
	} else {
		diag = makeWords(2*w, !opt.SmallPages)
	}
	var maxAttempts int64
	if opt.AttemptFactor == 3.08 {
		maxAttempts = int64(n) * 308 / 100 // exact, no rounding surprises
	} else {
		maxAttempts = int64(opt.AttemptFactor * float64(n))
	}
	return &solver{
		n:           n,
		q:           makeInt32s(qlen, !opt.SmallPages),
		diag:        diag,
		a:           diagSet{bits: diag[:w:w]},
		d:           diagSet{bits: diag[w:]},
		rng:         newRand(opt.Seed),
		opt:         opt,
		maxAttempts: maxAttempts,
	}
}

// run repeats the two phases until the board is free of conflicts.
func (s *solver) run(ctx context.Context) ([]int32, error) {
	s.ctx, s.done = ctx, ctx.Done()
	n := s.n
	for {
		if err := s.reset(); err != nil {
			return nil, err
		}
		if s.traced {
			s.tr.Run(lineRun)
		}
		var j int
		var err error
		if s.traced {
			j, err = s.initialTraced()
		} else if s.opt.Plain || n < pipelineMinN {
			j, err = s.initialPlain()
		} else {
			j, err = s.initialPipelined()
		}
		if err != nil {
			return nil, err
		}
		s.st.K = int64(n - j)
		s.progress("final", 0, 0)
		s.placeRest(j)
		if s.traced {
			s.tr.Final(lineFinal)
		}
		if n <= smallN {
			s.finalScan(j)
		} else {
			for try := 0; ; try++ {
				if s.finalRandom(j) || try == s.opt.FinalRetries {
					break
				}
				s.st.Retries++
			}
		}
		if s.a.clean() && s.d.clean() {
			if s.traced {
				s.tr.Solved(lineSolved)
			}
			return s.q, nil
		}
		s.st.Restarts++
	}
}

// progress reports to Options.Progress, if set.
func (s *solver) progress(phase string, done, total uint64) {
	if s.opt.Progress != nil {
		s.opt.Progress(phase, done, total)
	}
}

// cancelled reports whether the context is done, without blocking.
func (s *solver) cancelled() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// reset starts a run from the identity permutation with empty diagonal sets.
func (s *solver) reset() error {
	q := s.q
	for lo := 0; lo < len(q); lo += pollEvery * 64 {
		if s.cancelled() {
			return s.ctx.Err()
		}
		hi := min(lo+pollEvery*64, len(q))
		for i := lo; i < hi; i++ {
			q[i] = int32(i)
		}
	}
	s.a.reset()
	s.d.reset()
	return nil
}

// initialPlain is step 1 of docs/algorithms.md §3.6, one attempt at a time: draw m in [j, n−1]; if the
// queen of row m, moved to row j, is free on both diagonals among the placed queens (rows
// 0..j−1, the only ones in the bitsets), swap it into row j, mark its diagonals, advance j.
// A failed attempt changes nothing, so there is no swap to undo. It returns j.
func (s *solver) initialPlain() (int, error) {
	n, q := s.n, s.q
	A, D := s.a.bits, s.d.bits
	rng := s.rng
	j := 0
	var att int64
	for att < s.maxAttempts && j < n {
		end := min(att+pollEvery, s.maxAttempts)
		for ; att < end && j < n; att++ {
			m := j + below(rng.next(), n-j)
			c := q[m]
			ai := j + int(c)         // anti-diagonal of (j, c)
			di := j - int(c) + n - 1 // diagonal of (j, c)
			ab := uint64(1) << (ai & 63)
			db := uint64(1) << (di & 63)
			if A[ai>>6]&ab|D[di>>6]&db == 0 {
				A[ai>>6] |= ab
				D[di>>6] |= db
				q[m] = q[j]
				q[j] = c
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

// initialTraced is initialPlain, attempt for attempt the same, reporting each attempt to
// the tracer. It is a copy so that the untraced loop, the hot one, keeps exactly its code
// (with the trace call inside it, Solve measured 5% slower at n = 10^4, median of 16);
// TestTracer checks that both give the same placement and counters.
func (s *solver) initialTraced() (int, error) {
	n, q := s.n, s.q
	A, D := s.a.bits, s.d.bits
	j := 0
	var att int64
	for ; att < s.maxAttempts && j < n; att++ {
		if att&(pollEvery-1) == pollEvery-1 && s.cancelled() {
			s.st.Attempts += att
			return j, s.ctx.Err()
		}
		m := j + below(s.rng.next(), n-j)
		c := q[m]
		ai, di := j+int(c), j-int(c)+n-1
		free := A[ai>>6]>>(ai&63)&1|D[di>>6]>>(di&63)&1 == 0
		line := lineTryRejected
		if free {
			line = lineTryPlaced
		}
		s.tr.Try(j, m, free, scanCost(q, j, int(c)), line)
		if free {
			A[ai>>6] |= 1 << (ai & 63)
			D[di>>6] |= 1 << (di & 63)
			q[m] = q[j]
			q[j] = c
			j++
		}
	}
	s.st.Attempts += att
	return j, nil
}

// placeRest shuffles the columns left in rows j..n−1 into a random order (Fisher–Yates, as
// in the seed) and counts those queens in the diagonal sets, which from now on hold every
// queen. They may conflict.
func (s *solver) placeRest(j int) {
	n, q := s.n, s.q
	for i := j; i < n; i++ {
		m := i + below(s.rng.next(), n-i)
		q[i], q[m] = q[m], q[i]
		s.add(i)
		if s.traced {
			s.tr.Shuffle(i, m, lineShuffle)
		}
	}
}

// scanCost is what the O(j) check of the original program costs to test column c in row
// j: the placed queens (rows 0..j−1) it compares, up to the first on a diagonal of (j, c).
// It is the loop of LabInitialSearch's CheckScan, for the replay.
func scanCost(q []int32, j, c int) int {
	for i := 0; i < j; i++ {
		if d := j - i; int(q[i]) == c-d || int(q[i]) == c+d {
			return i + 1
		}
	}
	return j
}

// add and remove count the queen of row r in, or out of, both diagonal sets.
func (s *solver) add(r int) {
	c := int(s.q[r])
	s.a.add(r + c)
	s.d.add(r - c + s.n - 1)
}

func (s *solver) remove(r int) {
	c := int(s.q[r])
	s.a.remove(r + c)
	s.d.remove(r - c + s.n - 1)
}

// conflicts is the number of other queens on the two diagonals of the queen of row r.
func (s *solver) conflicts(r int) int {
	c := int(s.q[r])
	return s.a.count(r+c) + s.d.count(r-c+s.n-1) - 2
}

// trySwap swaps the queens of rows i and m if both are then free of conflicts, and
// reports whether it did. The test needs no counts, only four bits: after the swap the
// queens stand at (i, cm) and (m, ci); neither of the two old positions lies on any of
// their four lines (that would need i = m), so the new queens are free exactly when those
// four lines are empty now and the two new queens do not share a line with each other.
func (s *solver) trySwap(i, m int) bool {
	s.st.FinalSwaps++
	n, q := s.n, s.q
	ci, cm := int(q[i]), int(q[m])
	if i == m || i+cm == m+ci || i-cm == m-ci ||
		s.a.has(i+cm) || s.a.has(m+ci) || s.d.has(i-cm+n-1) || s.d.has(m-ci+n-1) {
		s.st.FinalFailed++
		if s.traced {
			s.tr.Swap(i, m, false, lineSwapFailed)
		}
		return false
	}
	s.remove(i)
	s.remove(m)
	q[i], q[m] = q[m], q[i]
	s.add(i)
	s.add(m)
	if s.traced {
		s.tr.Swap(i, m, true, lineSwapKept)
	}
	return true
}

// finalRandom is step 2 of docs/algorithms.md §3.6 for n > 200: each queen of rows j..n−1 that still
// conflicts is swapped with random rows until both swapped queens are conflict-free. The
// failed swaps of one call share a budget of Options.FinalBudget. It reports whether rows
// j..n−1 ended free of conflicts (then the whole board is: see doc.go).
func (s *solver) finalRandom(j int) bool {
	n := s.n
	failed := 0
	for i := j; i < n; i++ {
		if s.conflicts(i) == 0 {
			continue
		}
		for !s.trySwap(i, below(s.rng.next(), n)) {
			failed++
			if failed >= s.opt.FinalBudget {
				return false
			}
		}
	}
	return true
}

// finalScan is step 2 for n ≤ 200: the partner rows are tried in order 0..n−1.
func (s *solver) finalScan(j int) {
	n := s.n
	for i := j; i < n; i++ {
		if s.conflicts(i) == 0 {
			continue
		}
		for m := 0; m < n; m++ {
			if s.trySwap(i, m) {
				break
			}
		}
	}
}
