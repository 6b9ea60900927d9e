package nqueens

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/nqueens/nqueens/internal/backtrack"
	"github.com/nqueens/nqueens/internal/construct"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/localsearch"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/sysmem"
	"github.com/nqueens/nqueens/internal/u128"
)

// Status says how a run ended. Every function that returns a result sets it, on every
// return; the zero value, Unknown, only marks a result no run has filled in.
type Status int

// The ways a run ends.
const (
	Unknown     Status = iota // not set by any run
	Complete                  // the run finished: the result is exact
	Interrupted               // the run was cancelled: counts cover the finished work only
	NoSolution                // the board (or the partial placement) has no solution
	Failed                    // the run could not be done: the error says why (size, memory...)
	Undecided                 // FindCompletion: no completion found within the budget, none ruled out
)

var statusNames = [...]string{"unknown", "complete", "interrupted", "no solution", "failed", "undecided"}

// String returns a lower-case name ("complete", "interrupted"...); it never panics.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// settle is the status of a run that ended with err, given the status s it set itself
// (Unknown if none): cancellation is Interrupted, ErrNoSolution is NoSolution, any other
// error Failed, and success Complete unless the run said NoSolution.
func settle(s Status, err error) Status {
	switch {
	case err == nil && s == Unknown:
		return Complete
	case err == nil:
		return s
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return Interrupted
	case errors.Is(err, ErrNoSolution):
		return NoSolution
	case errors.Is(err, ErrCompletionUnknown):
		return Undecided
	}
	return Failed
}

// Stats holds plain counters of a run; the fields an algorithm does not use stay zero.
type Stats struct {
	// Nodes counts the calls of the search function (root included): of the
	// backtracking of Solve, of the propagation search of completions. Count leaves it
	// 0: its engines, the quadrant join and the border constellations, do not work by
	// calls of one search function.
	Nodes     uint64
	Checks    uint64 // tests of a square
	Subs      uint64 // independent sub-problems of a count
	SubsDone  uint64 // sub-problems finished
	Attempts  uint64 // local search: initial-search attempts
	Conflicts uint64 // local search: queens left in conflict after the initial search (k)
	Swaps     uint64 // local search: final-search swap attempts
	Restarts  uint64 // local search: restarts from scratch
}

// CountResult is the outcome of a count.
type CountResult struct {
	N      int
	Total  Uint128 // solutions (OEIS A000170)
	Unique Uint128 // classes under the 8 symmetries (OEIS A002562)
	// Kernel names the matcher kernel of the quadrant join that counted: "go", "avx2"
	// or "avx512" (CountOptions.Kernel, resolved), "none" for n ≤ 9 (the border
	// constellations run none).
	Kernel  string
	Workers int // the goroutines it counted on: CountOptions.Workers, 0 resolved to one per CPU
	Status  Status
	Stats   Stats
}

// Uint128 is an unsigned 128-bit integer, Hi·2^64 + Lo: the counts of a board and the
// sums of a distributed count (Q(29) ≈ 3·10^19 is above 2^64). String spells it in
// decimal; in JSON it is a plain number (see docs/vocabulary.md for reading one above
// 2^53). A count below 2^64 is Lo, with Hi 0.
type Uint128 struct{ Hi, Lo uint64 }

// String returns x in decimal.
func (x Uint128) String() string { return u128.U128(x).String() }

// MarshalJSON writes x as a plain JSON number.
func (x Uint128) MarshalJSON() ([]byte, error) { return u128.U128(x).MarshalJSON() }

// UnmarshalJSON reads a JSON number (a whole one, 0 to 2^128−1) into x.
func (x *Uint128) UnmarshalJSON(b []byte) error { return (*u128.U128)(x).UnmarshalJSON(b) }

// FindResult is the outcome of a search for one solution. It holds no seed: the seed is
// the caller's (SolveOptions.Seed), and Solve with the same options finds the same
// placement again.
type FindResult struct {
	N         int
	Placement Placement
	Algorithm Algorithm // the algorithm that ran (never Auto)
	Status    Status
	Stats     Stats
}

