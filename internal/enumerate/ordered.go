package enumerate

import (
	"context"
	"sync"
	"sync/atomic"
)

// runOrdered runs tasks 0..count−1 on workers goroutines and hands what they send to
// consume on the caller's goroutine, task by task in order, so the result is the
// sequential one. Workers claim tasks in order (an atomic index) and send on the task's
// own channel of buffered items. Memory stays bounded: a worker may claim a task only
// while fewer than 2·workers tasks are claimed and not yet consumed.
//
// Each goroutine calls newRun once, with the context every task must watch, and gets its
// run: run(i, send) does task i, passing its items to send (false: stop), and reports
// whether it finished. A task that does not finish, or consume returning false, stops
// everything. runOrdered reports whether every task was consumed.
func runOrdered[T any](ctx context.Context, workers, count, buffered int,
	newRun func(ctx context.Context) func(i int, send func(T) bool) bool, consume func(T) bool) bool {
	workers = max(1, min(workers, count)) // idle workers would only hold slots
	ictx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, 2*workers)
	chans := make([]chan T, count)
	for i := range chans {
		chans[i] = make(chan T, buffered)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			run := newRun(ictx)
			for {
				select {
				case slots <- struct{}{}:
				case <-ictx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				ch := chans[i]
				send := func(x T) bool {
					select {
					case ch <- x:
						return true
					case <-ictx.Done():
						return false
					}
				}
				if !run(i, send) {
					cancel()
					return
				}
				close(ch)
			}
		})
	}
	complete := count == 0
drain:
	for i := range count {
		for {
			var x T
			ok := false
			select {
			case x, ok = <-chans[i]:
			case <-ictx.Done():
				break drain
			}
			if !ok {
				break
			}
			if !consume(x) {
				break drain
			}
		}
		<-slots
		complete = i == count-1
	}
	cancel()
	wg.Wait()
	return complete
}
