package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ w, count, want int }{
		{0, 1000, procs}, {-3, 1000, procs}, {3, 1000, 3}, {8, 2, 2}, {0, 0, 1}, {5, 0, 1},
	} {
		if got := Workers(c.w, c.count); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.w, c.count, got, c.want)
		}
	}
}

// TestRunEveryTaskOnce: every index is run exactly once, each worker makes one scratch.
func TestRunEveryTaskOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 16} {
		const count = 1000
		var seen [count]atomic.Int32
		var scratches atomic.Int32
		ok := Run(context.Background(), workers, count, func() *int { scratches.Add(1); return new(int) },
			func(s *int, i int, _ func() bool) bool {
				*s++
				seen[i].Add(1)
				return true
			})
		if !ok {
			t.Fatalf("workers=%d: not every task finished", workers)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("workers=%d: task %d ran %d times", workers, i, seen[i].Load())
			}
		}
		if s := int(scratches.Load()); s != min(workers, count) {
			t.Errorf("workers=%d: %d scratches", workers, s)
		}
	}
}

// TestRunCancel: once ctx is cancelled no task starts, tasks see stop, and Run reports
// the tasks unfinished.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	started := 0
	done := make(chan bool)
	go func() {
		done <- Run(ctx, 2, 1<<20, func() struct{} { return struct{}{} }, func(_ struct{}, i int, stop func() bool) bool {
			mu.Lock()
			started++
			mu.Unlock()
			for !stop() { // a long task that polls
				time.Sleep(time.Millisecond)
			}
			return false
		})
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Error("cancelled, yet every task finished")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after the cancellation")
	}
	if started > 2 {
		t.Errorf("%d tasks started with 2 workers", started)
	}
	if Run(ctx, 2, 10, func() int { return 0 }, func(int, int, func() bool) bool { t.Error("a task ran after cancel"); return true }) {
		t.Error("Run on a cancelled context reports success")
	}
}
