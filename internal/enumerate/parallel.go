package enumerate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/pool"
)

// The parallel enumeration splits the board into tasks, one per valid placement of the
// first two rows, taken in lexicographic order, and runs them with runOrdered: workers
// send their solutions in chunks, the caller's goroutine calls yield in task order, so the
// output order is the sequential one. Each task channel holds at most chanChunks chunks,
// so at most 2·workers·(chanChunks+1) chunks exist at once.
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

// EachParallel is Each with the search spread over workers goroutines (0: one per CPU): the
// same solutions in the same order, yield always called from the caller's goroutine.
// Stats.Nodes counts the squares of the first two rows approximately.
func EachParallel(ctx context.Context, n int, unique bool, workers int, yield func(q []int32, classSize int) bool) (Stats, error) {
	if n < 1 || n > MaxN {
		return Stats{}, fmt.Errorf("enumeration handles n from 1 to %d, not %d", MaxN, n)
	}
	if workers = pool.Default(workers); workers <= 1 || n < 6 {
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
	pool := sync.Pool{New: func() any {
		return &chunk{q: make([]int32, 0, chunkSolutions*n), sizes: make([]uint8, 0, chunkSolutions)}
	}}
	var nodes atomic.Uint64
	newRun := func(ictx context.Context) func(int, func(*chunk) bool) bool {
		return func(i int, send func(*chunk) bool) bool {
			c := pool.Get().(*chunk)
			st, stopped, _ := search(ictx, n, unique, tasks[i][:], func(q []int32, size int) bool {
				c.q = append(c.q, q...)
				c.sizes = append(c.sizes, uint8(size))
				if len(c.sizes) == chunkSolutions {
					if !send(c) {
						return false
					}
					c = pool.Get().(*chunk)
				}
				return true
			})
			nodes.Add(st.Nodes)
			return !stopped && ictx.Err() == nil && (len(c.sizes) == 0 || send(c))
		}
	}
	var st Stats
	stopped := false
	runOrdered(ctx, workers, len(tasks), chanChunks, newRun, func(c *chunk) bool {
		for k, size := range c.sizes {
			st.Solutions++
			st.Total += uint64(size)
			if !yield(c.q[k*n:(k+1)*n:(k+1)*n], int(size)) {
				stopped = true
				return false
			}
		}
		c.q, c.sizes = c.q[:0], c.sizes[:0]
		pool.Put(c)
		return true
	})
	st.Nodes = nodes.Load() + uint64(len(tasks)+n) // the tasks' first two rows, about
	if err := ctx.Err(); err != nil && !stopped {
		return st, err
	}
	return st, nil
}
