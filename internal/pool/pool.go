// Package pool runs independent tasks on a fixed number of goroutines: the worker pool
// of the counters' sub-problems (refcount, fastcount, qjoin). Workers take task indices
// in order from an atomic counter, each with its own scratch memory, so a task's result
// can land in a slot of its own and the sums, added in index order afterwards, do not
// depend on the schedule. Not every goroutine of nqueens runs here: the quadrant join
// builds its tables on goroutines of its own (qjoin/table.go), and the enumeration, whose
// output must keep its order, has its own ordered runner (enumerate.runOrdered). Default
// gives "0 workers" its meaning everywhere.
package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Default is what a Workers setting w means everywhere in nqueens: w when positive,
// else one goroutine per CPU (GOMAXPROCS). It is the one place where "0 workers" gets
// its meaning; the results of the library (nqueens.CountResult, cluster.ShardResult,
// cluster.Estimate) report the number, so that the command need not work it out.
func Default(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// Workers is the number of goroutines for the setting w and count tasks: Default(w),
// never more than the tasks and at least one.
func Workers(w, count int) int { return max(1, min(Default(w), count)) }

// StopFlag returns a poll that turns true once ctx is done, for hot loops that cannot
// afford a channel receive: an atomic load, set by a context.AfterFunc. release frees
// the AfterFunc; call it when the work is over.
func StopFlag(ctx context.Context) (stop func() bool, release func()) {
	var flag atomic.Bool
	if ctx.Err() != nil {
		flag.Store(true)
	}
	cancel := context.AfterFunc(ctx, func() { flag.Store(true) })
	return flag.Load, func() { cancel() }
}

// Run runs task(scratch, i, stop) for i = 0..count−1 on Workers(workers, count)
// goroutines; each calls newScratch once. A task returns false when it saw stop set and
// gave up; its worker then ends. stop is StopFlag(ctx); besides, ctx is asked between
// tasks, since the AfterFunc that sets the flag may run late on a busy machine: no task
// starts once ctx is done. Run returns when every worker has ended, reporting whether
// every task finished.
func Run[S any](ctx context.Context, workers, count int, newScratch func() S,
	task func(s S, i int, stop func() bool) bool) bool {
	if count == 0 {
		return true
	}
	stop, release := StopFlag(ctx)
	defer release()
	var next, finished atomic.Int64
	var wg sync.WaitGroup
	for range Workers(workers, count) {
		wg.Go(func() {
			s := newScratch()
			for !stop() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= count || !task(s, i, stop) {
					return
				}
				finished.Add(1)
			}
		})
	}
	wg.Wait()
	return int(finished.Load()) == count
}
