package refcount

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/conformance"
	"github.com/nqueens/nqueens/internal/oeis"
)

func TestKnownCounts(t *testing.T) {
	maxN := 14
	if !testing.Short() {
		maxN = 16
	}
	for n := 1; n <= maxN; n++ {
		for _, w := range []int{1, 2, 3} {
			if n > 12 && w != 2 {
				continue
			}
			r, err := Count(context.Background(), n, w, nil)
			if err != nil {
				t.Fatalf("n=%d workers=%d: %v", n, w, err)
			}
			if r.Total != oeis.Total(n) || r.Unique != oeis.Unique(n) || !r.Complete {
				t.Errorf("n=%d workers=%d: got total %d unique %d complete %v, want %d %d",
					n, w, r.Total, r.Unique, r.Complete, oeis.Total(n), oeis.Unique(n))
			}
		}
	}
}

func TestBadSize(t *testing.T) {
	for _, n := range []int{0, -3, MaxN + 1} {
		if _, err := Count(context.Background(), n, 1, nil); err == nil {
			t.Errorf("n=%d: want an error", n)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := Count(ctx, 19, 2, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want deadline exceeded, got %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("cancel took %v", el)
	}
	if r.Complete || r.Done >= r.Tasks || r.Total > 4968057848 {
		t.Errorf("partial result not honest: %+v", r)
	}
}

func TestStabilizer(t *testing.T) {
	// 2 4 1 3 (0-based 1 3 0 2) is fixed by the quarter turns: stabilizer {id, r90, r180, r270}.
	if k := stabilizer([]int{1, 3, 0, 2}); k != 4 {
		t.Errorf("n=4: stabilizer %d, want 4", k)
	}
	if k := stabilizer([]int{0}); k != 8 {
		t.Errorf("n=1: stabilizer %d, want 8", k)
	}
}

// TestConformance runs the suite every counter runs.
func TestConformance(t *testing.T) {
	conformance.Counter(t, conformance.CounterSpec{MaxN: 12, Limit: MaxN, SlowN: 20,
		Count: func(ctx context.Context, n int) (uint64, uint64, error) {
			r, err := Count(ctx, n, 2, nil)
			return r.Total, r.Unique, err
		}})
}
