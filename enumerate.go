package nqueens

import (
	"context"

	"github.com/nqueens/nqueens/internal/enumerate"
)

// MaxEnumerateN is the largest board Enumerate accepts.
const MaxEnumerateN = enumerate.MaxN

// EnumerateOptions configures Enumerate. The zero value lists every solution.
type EnumerateOptions struct {
	Unique bool   // list one canonical representative per symmetry class, with its class size
	Limit  uint64 // stop after this many solutions; 0 means no limit
	// Workers is the number of goroutines searching ahead of the caller (0: one per CPU,
	// as everywhere); the order of the solutions and the goroutine calling yield do not
	// depend on it.
	Workers int
	// Progress, when not nil, is called now and then (see [Progress]): phase "list", in
	// solutions listed (classes with Unique), out of the published count of the board
	// (KnownCounts; the unique one with Unique) or Limit when smaller, Total 0 past
	// maxKnownN. The last call says how many were listed.
	Progress func(Progress)
}

// listReports is the number of solutions between two progress reports of Enumerate.
const listReports = 1 << 12

// listTotal is the Total of the progress of a listing of n: what it will list when
// complete, as far as it is known.
func listTotal(n int, opt EnumerateOptions) uint64 {
	total, unique, ok := KnownCounts(n)
	if !ok {
		return 0
	}
	if opt.Unique {
		total = unique
	}
	if opt.Limit > 0 {
		total = min(total, opt.Limit)
	}
	return total
}

// EnumerateResult is the outcome of an enumeration.
type EnumerateResult struct {
	N      int
	Listed uint64 // solutions passed to yield
	Total  uint64 // solutions they stand for: Listed, or the sum of the class sizes when Unique
	// Stopped is set when the enumeration ended before the last solution: the limit was
	// reached (possibly on the last solution) or yield returned false.
	Stopped bool
	Status  Status // Complete, NoSolution (nothing to list: n = 2, 3), Interrupted or Failed
	Stats   Stats  // Nodes: squares tried
}

// Enumerate calls yield for every solution of the n×n board (1 ≤ n ≤ MaxEnumerateN) in
// lexicographic order, in constant memory. p is a buffer reused from call to call: clone
// it to keep it. classSize is 1, or with opt.Unique the size of the symmetry class (8, 4,
// 2, or 1 for n = 1) of which p is the canonical form: its lexicographically smallest
// image under the 8 symmetries of the square ([Canonical]).
//
// Enumeration stops when yield returns false or after opt.Limit solutions. On
// cancellation it returns the result so far, with Status Interrupted, and ctx.Err().
func Enumerate(ctx context.Context, n int, opt EnumerateOptions, yield func(p Placement, classSize int) bool) (res EnumerateResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	res = EnumerateResult{N: n}
	if n < 1 || n > enumerate.MaxN {
		return res, &SizeError{N: n, Min: 1, Max: enumerate.MaxN, What: "enumeration"}
	}
	rep := newReporter(opt.Progress)
	defer rep.Close()
	total := listTotal(n, opt)
	var k uint64
	st, err := enumerate.EachParallel(ctx, n, opt.Unique, opt.Workers, func(q []int32, size int) bool {
		k++
		if !yield(Placement(q), size) || (opt.Limit > 0 && k >= opt.Limit) {
			res.Stopped = true
			return false
		}
		if k%listReports == 0 {
			rep.Report("list", k, total)
		}
		return true
	})
	res.Listed, res.Total, res.Stats.Nodes = st.Solutions, st.Total, st.Nodes
	rep.Report("list", res.Listed, total)
	if err == nil && st.Solutions == 0 {
		res.Status = NoSolution
	}
	return res, err
}
