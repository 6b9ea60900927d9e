package nqueens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/internal/complete"
	"github.com/nqueens/nqueens/internal/sysmem"
)

// MaxCompletionN is the largest board FindCompletion and CountCompletions accept.
const MaxCompletionN = complete.MaxN

// ErrNoCompletion says that a partial placement has no completion.
var ErrNoCompletion = fmt.Errorf("no completion exists: %w", ErrNoSolution)

// CompletionOptions configures FindCompletion. The zero value uses seed 0.
type CompletionOptions struct {
	Seed uint64 // seed of the local search and of the restarts' value orders
}

// CompletionResult is the outcome of FindCompletion.
type CompletionResult struct {
	N         int
	Placement Placement // a solution keeping every fixed queen; it has passed Verify
	Engine    string    // "propagation" or "localsearch": the search that answered
	Status    Status    // Complete, NoSolution, Interrupted or Failed
	Stats     Stats     // Nodes (propagation), Swaps (local search), Restarts (rounds − 1)
}

// FindCompletion finds a solution that keeps the queens of p (the n-Queens Completion problem,
// docs/algorithms.md §4), or returns ErrNoCompletion when none exists. Fixed queens that attack
// each other are reported by p.Check as a *ConflictError.
func FindCompletion(ctx context.Context, p Partial, opt CompletionOptions) (res CompletionResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = CompletionResult{N: len(p)}
	if err := checkPartial(p); err != nil {
		return res, err
	}
	q, st, err := complete.Find(ctx, p, complete.Options{Rand: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))})
	res.Engine = string(st.Engine)
	res.Stats = Stats{Nodes: st.Nodes, Swaps: st.Swaps, Restarts: uint64(st.Rounds - 1)}
	switch {
	case errors.Is(err, complete.ErrNoCompletion):
		return res, ErrNoCompletion
	case err != nil:
		return res, err
	}
	res.Placement = q
	if err := Verify(res.Placement); err != nil {
		return res, fmt.Errorf("internal error: the completion is invalid: %w", err)
	}
	for r, c := range p {
		if c >= 0 && q[r] != c {
			return res, fmt.Errorf("internal error: the completion moved the fixed queen of row %d", r+1)
		}
	}
	return res, nil
}

// CountCompletions counts the solutions that keep the queens of p. With no queen fixed it
// is [Count]'s total.
func CountCompletions(ctx context.Context, p Partial) (uint64, Stats, error) {
	if err := checkPartial(p); err != nil {
		return 0, Stats{}, err
	}
	empty := true
	for _, c := range p {
		empty = empty && c < 0
	}
	if empty && len(p) <= 27 {
		r, err := Count(ctx, len(p), CountOptions{})
		return r.Total, r.Stats, err
	}
	n, st, err := complete.Count(ctx, p)
	return n, Stats{Nodes: st.Nodes}, err
}

// checkPartial rejects boards out of range, boards whose search the memory cannot hold
// (a *MemoryError, said before the search rather than by a crash in it), and fixed queens
// that attack each other.
func checkPartial(p Partial) error {
	if len(p) < 1 || len(p) > complete.MaxN {
		return &SizeError{N: len(p), Min: 1, Max: complete.MaxN, What: "completion"}
	}
	if need, have := complete.MemoryNeed(len(p)), sysmem.Limit(); have > 0 && need > have {
		return &MemoryError{N: len(p), Need: need, Have: have}
	}
	return p.Check()
}

// GenerateMode says how GenerateInstance places the fixed queens.
type GenerateMode string

// The instance generators, after Gent, Jefferson & Nightingale (2017).
const (
	FromSolution GenerateMode = "solution" // k queens of a random full solution: always completable
	RandomQueens GenerateMode = "random"   // k queens on random unattacked squares: maybe not
)

// GenerateInstance returns a random partial placement of an n×n board with k queens,
// reproducible from seed.
func GenerateInstance(ctx context.Context, n, k int, mode GenerateMode, seed uint64) (Partial, error) {
	if n < 1 || n > complete.MaxN {
		return nil, &SizeError{N: n, Min: 1, Max: complete.MaxN, What: "the generator"}
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	p, err := complete.Generate(ctx, n, k, complete.Mode(mode), rng)
	return Partial(p), err
}