// ErrKernel is wrapped by the error of a count whose CountOptions.Kernel names no matcher
// kernel of the quadrant join, or one this CPU does not run. Counts check it first,
// whatever n (the join counts 10 ≤ n ≤ MaxCountN, but a setting that is wrong is wrong
// for every n), and refuse to start.
var ErrKernel = qjoin.ErrKernel

// MaxCountN is the largest board the counter takes.
const MaxCountN = fastcount.MaxN

// CountMemory is an upper bound, in bytes, of the memory a count of the n×n board (whole,
// or a shard of package cluster split into at most half as many shards as sub-problems;
// cluster.ShardMemory is a shard's own, smaller) takes with the given number of workers
// (0 means GOMAXPROCS), counting the garbage collector's room: a count is refused with a
// MemoryError when the machine has less (or than CountOptions.MaxMemory). A program that
// runs counts can pass it to debug.SetMemoryLimit, so that the garbage collector keeps
// the heap under it (the command does, unless GOMEMLIMIT is set).
func CountMemory(n, workers int) uint64 { return fastcount.EstimateMemory(n, workers) }

// CountOptions configures Count. The zero value counts on every core, with the fastest
// kernel, within the memory the process may use, without progress.
type CountOptions struct {
	Workers int // goroutines; 0 means GOMAXPROCS
	// Progress, when not nil, is called after each finished sub-problem (see [Progress]):
	// phase "count", in units of the sub-problems' estimated cost.
	Progress func(Progress)
	// Kernel names the matcher kernel of the quadrant join (10 ≤ n ≤ MaxCountN): "go",
	// "avx2" or "avx512"; "" or "auto" takes the fastest this CPU runs (the widest, unless
	// a few milliseconds of timing find another clearly faster). Every kernel gives the
	// same counts. A name that is not a kernel, or one the CPU does not run, fails the
	// count before any work with an error wrapping ErrKernel. (The command takes it from
	// the environment variable NQUEENS_KERNEL.)
	Kernel string
	// MaxMemory, in bytes, bounds what the count may take (CountMemory of n and Workers):
	// a larger count fails with a *MemoryError before any work. Zero means the memory
	// this process may use: its cgroup's limit (container, pod, Slurm job) or the
	// machine's RAM.
	MaxMemory int64
}

// Count counts every solution of the n×n board, total and unique, for 1 ≤ n ≤ 29
// (MaxCountN): independent sub-problems on a pool of workers, the quadrant join of
// internal/qjoin for 10 ≤ n ≤ 29 (MaxCountN), and canonical border constellations,
// weighted by their symmetry, for 1 ≤ n ≤ 9. A board outside the range is a *SizeError, one that needs more memory than allowed a
// *MemoryError (CountMemory, CountOptions.MaxMemory), a bad kernel an error wrapping
// ErrKernel, all before any work. On cancellation it returns the sums of the
// sub-problems finished (Stats.SubsDone of Stats.Subs: lower bounds, not the answer;
// Unique is then their Burnside numerator divided by 8, rounded down, no count), with
// Status Interrupted and ctx.Err(). Stats.Nodes stays 0 (see Stats).
func Count(ctx context.Context, n int, opt CountOptions) (res CountResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	if n < 1 || n > fastcount.MaxN {
		return CountResult{N: n}, &SizeError{N: n, Min: 1, Max: fastcount.MaxN, What: "the counter"}
	}
	kern, err := qjoin.ResolveName(opt.Kernel)
	if err != nil {
		return CountResult{N: n}, err
	}
	// Say up front when the machine cannot hold the count, rather than dying midway.
	if need, have := int64(fastcount.EstimateMemory(n, opt.Workers)), memoryLimit(opt.MaxMemory); have > 0 && need > have {
		return CountResult{N: n}, &MemoryError{N: n, Need: need, Have: have}
	}
	rep := newReporter(opt.Progress)
	defer rep.Close()
	r, err := fastcount.Count(ctx, n, fastcount.Options{Workers: opt.Workers, Kernel: kern, Progress: rep.Phase("count")})
	return CountResult{N: n, Total: Uint128(r.Total), Unique: Uint128(r.Unique), Kernel: r.Kernel, Workers: r.Workers,
		Stats: Stats{Subs: uint64(r.Subs), SubsDone: uint64(r.SubsDone)}}, err
}

