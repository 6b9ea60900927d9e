package nqueens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/internal/complete"
)

// MaxCompletionN is the largest board FindCompletion accepts (that of Solve).
const MaxCompletionN = complete.MaxFindN

// MaxCountCompletionsN is the largest board CountCompletions accepts: counting needs the
// propagation search, about 24·n² bytes.
const MaxCountCompletionsN = complete.MaxN

// ErrNoCompletion says that a partial placement has no completion.
var ErrNoCompletion = fmt.Errorf("no completion exists: %w", ErrNoSolution)

// ErrCompletionUnknown says that FindCompletion found no completion within its budget and
// could not prove that none exists: on a board whose complete search the memory cannot
// hold, the local search alone gave up. It is not ErrNoSolution.
var ErrCompletionUnknown = errors.New("unknown: no completion found within the budget, and none ruled out")

// CompletionOptions configures FindCompletion and CountCompletions. The zero value uses
// seed 0.
type CompletionOptions struct {
	Seed uint64 // seed of the local search and of the restarts' value orders
	// MaxMemory, in bytes, bounds what the searches may allocate: a board beyond it
	// fails with a *MemoryError before anything is allocated, and the complete
	// (propagation) search, about 24·n² bytes, runs only within it (CountCompletions
	// needs it). Zero means the memory this process may use (its cgroup's limit or the
	// machine's RAM).
	MaxMemory int64
	// Runs bounds the runs of the O(n) local search that large boards try first; zero
	// means 16. When they fail and the complete search does not fit, the answer is
	// ErrCompletionUnknown.
	Runs int
	// Progress, when not nil, is called now and then (see [Progress]). FindCompletion:
	// on large boards the phases of the local search ("initial" in attempts out of its
	// budget, "final"), then "round" with the rounds of the complete search begun (Total
	// unknown). CountCompletions: phase "count", in 2^-20 of a branch of the search's
	// first choice (an estimate of the share of the search tree done, which moves every
	// few milliseconds of search), or with no queen fixed and n ≤ 27 that of [Count].
	Progress func(Progress)
}

// CompletionResult is the outcome of FindCompletion (a placement) or of CountCompletions
// (a count).
type CompletionResult struct {
	N         int
	Placement Placement // FindCompletion: a solution keeping every fixed queen; it has passed Verify
	// Total is what CountCompletions counted: the completions of the partial placement.
	Total uint64
	// Algorithm is the search that answered: Propagation (the complete search),
	// MinConflicts (min-conflicts repair, alternating with it) or LocalSearch (Sosic–Gu's
	// local search with the fixed queens in place, O(n), on large boards: the algorithm
	// of Solve's LocalSearch). CountCompletions given no fixed queen runs [Count] and
	// leaves it empty.
	Algorithm Algorithm
	Status    Status // Complete, NoSolution, Undecided (FindCompletion), Interrupted or Failed
	// Stats: Nodes (propagation), Attempts and Swaps (local searches), Restarts (runs and
	// rounds after the first).
	Stats Stats
}

// FindCompletion finds a solution that keeps the queens of p (the n-Queens Completion
// problem, docs/algorithms.md §4), or returns ErrNoCompletion when none exists. Fixed
// queens that attack each other are reported by p.Check as a *ConflictError. On a large
// board whose complete search the memory cannot hold, it may end with
// ErrCompletionUnknown (Status Undecided), never with a wrong "no completion".
func FindCompletion(ctx context.Context, p Partial, opt CompletionOptions) (res CompletionResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = CompletionResult{N: len(p)}
	if err := checkPartial(p, MaxCompletionN, opt.MaxMemory, false); err != nil {
		return res, err
	}
	rep := newReporter(opt.Progress)
	defer rep.Close()
	var progress func(phase string, done, total uint64)
	if rep != nil {
		progress = rep.Report
	}
	q, st, err := complete.Find(ctx, p, complete.Options{Rand: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15)),
		MemoryLimit: opt.MaxMemory, Runs: opt.Runs, Progress: progress})
	res.Algorithm = Algorithm(st.Engine)
	res.Stats = Stats{Nodes: st.Nodes, Attempts: st.Attempts, Swaps: st.Swaps,
		Restarts: uint64(max(st.Runs-1, 0) + max(st.Rounds-1, 0))}
	switch {
	case errors.Is(err, complete.ErrNoCompletion):
		return res, ErrNoCompletion
	case errors.Is(err, complete.ErrUnknown):
		have := memoryLimit(opt.MaxMemory)
		why := fmt.Sprintf("n = %d is past the complete search's largest board (%d)", res.N, complete.MaxN)
		if res.N <= complete.MaxN {
			why = fmt.Sprintf("the complete search of n = %d needs %s, more than the %s available", res.N,
				bytesText(complete.MemoryNeed(res.N)), bytesText(have))
		}
		return res, fmt.Errorf("%w: %d runs of the local search found none, and %s", ErrCompletionUnknown, st.Runs, why)
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

// CountCompletions counts the solutions that keep the queens of p: the result's Total,
// exact when its Status is Complete, a lower bound when Interrupted (ctx cancelled). With
// no queen fixed it is [Count]'s total. Of opt, MaxMemory and Progress apply.
func CountCompletions(ctx context.Context, p Partial, opt CompletionOptions) (res CompletionResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = CompletionResult{N: len(p)}
	if err := checkPartial(p, MaxCountCompletionsN, opt.MaxMemory, true); err != nil {
		return res, err
	}
	empty := true
	for _, c := range p {
		empty = empty && c < 0
	}
	if empty && len(p) <= 27 {
		r, err := Count(ctx, len(p), CountOptions{Progress: opt.Progress})
		res.Total, res.Stats = r.Total.Lo, r.Stats // Q(27) < 2^64
		return res, err
	}
	rep := newReporter(opt.Progress)
	defer rep.Close()
	total, st, err := complete.Count(ctx, p, rep.Phase("count"))
	res.Algorithm, res.Total, res.Stats = Propagation, total, Stats{Nodes: st.Nodes}
	return res, err
}

// checkPartial rejects boards beyond maxN, boards whose search the memory cannot hold (a
// *MemoryError, said before the search rather than by a crash in it), and fixed queens
// that attack each other. The memory is that of the engine that runs, within limit (0:
// the process's): for finding the O(n) local search on large boards, for counting the
// propagation search, about 24·n² bytes.
func checkPartial(p Partial, maxN int, limit int64, counting bool) error {
	n := len(p)
	what := "completion"
	if counting {
		what = "counting completions"
	}
	if n < 1 || n > maxN {
		return &SizeError{N: n, Min: 1, Max: maxN, What: what}
	}
	have := memoryLimit(limit)
	need := complete.MemoryNeed(n)
	if !counting {
		free := 0
		for _, c := range p {
			if c < 0 {
				free++
			}
		}
		need = complete.FindMemoryNeed(n, free, limit) + int64(n)*5/8 // and Verify's bits
	}
	if have > 0 && need > have {
		return &MemoryError{N: n, Need: need, Have: have}
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
	if n < 1 || n > complete.MaxFindN {
		return nil, &SizeError{N: n, Min: 1, Max: complete.MaxFindN, What: "the generator"}
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	p, err := complete.Generate(ctx, n, k, complete.Mode(mode), rng)
	return Partial(p), err
}
