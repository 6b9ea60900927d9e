package localsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/nqueens/nqueens/internal/rules"
	"github.com/nqueens/nqueens/internal/sysmem"
)

// MaxN is the largest board Solve accepts: columns are stored as int32, and diagonal
// indices (up to 2n−2) must fit in an int.
const MaxN = (1<<(bits.UintSize-2) - 1) & math.MaxInt32 // 2^31−1 on 64-bit, 2^30−1 on 32-bit

var (
	// ErrTooLarge is returned, before anything is allocated, for an n beyond MaxN or one
	// whose arrays would not fit in Options.MemoryLimit.
	ErrTooLarge = errors.New("localsearch: board too large")
)

// Options tune Solve. The zero value is the documented default everywhere.
type Options struct {
	// Seed selects the run: all randomness comes from one PRNG seeded with it, so the same
	// Seed and n give the same placement (on every platform, with the same Options).
	Seed uint64

	// Progress, if not nil, is called now and then (every 2^20 steps of the initial search,
	// and once per phase change) with the phase ("initial", "final") and, for the initial
	// search, its attempts so far and its attempt budget (0 and 0 for the final search,
	// whose length is not known). It runs on the solving goroutine: keep it cheap.
	Progress func(phase string, done, total uint64)

	// Scratch, if it holds at least ScratchWords(n) words, is used for the two diagonal
	// bitsets instead of a fresh allocation (its contents are overwritten). The caller can
	// then reuse the same words to verify the result with Verify, so that solving and
	// verifying never hold more than MemoryBytes(n) bytes.
	Scratch []uint64

	// MemoryLimit bounds MemoryBytes(n); Solve fails with ErrTooLarge beyond it. Zero means
	// sysmem.Limit (the cgroup's limit or the RAM) where it is known (Linux), no limit
	// elsewhere; a
	// negative value means no limit.
	MemoryLimit int64

	// AttemptFactor scales the initial-search budget: at most AttemptFactor·n attempts.
	// Zero means 3.08, the value of Sosic and Gu.
	AttemptFactor float64

	// FinalBudget is the number of failed swaps the final search may make per run for
	// n > 200. Zero means 7,000, the value of Sosic and Gu.
	FinalBudget int

	// FinalRetries is how many times the final search alone is run again, with a fresh
	// budget, on the conflicts it left, before the whole search restarts from step 1 (for
	// n > 200; smaller boards always restart, their final search being deterministic).
	// Zero means none, the letter of docs/algorithms.md §3.6, and is the default because retries were
	// measured not to pay: at n = 201..500 not one retry in several hundred succeeded
	// (the runs whose budget runs out are stuck), and beyond n = 1000 the budget never ran
	// out in hundreds of runs.
	FinalRetries int

	// SmallPages skips the request for transparent huge pages on the big arrays (see
	// hugepage_linux.go). Meant for measurements.
	SmallPages bool

	// FixedRuns is the number of runs after which SolveFixed gives up with ErrGaveUp;
	// zero means DefaultFixedRuns. Solve, which always ends with a solution, ignores it.
	FixedRuns int

	// Plain selects the simple one-attempt-at-a-time initial search instead of the
	// prefetching pipeline. Both are exact implementations of docs/algorithms.md §3.6 but consume the
	// random stream differently, so they give different placements for the same Seed.
	// Meant for measurements and tests.
	Plain bool

	// Tracer, if not nil, receives every step of Solve, in order, for a replay; it
	// implies Plain (the pipeline is used only from n = 2^16 on, far beyond what a
	// replay shows). A nil Tracer costs the search one predictable branch per step.
	Tracer Tracer
}

