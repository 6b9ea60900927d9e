package complete

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// ErrNoCompletion says that the fixed queens cannot be completed to a solution.
var ErrNoCompletion = errors.New("no completion exists")

// Engine names the search that produced an answer.
type Engine string

// The engines.
const (
	Propagation Engine = "propagation" // the complete bitset search (prop.go)
	LocalSearch Engine = "localsearch" // min-conflicts repair (local.go)
)

// Stats are the counters of a run.
type Stats struct {
	Nodes  uint64 // calls of the propagation search, over all rounds
	Swaps  uint64 // swap attempts of the local search, over all rounds
	Rounds int    // portfolio rounds (Find)
	Engine Engine // the engine that answered
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
}

// localSearchMinN is the smallest board on which Find runs the local search.
const localSearchMinN = 40

// check validates the partial placement: columns in range and the board within MaxN.
func check(fixed []int32) error {
	n := len(fixed)
	if n < 1 || n > MaxN {
		return fmt.Errorf("completion handles n from 1 to %d, not %d", MaxN, n)
	}
	for r, c := range fixed {
		if c < -1 || int(c) >= n {
			return fmt.Errorf("row %d: column %d is off the board", r+1, c+1)
		}
	}
	return nil
}

// Find returns a completion of fixed (fixed[r] is the 0-based column of the queen fixed
// on row r, −1 for a free row): a placement keeping every fixed queen. It returns
// ErrNoCompletion when there is none, including when fixed queens attack each other.
//
// It alternates the propagation search with a node budget and the local search with a
// swap budget, doubling both every round, until one answers (see the package comment).
func Find(ctx context.Context, fixed []int32, opt Options) ([]int32, Stats, error) {
	var st Stats
	if err := check(fixed); err != nil {
		return nil, st, err
	}
	rng := opt.Rand
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	n := len(fixed)
	nodeBudget, swapBudget := uint64(4*n+1000), uint64(64*n+10000)
	if n < localSearchMinN {
		nodeBudget = 0 // no budget: one complete run
	}
	for round := 0; ; round++ {
		st.Rounds = round + 1
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
			st.Engine = LocalSearch
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
// overflows 64 bits.
func Count(ctx context.Context, fixed []int32) (uint64, Stats, error) {
	st := Stats{Engine: Propagation, Rounds: 1}
	if err := check(fixed); err != nil {
		return 0, st, err
	}
	s, ok := newProp(ctx, fixed)
	if !ok {
		return 0, st, nil
	}
	s.counting = true
	_, err := s.search(0)
	st.Nodes = s.nodes
	return s.count, st, err
}