// Algorithm names a way to find one solution.
type Algorithm string

// The algorithms of Solve.
const (
	Auto        Algorithm = "auto"        // pick from n: Backtrack for small n, LocalSearch otherwise
	LocalSearch Algorithm = "localsearch" // Sosic–Gu linear-time local search (docs/algorithms.md §3.6)
	Construct   Algorithm = "construct"   // the explicit O(n) construction (docs/algorithms.md §3.7)
	Backtrack   Algorithm = "backtrack"   // first-fit depth-first search, n ≤ 32
)

// The other algorithms of FindCompletion (CompletionResult.Algorithm), which also runs
// LocalSearch, with the fixed queens in place; Solve does not take them.
const (
	Propagation  Algorithm = "propagation"  // the complete search: constraint propagation on bitsets
	MinConflicts Algorithm = "minconflicts" // min-conflicts repair of the free queens, alternating with it
)

// autoBacktrackMax is the largest n for which Auto picks backtracking: beyond it the
// number of nodes to the first solution grows too irregularly.
const autoBacktrackMax = 20

// ParseAlgorithm maps a name to an Algorithm.
func ParseAlgorithm(s string) (Algorithm, error) {
	switch a := Algorithm(strings.ToLower(s)); a {
	case Auto, LocalSearch, Construct, Backtrack:
		return a, nil
	}
	return "", fmt.Errorf("unknown algorithm %q (want auto, localsearch, construct or backtrack)", s)
}

// MaxN is the largest board any part of the library accepts: columns are stored as
// int32 and written as uint32.
const MaxN = 1<<31 - 1

// Pick returns the algorithm Auto stands for at n, or a itself.
func (a Algorithm) Pick(n int) Algorithm {
	if a != Auto && a != "" {
		return a
	}
	if n <= autoBacktrackMax {
		return Backtrack
	}
	return LocalSearch
}

// CheckSize returns an error when algorithm a cannot handle n: a *SizeError for a size out
// of range, ErrNoSolution for n = 2 and 3. The memory is Solve's to check, once, against
// SolveOptions.MaxMemory.
func (a Algorithm) CheckSize(n int) error {
	max := MaxN
	switch a.Pick(n) {
	case Backtrack:
		max = backtrack.MaxN
	case LocalSearch:
		max = localsearch.MaxN
	}
	switch {
	case n < 1 || n > max:
		return &SizeError{N: n, Min: 1, Max: max, What: string(a.Pick(n))}
	case n == 2 || n == 3:
		return ErrNoSolution
	}
	return nil
}

// checkMemory returns a *MemoryError when Solve would need more than limit bytes for n
// with algorithm a (0: the memory this process may use, its cgroup's limit or the
// machine's RAM, where it is known): the local search's arrays, or the construction's
// placement (4 bytes a queen) and the verification of its stream (5 bits); backtracking
// is tiny.
func (a Algorithm) checkMemory(n int, limit int64) error {
	var need int64
	switch a.Pick(n) {
	case LocalSearch:
		need = localsearch.MemoryBytes(n)
	case Construct:
		need = 4*int64(n) + (5*int64(n)+7)/8
	default:
		return nil
	}
	if limit = memoryLimit(limit); limit > 0 && need > limit {
		return &MemoryError{N: n, Need: need, Have: limit}
	}
	return nil
}

// memoryLimit is the memory a run may take for the option max (MaxMemory): max itself
// when set, else the memory this process may use (its cgroup's limit or the machine's
// RAM; 0 when unknown).
func memoryLimit(max int64) int64 {
	if max > 0 {
		return max
	}
	return sysmem.Limit()
}

// MemoryError says that a board would need more memory than the process may use; it is
// returned before anything is allocated.
type MemoryError struct {
	N          int
	Need, Have int64 // bytes
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("n = %d needs %s of memory, more than the %s available", e.N, bytesText(e.Need), bytesText(e.Have))
}

// bytesText writes a byte count for people: 3 kB, 120 MB, 4.5 GB, and from 10^12 on
// 26 TB.
func bytesText(b int64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.0f TB", float64(b)/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	}
	return fmt.Sprintf("%.0f kB", float64(b)/1e3)
}

