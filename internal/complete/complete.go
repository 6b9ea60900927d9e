package complete

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/internal/localsearch"
	"github.com/nqueens/nqueens/internal/rules"
	"github.com/nqueens/nqueens/internal/sysmem"
)

// ErrNoCompletion says that the fixed queens cannot be completed to a solution.
var ErrNoCompletion = errors.New("no completion exists")

// ErrUnknown says that Find found no completion within its budget and could not prove
// that none exists: the local search gave up, and the propagation search, which could
// have decided, needs more memory than the limit (MemoryNeed).
var ErrUnknown = errors.New("no completion found, and none ruled out")

// Engine names the search that produced an answer, as the command's algorithm=: the
// local search is Sosic–Gu's, as solve's "localsearch" is.
type Engine string

// The engines.
const (
	Propagation  Engine = "propagation"  // the complete bitset search (prop.go)
	MinConflicts Engine = "minconflicts" // min-conflicts repair (local.go)
	LocalSearch  Engine = "localsearch"  // localsearch.SolveFixed, Sosic–Gu: O(n) time and memory, large boards
)

// Stats are the counters of a run.
type Stats struct {
	Nodes    uint64 // calls of the propagation search, over all rounds
	Swaps    uint64 // swap attempts of the local searches, over all rounds and runs
	Attempts uint64 // initial-search attempts of SolveFixed, over its runs
	Runs     int    // runs of SolveFixed (0 when it did not run)
	Rounds   int    // portfolio rounds (Find)
	Engine   Engine // the engine that answered
}

// Options configures Find. The zero value is a good default.
type Options struct {
	// Rand drives the local search and the value order of later propagation rounds; nil
	// means a PCG source seeded with 1.
	Rand *rand.Rand
	// PropagationOnly skips the local search: the propagation search restarts with a
	// doubled budget and a random value order instead.
	PropagationOnly bool
	// Shuffle randomises the value order of the first propagation round too: a random
	// completion rather than the first one in search order.
	Shuffle bool
	// MemoryLimit bounds, in bytes, what the searches may allocate: the propagation search
	// runs only when MemoryNeed(n) fits. Zero means sysmem.Limit, negative no limit.
	MemoryLimit int64
	// Runs bounds the runs of the O(n) local search on large boards (localsearch.SolveFixed);
	// zero means localsearch.DefaultFixedRuns.
	Runs int
	// Progress, if not nil, hears the phases of Find: those of localsearch.SolveFixed
	// ("initial", "final") on large boards, then "round" with the rounds of the portfolio
	// begun (total unknown, 0). It runs on the caller's goroutine.
	Progress func(phase string, done, total uint64)
}

// localSearchMinN is the smallest board on which Find runs the local search.
const localSearchMinN = 40

// FixedMinN is the smallest board on which Find first runs localsearch.SolveFixed, the
// O(n) local search of Sosic and Gu with the fixed queens in place: from there on the
// propagation search's n² squares cost more than a run of it (24 MB at n = 1000, 2.4 GB
// at 10^4), and a run that fails costs O(n). Smaller boards, and boards whose propagation
// search the memory cannot hold, are decided as before.
const FixedMinN = 1000

// MaxFindN is the largest board of Find: that of localsearch.SolveFixed. Count takes
// boards up to MaxN.
const MaxFindN = localsearch.MaxN

// check validates the partial placement: columns in range and the board within maxN.
func check(fixed []int32, maxN int) error {
	n := len(fixed)
	if n < 1 || n > maxN {
		return fmt.Errorf("completion handles n from 1 to %d, not %d", maxN, n)
	}
	for r, c := range fixed {
		if c < -1 || int(c) >= n {
			return fmt.Errorf("row %d: column %d is off the board", r+1, c+1)
		}
	}
	return nil
}

// PropagationFits reports whether the propagation search of an n×n board is within MaxN
// and its memory within limit (0: sysmem.Limit, negative: none).
func PropagationFits(n int, limit int64) bool {
	if limit == 0 {
		limit = sysmem.Limit()
	}
	return n <= MaxN && (limit <= 0 || MemoryNeed(n) <= limit)
}

// FindMemoryNeed bounds the bytes Find allocates for board n with free rows free: the
// O(n) local search first on large boards (whose propagation search runs only if it fits
// the limit, see PropagationFits), the propagation search on the others.
func FindMemoryNeed(n, free int, limit int64) int64 {
	if n >= FixedMinN || !PropagationFits(n, limit) {
		return localsearch.FixedMemoryBytes(n, free)
	}
	return MemoryNeed(n)
}

