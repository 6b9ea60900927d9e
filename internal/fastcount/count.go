package fastcount

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/u128"
)

// SubResult is one sub-problem's contribution to the totals. Total counts
// solutions (for a constellation, every solution of its symmetry class:
// solutions × weight). Burnside is its share of the Burnside numerator
// T + S180 + 2·S90 = 8·U: 8 times its classes of solutions for a
// constellation; its Total, S180 or 2·S90 for the quadrant join. The unique
// count is ΣBurnside/8 (see Unique). Nodes measures the work.
type SubResult struct {
	Total, Burnside, Nodes uint64
}

// ErrBurnside is returned when the Burnside numerator of a complete count is
// not a multiple of 8: some sub-problem was counted wrong.
var ErrBurnside = errors.New("fastcount: the Burnside sum is not a multiple of 8: a sub-problem count is wrong")

// Unique is the unique count of a complete count whose sub-problems' Burnside
// numerators add up to burnside: burnside/8, or ErrBurnside if it is not a
// multiple of 8.
func Unique(burnside u128.U128) (u128.U128, error) {
	if burnside.Mod8() != 0 {
		return burnside.Div8(), fmt.Errorf("%w (%v)", ErrBurnside, burnside)
	}
	return burnside.Div8(), nil
}

// SolveSub counts sub-problem i. On cancellation it returns ctx.Err() and a
// zero result: a sub-problem counts only when it is finished.
func (p *Plan) SolveSub(ctx context.Context, i int) (SubResult, error) {
	if i < 0 || i >= p.Len() {
		return SubResult{}, fmt.Errorf("fastcount: sub-problem %d out of range 0..%d", i, p.Len()-1)
	}
	if err := ctx.Err(); err != nil {
		return SubResult{}, err
	}
	if p.q != nil {
		r, err := p.q.SolveSub(ctx, i, qjoin.KernelAuto)
		return SubResult(r), err
	}
	stop, release := pool.StopFlag(ctx)
	defer release()
	r, ok := p.solve(i, &scratch{}, EngineAuto, stop)
	if !ok {
		return SubResult{}, ctx.Err()
	}
	return r, nil
}

// Engine selects how the sub-problems are counted. Every engine gives the
// same results; they differ only in speed.
type Engine int

const (
	// EngineAuto picks by n: EngineQJoin from minQJoinN to qjoin.MaxN,
	// else EngineJoin from minJoinN to maxJoinN, where each measured
	// faster, else EngineSearch.
	EngineAuto Engine = iota
	// EngineSearch runs one depth-first search per sub-problem (spec.go).
	EngineSearch
	// EngineJoin joins half boards (join.go); sub-problems too small to
	// split fall back to the search.
	EngineJoin
	// EngineQJoin is the quadrant join of internal/qjoin, with its own plan
	// (qjoin.go).
	EngineQJoin
)

// String names the engine as in benchmark names.
func (e Engine) String() string {
	switch e {
	case EngineAuto:
		return "auto"
	case EngineSearch:
		return "search"
	case EngineJoin:
		return "join"
	case EngineQJoin:
		return "qjoin"
	}
	return fmt.Sprintf("Engine(%d)", int(e))
}

// minJoinN is the smallest n where the join beats the search (measured at
// n=12..16 on the development machine: slower at 12, faster from 13 on).
const minJoinN = 13

// useJoin tells whether the engine e counts sub-problems of an n×n board by
// joining half boards. The column-set table limits the join to maxJoinN.
func useJoin(e Engine, n int) bool {
	switch e {
	case EngineSearch:
		return false
	case EngineJoin:
		return n <= maxJoinN
	}
	return n >= minJoinN && n <= maxJoinN
}

// scratch is one worker's reusable memory.
type scratch struct {
	join *joiner // allocated on first use
}