// Tracer receives the steps of Solve in the order they happen; rows are 0-based and q
// is the placement, a permutation. Every step names the line of Solve's program
// (PlacedCode or ScanCode, which share their numbers; 1-based) that reports it.
type Tracer interface {
	// Run: a run starts (the first, or a restart): q is the identity and no queen is
	// placed.
	Run(line int)
	// Try: step 1 tried the queen of row m (column q[m]) in row j, the next row to fill.
	// Placed: it shares no diagonal with the placed queens (rows 0..j−1), so rows j and m
	// swapped their queens and j advanced; else nothing changed. Scan is what the O(j)
	// check of the original program costs here: the placed queens it compares, up to the
	// first one on a diagonal of (j, q[m]), or all j (the solver's O(1) check costs 1).
	Try(j, m int, placed bool, scan, line int)
	// Shuffle: step 2 swapped the queens of rows i and m (m ≥ i) and counts the queen of
	// row i from now on.
	Shuffle(i, m, line int)
	// Final: step 3 starts; every queen is counted.
	Final(line int)
	// Swap: step 3 tried to swap the queens of rows i and m; kept says both are then free
	// of conflicts (the swap was made), else nothing changed.
	Swap(i, m int, kept bool, line int)
	// Solved: no queen is in conflict; the search ends.
	Solved(line int)
}

// smallN is the largest n whose final search scans rows in order instead of drawing them.
const smallN = 200

// Stats are the counters of one Solve call, summed over all runs (restarts) except K.
type Stats struct {
	Attempts    int64 // initial-search attempts (random swaps tried), all runs
	K           int64 // queens left unplaced after the initial search of the last run
	FinalSwaps  int64 // final-search swaps tried, successful or not, all runs
	FinalFailed int64 // final-search swaps undone because a conflict remained, all runs
	Retries     int64 // final-search-only retries after its budget ran out
	Restarts    int64 // restarts from step 1 (a fresh identity permutation)
}

// ScratchWords is the number of 64-bit words of the two diagonal bitsets for board n
// (2n−1 bits each, rounded up to whole words).
func ScratchWords(n int) int {
	return 2 * diagWords(n)
}

// NewScratch allocates words 64-bit words for Options.Scratch (and the verification that
// reuses it) the way Solve allocates its own bitsets: with huge pages asked for, which
// the random probes of the search need at large n (with 4 KiB pages nearly every probe
// of a bitset of hundreds of megabytes also misses the TLB).
func NewScratch(words int) []uint64 { return makeWords(words, true) }

func diagWords(n int) int { return (2*n - 1 + 63) / 64 }

// MemoryBytes is what Solve allocates for board n: 4 bytes per queen for the placement plus
// the diagonal bitsets (half a byte per queen), 4.5 bytes per queen in all. Passing
// Options.Scratch saves the second part.
func MemoryBytes(n int) int64 {
	return 4*int64(n) + 8*int64(ScratchWords(n))
}

// Solve returns a placement of n non-attacking queens: q[r] is the 0-based column of the
// queen in row r, as an int32 (4 bytes per queen). It implements the linear-time local
// search of Sosic and Gu (docs/algorithms.md §3.6): an initial search that places queens one row at a
// time by random swaps, checked in O(1) against bitsets of the queens already placed, then a
// final search that repairs the few remaining conflicts by random swaps.
//
// n = 1 gives [0]; n = 2 and 3 give rules.ErrNoSolution at once; n < 1, n > MaxN or a board
// beyond the memory limit give an error before anything is allocated. The context is polled
// every few thousand steps; on cancellation Solve returns promptly with ctx.Err().
//
// The result is correct by construction, but callers should still check it
// independently (Verify does so in O(n) with the same scratch words).
func Solve(ctx context.Context, n int, opt Options) ([]int32, Stats, error) {
	var st Stats
	switch {
	case n < 1:
		return nil, st, fmt.Errorf("localsearch: n = %d, want n ≥ 1", n)
	case n == 1:
		return []int32{0}, st, nil
	case n == 2 || n == 3:
		return nil, st, rules.ErrNoSolution
	case n > MaxN:
		return nil, st, fmt.Errorf("%w: n = %d exceeds %d", ErrTooLarge, n, MaxN)
	}
	limit := opt.MemoryLimit
	if limit == 0 {
		limit = sysmem.Limit()
	}
	need := MemoryBytes(n)
	if len(opt.Scratch) >= ScratchWords(n) {
		need = 4 * int64(n)
	}
	if limit > 0 && need > limit {
		return nil, st, fmt.Errorf("%w: n = %d needs %d bytes, limit %d", ErrTooLarge, n, need, limit)
	}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}

	s := newSolver(n, opt)
	q, err := s.run(ctx)
	st = s.st
	if err != nil {
		return nil, st, err
	}
	return q, st, nil
}