// Find returns a completion of fixed (fixed[r] is the 0-based column of the queen fixed
// on row r, −1 for a free row): a placement keeping every fixed queen. It returns
// ErrNoCompletion when there is none, including when fixed queens attack each other.
//
// On boards of FixedMinN rows and more, and on any board whose propagation search does
// not fit the memory limit, it first runs localsearch.SolveFixed (O(n) time and memory per
// run, at most opt.Runs runs). When that gives up, the propagation search decides if it
// fits; if not, Find returns ErrUnknown: no completion found, none ruled out.
//
// Otherwise it alternates the propagation search with a node budget and the local search
// with a swap budget, doubling both every round, until one answers (see the package
// comment).
func Find(ctx context.Context, fixed []int32, opt Options) ([]int32, Stats, error) {
	var st Stats
	if err := check(fixed, MaxFindN); err != nil {
		return nil, st, err
	}
	rng := opt.Rand
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	n := len(fixed)
	fits := PropagationFits(n, opt.MemoryLimit)
	if (n >= FixedMinN || !fits) && !opt.PropagationOnly {
		q, lst, err := localsearch.SolveFixed(ctx, fixed, localsearch.Options{Seed: rng.Uint64(), FixedRuns: opt.Runs,
			MemoryLimit: opt.MemoryLimit, Progress: opt.Progress})
		st.Swaps += uint64(lst.FinalSwaps)
		st.Attempts += uint64(lst.Attempts)
		st.Runs = int(lst.Restarts) + 1
		st.Engine = LocalSearch
		switch {
		case err == nil:
			return q, st, nil
		case errors.Is(err, rules.ErrNoSolution):
			return nil, st, ErrNoCompletion // fixed queens that attack each other, n = 2 or 3
		case !errors.Is(err, localsearch.ErrGaveUp):
			return nil, st, err
		case !fits:
			return nil, st, ErrUnknown
		}
	}
	nodeBudget, swapBudget := uint64(4*n+1000), uint64(64*n+10000)
	if n < localSearchMinN {
		nodeBudget = 0 // no budget: one complete run
	}
	for round := 0; ; round++ {
		st.Rounds = round + 1
		if opt.Progress != nil {
			opt.Progress("round", uint64(round+1), 0)
		}
		s, ok := newProp(ctx, fixed)
		if !ok {
			st.Engine = Propagation
			return nil, st, ErrNoCompletion
		}
		s.limit = nodeBudget
		if round > 0 || opt.Shuffle {
			s.rnd = rng.Uint64() | 1
		}
		found, err := s.search(0)
		st.Nodes += s.nodes
		switch {
		case found:
			st.Engine = Propagation
			return s.q, st, nil
		case err == nil:
			st.Engine = Propagation
			return nil, st, ErrNoCompletion
		case err != errLimit:
			return nil, st, err
		}
		if opt.PropagationOnly {
			nodeBudget *= 2
			continue
		}
		q, swaps, err := localSearch(ctx, fixed, rng, swapBudget)
		st.Swaps += swaps
		if err == nil {
			st.Engine = MinConflicts
			return q, st, nil
		}
		if err != errLimit {
			return nil, st, err
		}
		nodeBudget *= 2
		swapBudget *= 2
	}
}

// Count returns the number of completions of fixed: 0 when fixed queens attack each other.
// It returns an error on cancellation (with the count so far) or when the count
// overflows 64 bits. progress, if not nil, is called on the caller's goroutine as the
// search tree is covered: done of total, in 1/treeUnits of a branch of its first choice
// (the share of the deeper choices' branches finished within it, reported after every
// branch of the first two choices and every reportNodes nodes at most otherwise), never
// going back.
func Count(ctx context.Context, fixed []int32, progress func(done, total uint64)) (uint64, Stats, error) {
	st := Stats{Engine: Propagation, Rounds: 1}
	if err := check(fixed, MaxN); err != nil {
		return 0, st, err
	}
	s, ok := newProp(ctx, fixed)
	if !ok {
		return 0, st, nil
	}
	s.counting = true
	s.progress = progress
	_, err := s.search(0)
	st.Nodes = s.nodes
	return s.count, st, err
}
