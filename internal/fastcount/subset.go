package fastcount

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/qjoin"
)

// CountSubs counts the sub-problems ids on a pool of workers, each with its
// own scratch memory, as Count does for the whole plan. It is what a shard of
// a distributed count or a resumed count runs.
//
// done, if not nil, is called once for each finished sub-problem with its id
// and result; calls come from the workers but never overlap, so done may
// update shared state without locking. A sub-problem interrupted by ctx is
// not reported. CountSubs returns ctx.Err() if it stopped before every id
// was finished, and nil otherwise.
func (p *Plan) CountSubs(ctx context.Context, ids []int, workers int, done func(id int, r SubResult)) error {
	return p.CountSubsKernel(ctx, ids, workers, qjoin.KernelAuto, done)
}

// CountSubsKernel is CountSubs with the matcher kernel k of the quadrant
// join (a plan without one, see HasKernel, ignores k): an audit recounts a
// shard with another kernel than the one that counted it.
func (p *Plan) CountSubsKernel(ctx context.Context, ids []int, workers int, k qjoin.Kernel, done func(id int, r SubResult)) error {
	for _, i := range ids {
		if i < 0 || i >= p.Len() {
			return fmt.Errorf("fastcount: sub-problem %d out of range 0..%d", i, p.Len()-1)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	finished, err := p.run(ctx, ids, workers, EngineAuto, k, done)
	if finished < len(ids) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("fastcount: stopped after %d of %d sub-problems", finished, len(ids))
	}
	return nil
}

// run counts the sub-problems ids on workers goroutines (0 means GOMAXPROCS) that pull
// them with an atomic index, each with its own scratch memory, and calls done (never two
// calls at once) for each one finished. It returns how many were finished: fewer than
// len(ids) when ctx was cancelled. Quadrant-join plans run on the pool of qjoin, with
// the kernel k; its errors (an unavailable kernel) come back as err.
func (p *Plan) run(ctx context.Context, ids []int, workers int, engine Engine, k qjoin.Kernel, done func(id int, r SubResult)) (int, error) {
	if p.q != nil {
		return p.q.CountSubs(ctx, ids, qjoin.Options{Workers: workers, Kernel: k}, func(id int, r qjoin.Result) {
			if done != nil {
				done(id, SubResult(r))
			}
		})
	}
	groups := p.groups(ids, engine)
	var mu sync.Mutex // serialises done and counts the finished
	finished := 0
	pool.Run(ctx, workers, len(groups), func() *scratch { return &scratch{} },
		func(sc *scratch, k int, stop func() bool) bool {
			return p.solveGroup(groups[k], sc, engine, stop, func(id int, r SubResult) {
				mu.Lock()
				defer mu.Unlock()
				finished++
				if done != nil {
					done(id, r)
				}
			})
		})
	return finished, nil
}

// maxGroup bounds the sub-problems counted together (see countGroup), for
// the balance of the workers and the grain of the progress reports.
const maxGroup = 256

// groups splits ids into the units the pool hands out: for the join, runs
// of at most maxGroup sub-problems of one group, in the order of order;
// else one sub-problem each.
func (p *Plan) groups(ids []int, e Engine) [][]int {
	ids = p.order(ids, e)
	var out [][]int
	var ls []layout
	if p.N >= minConstellationN && useJoin(e, p.N) {
		ls = p.joinLayouts()
	}
	for i := 0; i < len(ids); {
		j := i + 1
		if ls != nil && ls[ids[i]].img != nil {
			for j < len(ids) && j-i < maxGroup && ls[ids[j]].img != nil && ls[ids[j]].key == ls[ids[i]].key {
				j++
			}
		}
		out = append(out, ids[i:j])
		i = j
	}
	return out
}

// solveGroup counts the sub-problems ids, one unit of groups, and calls emit
// for each one as soon as it is finished (in a group that is before the end
// of the group: see countGroup). ok is false if stop was set before the end.
func (p *Plan) solveGroup(ids []int, sc *scratch, e Engine, stop func() bool, emit func(id int, r SubResult)) (ok bool) {
	if len(ids) == 1 {
		r, ok := p.solve(ids[0], sc, e, stop)
		if ok {
			emit(ids[0], r)
		}
		return ok
	}
	ls := make([]layout, len(ids))
	for i, id := range ids {
		ls[i] = p.joinLayouts()[id]
	}
	if sc.join == nil {
		sc.join = newJoiner(p.N)
	}
	return sc.join.countGroup(p.N, ls, stop, func(i int, sols, nodes uint64) {
		w := p.Subs[ids[i]].Weight() // groups hold sub-problems with Stab 1 only
		emit(ids[i], SubResult{Total: sols * w, Burnside: 8 * sols, Nodes: nodes})
	})
}

// order returns ids in the order the pool hands them out: for the join,
// sorted by group (joinLayouts), so that a worker finds the bottom halves of
// its next sub-problem already built most of the time; else unchanged.
func (p *Plan) order(ids []int, e Engine) []int {
	if p.N < minConstellationN || !useJoin(e, p.N) {
		return ids
	}
	type item struct {
		key uint64
		id  int
	}
	ls := p.joinLayouts()
	items := make([]item, len(ids))
	for i, id := range ids {
		items[i] = item{ls[id].key, id}
	}
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(a.key, b.key) })
	out := make([]int, len(ids))
	for i, it := range items {
		out[i] = it.id
	}
	return out
}