// Construction streams the explicit solution of docs/algorithms.md §3.7 for n (n = 1 or
// n ≥ 4) without holding it in memory: about 1 ns per row. The stream can be ranged over
// any number of times. It is verified first, as a stream (Verify's O(n) check with
// 4.5 bits per row, no placement held), so that a stream returned without error is a
// solution; ctx can stop the verification of a large board.
func Construction(ctx context.Context, n int) (iter.Seq[int], error) {
	if err := Construct.CheckSize(n); err != nil {
		return nil, err
	}
	cols := construct.Columns(n)
	if err := VerifyColumns(n, cancellable(ctx, cols)); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("internal error: the construction failed verification: %w", err)
	}
	return cols, nil
}

// SolveOptions configures Solve. The zero value picks the algorithm from n.
type SolveOptions struct {
	Algorithm Algorithm // Auto when empty
	// Seed seeds the algorithms that draw random numbers (LocalSearch): the same seed
	// gives the same placement. The zero value is seed 0, a fixed seed like any other,
	// not a random one (the command draws a random seed when --seed is not given, and
	// prints it); pass a random value, such as rand.Uint64(), for a different solution
	// from run to run, and keep it to find the solution again.
	Seed uint64
	// Progress, when not nil, is called now and then by the local search (see
	// [Progress]): phase "initial" in attempts of the initial search out of its budget,
	// "final" (Total unknown) for the final search, then "verify" in rows checked.
	Progress func(Progress)
	// MaxMemory, in bytes, bounds what the local search may allocate; a larger board
	// fails with a *MemoryError before anything is allocated. Zero means the memory this
	// process may use: its cgroup's limit (container, pod, Slurm job) or the machine's RAM.
	MaxMemory int64
}

// Solve finds one solution of the n×n board. The placement it returns has passed Verify;
// a placement that fails it is reported as an error, never returned.
func Solve(ctx context.Context, n int, opt SolveOptions) (res FindResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	a := opt.Algorithm.Pick(n)
	res = FindResult{N: n, Algorithm: a}
	if err := a.CheckSize(n); err != nil {
		return res, err
	}
	if err := a.checkMemory(n, opt.MaxMemory); err != nil {
		return res, err
	}
	switch a {
	case Construct:
		cols, err := Construction(ctx, n)
		if err != nil {
			return res, err
		}
		res.Placement = make(Placement, 0, n)
		for c := range cols {
			res.Placement = append(res.Placement, int32(c))
		}
		return res, nil // verified as a stream
	case LocalSearch:
		// The diagonal bitsets of the search are the scratch of the verification, so that
		// solving and verifying never hold more than 4.5 bytes per queen.
		scratch := localsearch.NewScratch(max(localsearch.ScratchWords(n), verifyWords(n)))
		rep := newReporter(opt.Progress)
		defer rep.Close()
		var progress func(phase string, done, total uint64)
		if rep != nil {
			progress = rep.Report
		}
		q, st, err := localsearch.Solve(ctx, n, localsearch.Options{Seed: opt.Seed, Progress: progress, Scratch: scratch, MemoryLimit: -1})
		res.Stats = Stats{Attempts: uint64(st.Attempts), Conflicts: uint64(st.K), Swaps: uint64(st.FinalSwaps), Restarts: uint64(st.Restarts)}
		if err != nil {
			return res, err
		}
		res.Placement = q
		if err := verifyInPlace(ctx, res.Placement, scratch, progress, verifyOptions{}); err != nil {
			if ctx.Err() != nil {
				res.Placement = nil
				return res, err
			}
			return res, fmt.Errorf("internal error: %s produced an invalid placement: %w", a, err)
		}
		return res, nil
	case Backtrack:
		q, nodes, err := backtrack.Find(ctx, n)
		res.Stats.Nodes = nodes
		if err != nil {
			return res, err
		}
		res.Placement = q
	default:
		return res, fmt.Errorf("unknown algorithm %q", a)
	}
	if err := Verify(res.Placement); err != nil {
		return res, fmt.Errorf("internal error: %s produced an invalid placement: %w", a, err)
	}
	return res, nil
}
