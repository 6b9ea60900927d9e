package fastcount

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
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
	for _, i := range ids {
		if i < 0 || i >= len(p.Subs) {
			return fmt.Errorf("fastcount: sub-problem %d out of range 0..%d", i, len(p.Subs)-1)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if finished := p.pool(ctx, ids, workers, EngineAuto, done); finished < len(ids) {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fmt.Errorf("fastcount: stopped after %d of %d sub-problems", finished, len(ids))
	}
	return nil
}

// pool counts the sub-problems ids on workers goroutines (0 means GOMAXPROCS) that pull
// them with an atomic index, each with its own scratch memory, and calls done (never two
// calls at once) for each one finished. It returns how many were finished: fewer than
// len(ids) when ctx was cancelled.
func (p *Plan) pool(ctx context.Context, ids []int, workers int, engine Engine, done func(id int, r SubResult)) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(ids))
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()

	var next atomic.Int64
	var mu sync.Mutex // serialises done and counts the finished
	finished := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &scratch{}
			for !stop.Load() {
				k := int(next.Add(1) - 1)
				if k >= len(ids) {
					return
				}
				r, ok := p.solve(ids[k], sc, engine, &stop)
				if !ok {
					return
				}
				mu.Lock()
				finished++
				if done != nil {
					done(ids[k], r)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return finished
}
