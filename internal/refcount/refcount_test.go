package refcount

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A000170 and A002562, n = 1..18 (SPEC.md §2).
var total = []uint64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624}
var unique = []uint64{1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939, 83263591}

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
			if r.Total != total[n-1] || r.Unique != unique[n-1] || !r.Complete {
				t.Errorf("n=%d workers=%d: got total %d unique %d complete %v, want %d %d",
					n, w, r.Total, r.Unique, r.Complete, total[n-1], unique[n-1])
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
