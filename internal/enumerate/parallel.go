package enumerate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// The parallel enumeration splits the board into tasks, one per valid placement of the
// first two rows, taken in lexicographic order. Workers claim tasks in that order (an
// atomic index) and send their solutions in chunks on the task's own channel; the caller's
// goroutine drains the channels in task order and calls yield, so the output order is the
// sequential one. Memory stays bounded: a worker may claim a task only while fewer than
// window tasks are claimed and not yet drained, and each task channel holds at most
// chanChunks chunks, so at most window·(chanChunks+1) chunks exist at once.
const (
	chunkSolutions = 2048 // solutions per chunk
	chanChunks     = 2    // chunks buffered per task
	prefixRows     = 2    // rows fixed by a task
)

// chunk is a batch of solutions of one task: the placements back to back, n columns each.
type chunk struct {
	q     []int32
	sizes []uint8
}

// EachParallel is Each with the search spread over workers goroutines (0 means 1): the
// same solutions in the same order, yield always called from the caller's goroutine.
// Stats.Nodes counts the squares of the first two rows approximately.
func EachParallel(ctx context.Context, n int, unique bool, workers int, yield func(q []int32, classSize int) bool) (Stats, error) {
	if n < 1 || n > MaxN {
		return Stats{}, fmt.Errorf("enumeration handles n from 1 to %d, not %d", MaxN, n)
	}
	if workers <= 1 || n < 6 {
		return Each(ctx, n, unique, yield)
	}
	var tasks [][prefixRows]int32
	for a := range int32(n) {
		for b := range int32(n) {
			if d := a - b; d < -1 || d > 1 {
				tasks = append(tasks, [prefixRows]int32{a, b})
			}
		}
	}
	ictx, cancel := context.WithCancel(ctx)
	defer cancel()
	window := 2 * workers
	slots := make(chan struct{}, window)
	chans := make([]chan *chunk, len(tasks))
	for i := range chans {
		chans[i] = make(chan *chunk, chanChunks)
	}
	pool := sync.Pool{New: func() any {
		return &chunk{q: make([]int32, 0, chunkSolutions*n), sizes: make([]uint8, 0, chunkSolutions)}
	}}
	var next atomic.Int64
	var nodes atomic.Uint64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case slots <- struct{}{}:
				case <-ictx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return
				}
				out := chans[i]
				c := pool.Get().(*chunk)
				send := func() bool {
					select {
					case out <- c:
						return true
					case <-ictx.Done():
						return false
					}
				}
				st, stopped, _ := search(ictx, n, unique, tasks[i][:], func(q []int32, size int) bool {
					c.q = append(c.q, q...)
					c.sizes = append(c.sizes, uint8(size))
					if len(c.sizes) == chunkSolutions {
						if !send() {
							return false
						}
						c = pool.Get().(*chunk)
					}
					return true
				})
				nodes.Add(st.Nodes)
				if stopped || ictx.Err() != nil || (len(c.sizes) > 0 && !send()) {
					return
				}
				close(out)
			}
		})
	}
	var st Stats
	stopped := false
drain:
	for i := range tasks {
		for {
			var c *chunk
			ok := false
			select {
			case c, ok = <-chans[i]:
			case <-ctx.Done():
				break drain
			}
			if !ok {
				break
			}
			for k, size := range c.sizes {
				st.Solutions++
				st.Total += uint64(size)
				if !yield(c.q[k*n:(k+1)*n:(k+1)*n], int(size)) {
					stopped = true
					break drain
				}
			}
			c.q, c.sizes = c.q[:0], c.sizes[:0]
			pool.Put(c)
		}
		<-slots
	}
	cancel()
	wg.Wait()
	st.Nodes = nodes.Load() + uint64(len(tasks)+n) // the tasks' first two rows, about
	if err := ctx.Err(); err != nil && !stopped {
		return st, err
	}
	return st, nil
}
