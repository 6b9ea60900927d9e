package backtrack

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/rules"
)

func valid(q []int32) bool {
	for i := range q {
		for j := range i {
			d := int(q[i]) - int(q[j])
			if d == 0 || d == i-j || d == j-i {
				return false
			}
		}
	}
	return true
}

func TestFind(t *testing.T) {
	for n := 1; n <= 28; n++ {
		q, nodes, err := Find(context.Background(), n)
		if n == 2 || n == 3 {
			if !errors.Is(err, rules.ErrNoSolution) {
				t.Errorf("n=%d: want rules.ErrNoSolution, got %v", n, err)
			}
			continue
		}
		if err != nil || len(q) != n || !valid(q) {
			t.Fatalf("n=%d: %v %v", n, q, err)
		}
		if n == 8 {
			// First solution of n=8 is 1 5 8 6 3 7 2 4; plain backtracking explores
			// 114 nodes to reach it (docs/algorithms.md §3.5).
			want := []int32{0, 4, 7, 5, 2, 6, 1, 3}
			for i := range want {
				if q[i] != want[i] {
					t.Fatalf("n=8: got %v, want %v", q, want)
				}
			}
			if nodes != 114 {
				t.Errorf("n=8: %d nodes, want 114", nodes)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	for _, n := range []int{0, -1, MaxN + 1} {
		if _, _, err := Find(context.Background(), n); err == nil {
			t.Errorf("n=%d: want error", n)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, _, err := Find(ctx, MaxN)
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("got %v after %v", err, time.Since(start))
	}
}

func BenchmarkFind(b *testing.B) {
	for _, n := range []int{8, 20, 28, 30, 31, 32} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				_, nodes, _ = Find(context.Background(), n)
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}
