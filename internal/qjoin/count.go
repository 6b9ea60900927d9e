package qjoin

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/u128"
)

// Options tunes a count. The zero value uses every CPU and the fastest
// kernel.
type Options struct {
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Kernel selects the matcher kernel; see KernelAuto.
	Kernel Kernel
}

// buildTables fills the quarter tables once per plan, on up to workers
// goroutines; later calls return at once. It returns false if stop said so
// before the end (the next call starts again).
func (p *Plan) buildTables(workers int, stop func() bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.built || p.o.slices {
		return true
	}
	if !p.t.build(workers, stop) {
		return false
	}
	p.built = true
	return true
}

// Entries is the number of quarter-table entries of the plan (known from
// NewPlan on), for memory estimates.
func (p *Plan) Entries() uint64 {
	if p.o.slices {
		return p.entries
	}
	return p.t.entries()
}

// CountSubs counts the sub-problems ids on opt.Workers goroutines that take
// them in order with an atomic index, each with its own scratch memory,
// after building the quarter tables (in parallel, once per plan). done, if
// not nil, is called for each finished sub-problem with its id and result;
// calls never overlap. It returns the number of sub-problems finished and,
// if that is fewer than len(ids), ctx.Err(); or an error for a bad id or
// kernel before any work.
func (p *Plan) CountSubs(ctx context.Context, ids []int, opt Options, done func(id int, r Result)) (int, error) {
	for _, i := range ids {
		if i < 0 || i >= p.Len() {
			return 0, fmt.Errorf("qjoin: sub-problem %d out of range 0..%d", i, p.Len()-1)
		}
	}
	kern, err := opt.Kernel.Resolve()
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	workers := pool.Workers(opt.Workers, len(ids))
	if p.o.shared {
		workers = pool.Default(opt.Workers) // all of them on each sub-problem
	}
	stop, release := pool.StopFlag(ctx)
	defer release()
	if !p.buildTables(workers, stop) {
		return 0, ctx.Err()
	}
	var finished int
	if p.o.shared {
		finished = p.countShared(ctx, ids, workers, kern, done)
	} else {
		var mu sync.Mutex // serialises done and counts the finished
		pool.Run(ctx, workers, len(ids), func() *solver { return newSolver(p, kern) },
			func(s *solver, k int, stop func() bool) bool {
				r, ok := s.solve(p.Sub(ids[k]), stop)
				if !ok {
					return false
				}
				mu.Lock()
				defer mu.Unlock()
				finished++
				if done != nil {
					done(ids[k], r)
				}
				return true
			})
	}
	if finished < len(ids) {
		if err := ctx.Err(); err != nil {
			return finished, err
		}
		return finished, errors.New("qjoin: stopped before the end")
	}
	return finished, nil
}

// SolveSub counts sub-problem i on the calling goroutine (building the
// quarter tables first if no count did). On cancellation it returns
// ctx.Err() and a zero result.
func (p *Plan) SolveSub(ctx context.Context, i int, k Kernel) (Result, error) {
	var r Result
	_, err := p.CountSubs(ctx, []int{i}, Options{Workers: 1, Kernel: k}, func(_ int, x Result) { r = x })
	return r, err
}

// Totals is the outcome of Count. When Complete is false the sums cover
// the SubsDone finished sub-problems only, and Unique is not meaningful.
// Nodes saturates at 2^64-1.
type Totals struct {
	Total, Unique, Burnside u128.U128
	Nodes                   uint64
	SubsDone, Subs          int
	Complete                bool
}

// Count counts every sub-problem of the plan: T, and U = ΣBurnside / 8,
// checking that the Burnside sum is a multiple of 8.
func (p *Plan) Count(ctx context.Context, opt Options) (Totals, error) {
	ids := make([]int, p.Len())
	for i := range ids {
		ids[i] = i
	}
	res := Totals{Subs: p.Len()}
	// Summed as they finish (calls of done never overlap): integer sums do
	// not depend on the order.
	_, err := p.CountSubs(ctx, ids, opt, func(_ int, r Result) {
		res.SubsDone++
		res.Total, _ = res.Total.Add64(r.Total)
		res.Burnside, _ = res.Burnside.Add64(r.Burnside)
		res.Nodes = satAdd(res.Nodes, r.Nodes)
	})
	res.Unique = res.Burnside.Div8()
	res.Complete = res.SubsDone == res.Subs
	if err != nil {
		return res, err
	}
	if res.Burnside.Mod8() != 0 {
		return res, fmt.Errorf("qjoin: n=%d: the Burnside sum %v is not a multiple of 8: a count is wrong", p.N, res.Burnside)
	}
	return res, nil
}

// satAdd is a + b, or 2^64-1 if that overflows.
func satAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return ^uint64(0)
	}
	return s
}