// solve counts sub-problem i; ok is false if stop was set before the end.
func (p *Plan) solve(i int, sc *scratch, e Engine, stop func() bool) (SubResult, bool) {
	s := p.Subs[i]
	if s.Kind == KindWhole {
		t, u, nodes := countWhole(p.N)
		return SubResult{Total: t, Burnside: 8 * u, Nodes: nodes}, true
	}
	poll := stop
	w := s.Weight()
	if s.Stab == 1 && useJoin(e, p.N) {
		if l := p.joinLayouts()[i]; l.img != nil {
			if sc.join == nil {
				sc.join = newJoiner(p.N)
			}
			sols, nodes, ok := sc.join.joinCount(p.N, l, poll)
			if !ok {
				return SubResult{}, false
			}
			return SubResult{Total: sols * w, Burnside: 8 * sols, Nodes: nodes}, true
		}
	}
	sp := compileQueens(p.N, orient(p.N, s.queens(p.N)))
	if s.Stab == 1 {
		sols, nodes, ok := countFast(sp, poll)
		if !ok {
			return SubResult{}, false
		}
		return SubResult{Total: sols * w, Burnside: 8 * sols, Nodes: nodes}, true
	}
	sols, f180, f90, nodes, ok := countSym(sp, poll)
	if !ok {
		return SubResult{}, false
	}
	// Burnside over the rotation stabiliser of the border set: the classes
	// of this sub-problem's solutions number (Σ fixed points)/|stabiliser|.
	var unique uint64
	switch s.Stab {
	case 2:
		unique = (sols + f180) / 2
	case 4:
		unique = (sols + f180 + 2*f90) / 4
	default:
		panic("fastcount: unexpected stabiliser size")
	}
	return SubResult{Total: sols * w, Burnside: 8 * unique, Nodes: nodes}, true
}

// Options tunes Count. The zero value uses every CPU and reports nothing.
type Options struct {
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, if not nil, is called after each finished sub-problem with
	// the finished and the total estimated work. It runs on worker
	// goroutines, possibly concurrently, and must be cheap.
	Progress func(doneWeight, totalWeight uint64)
	// Engine selects the counting engine; the zero value picks by n. It
	// must agree with the plan: a quadrant-join plan takes EngineAuto or
	// EngineQJoin, a constellation plan any other.
	Engine Engine
	// Kernel selects the matcher kernel of the quadrant join; the zero
	// value takes the fastest this CPU runs (see qjoin.KernelAuto).
	Kernel qjoin.Kernel
}

// Result is the outcome of Count. When Complete is false, Total, Burnside
// and Nodes are the exact sums over the SubsDone finished sub-problems only,
// and Unique is Burnside/8 rounded down (not a count of anything). Nodes
// saturates at 2^64-1.
type Result struct {
	N                       int
	Total, Unique, Burnside u128.U128
	Nodes                   uint64
	Complete                bool
	SubsDone, Subs          int
	Kernel                  string // the matcher kernel that counted, KernelNone without one
	Workers                 int    // the goroutines it counted on (Options.Workers, 0 resolved)
}

// KernelNone names the kernel of a count that runs none: the plans without
// the quadrant join (the border constellations, n ≤ 9, and the older
// engines when asked).
const KernelNone = "none"

// Count counts the solutions of the n×n board, total and unique.
//
// Workers pull sub-problem indices from an atomic counter; each finished
// sub-problem's result is added to the sums, exact integers whatever the
// order, so the result does not depend on scheduling. On
// cancellation Count returns promptly with Complete=false, the sums of the
// finished sub-problems and ctx.Err().
func Count(ctx context.Context, n int, opt Options) (Result, error) {
	p, err := NewPlanContext(ctx, n, opt.Engine)
	if err != nil {
		return Result{N: n}, err
	}
	return p.Count(ctx, opt)
}

// Count runs every sub-problem of the plan; see the package-level Count.
func (p *Plan) Count(ctx context.Context, opt Options) (Result, error) {
	res := Result{N: p.N, Subs: p.Len(), Kernel: KernelNone, Workers: pool.Default(opt.Workers)}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if p.HasKernel() {
		k, err := opt.Kernel.Resolve()
		if err != nil {
			return res, err
		}
		res.Kernel = k.String()
	}
	ids := make([]int, p.Len())
	for i := range ids {
		ids[i] = i
	}
	if err := p.checkEngine(opt.Engine); err != nil {
		return res, err
	}
	// The sums of the finished sub-problems, as they finish (calls of
	// done never overlap; integer sums do not depend on the order).
	var doneCost uint64
	_, perr := p.run(ctx, ids, opt.Workers, opt.Engine, opt.Kernel, func(i int, r SubResult) {
		res.add(r)
		if opt.Progress != nil {
			doneCost += uint64(p.Cost(i))
			opt.Progress(doneCost, p.TotalCost)
		}
	})
	res.Unique = res.Burnside.Div8()
	res.Complete = res.SubsDone == res.Subs
	if res.Complete {
		_, err := Unique(res.Burnside)
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if perr != nil {
		return res, perr
	}
	return res, errors.New("fastcount: stopped before the end")
}

// add adds a finished sub-problem's result to res, in 128 bits (Nodes
// saturating).
func (res *Result) add(r SubResult) {
	res.SubsDone++
	res.Total, _ = res.Total.Add64(r.Total)
	res.Burnside, _ = res.Burnside.Add64(r.Burnside)
	res.Nodes = SatAdd(res.Nodes, r.Nodes)
}

// SatAdd is a + b, or 2^64-1 when that overflows: the sum of a work
// measure.
func SatAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return ^uint64(0)
	}
	return s
}

// EstimateShardMemory bounds, in bytes, the memory of a count of subs of
// the sub-problems of n's plan (one shard of shards), its planning
// included: the join's figure (qjoin.EstimateShardMemory); below the join,
// the whole count's.
func EstimateShardMemory(n, workers, subs, shards int) uint64 {
	if useQJoin(EngineAuto, n) {
		return qjoin.EstimateShardMemory(n, pool.Default(workers), subs, shards)
	}
	return EstimateMemory(n, workers)
}

// EstimateMemory is a conservative upper bound, in bytes, of the memory
// Count needs for an n×n board with the given number of workers (0 means
// GOMAXPROCS), so that a caller can refuse a count the machine cannot hold
// before starting it. From n = 10 on the quadrant join counts, and the
// figure is its own (qjoin.EstimateMemory). For the older engines: their
// join's bottom halves take up to 72 bytes each with shared groups
// (counting slice growth and the padding of the bit-sliced blocks; about
// 50 measured), for 1.25 times the largest group measured at n=13..17;
// else up to 64 bytes (smaller buckets, scanned word by word or with fewer
// planes), for 2·2^(n-1) halves, twice the largest sub-problem measured at
// n=21.
func EstimateMemory(n, workers int) uint64 {
	workers = pool.Default(workers)
	if useQJoin(EngineAuto, n) {
		return qjoin.EstimateMemory(n, workers)
	}
	const base = 16 << 20 // runtime, plan, results
	per := uint64(64 << 10)
	if n >= minConstellationN && useJoin(EngineAuto, n) {
		per += 16 << uint(n-2) // the bucket table
		if sharedGroups(n) {
			per += 72*maxGroupBottoms(n)*5/4 + 2*16*batchMax
		} else {
			per += 64 * 2 << uint(n-1)
		}
	}
	subs := uint64(n) * uint64(n) * uint64(n) * uint64(n) / 8
	return base + subs*192 + uint64(workers)*per
}

// maxGroupBottoms is the number of bottom halves of the largest group
// measured with shared groups (n=13..17; about 6 times more per n).
func maxGroupBottoms(n int) uint64 {
	measured := []uint64{13: 4783, 14: 26972, 15: 155468, 16: 935581, 17: 5888116}
	if n < 13 {
		return measured[13]
	}
	if n < len(measured) {
		return measured[n]
	}
	m := measured[len(measured)-1]
	for i := len(measured); i <= n; i++ {
		m *= 6
	}
	return m
}
