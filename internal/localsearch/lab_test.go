package localsearch

import (
	"context"
	"slices"
	"testing"
)

// TestTutorialCheckRegression is the regression test of docs/algorithms.md §3.6: the tutorial's O(1)
// check on counters of all queens never places a queen, the placed-only check places
// nearly all of them, and the O(j) scan follows exactly the same path as the latter.
func TestTutorialCheckRegression(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{500, 2000} {
		broken, err := LabInitialSearch(ctx, n, 1, CheckAllQueens, 0)
		if err != nil {
			t.Fatal(err)
		}
		placed, err := LabInitialSearch(ctx, n, 1, CheckPlaced, 0)
		if err != nil {
			t.Fatal(err)
		}
		scan, err := LabInitialSearch(ctx, n, 1, CheckScan, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d: all-queens placed %d in %d attempts; placed-only %d; scan %d", n,
			broken.Placed, broken.Attempts, placed.Placed, scan.Placed)
		if broken.Placed > n/100 {
			t.Errorf("n=%d: the all-queens check placed %d queens, want (almost) none", n, broken.Placed)
		}
		if broken.Attempts != int64(n)*308/100 {
			t.Errorf("n=%d: the all-queens check stopped after %d attempts", n, broken.Attempts)
		}
		if placed.Placed < n-100 {
			t.Errorf("n=%d: the placed-only check placed only %d queens", n, placed.Placed)
		}
		if scan.Placed != placed.Placed || scan.Attempts != placed.Attempts || !slices.Equal(scan.Q, placed.Q) {
			t.Errorf("n=%d: scan and placed-only checks diverged", n)
		}
		// The placed rows must be conflict-free.
		for r := 0; r < placed.Placed; r++ {
			for i := 0; i < r; i++ {
				d := int(placed.Q[r]) - int(placed.Q[i])
				if d == r-i || d == i-r {
					t.Fatalf("n=%d: placed rows %d and %d attack each other", n, i, r)
				}
			}
		}
	}
}

func TestLabBounded(t *testing.T) {
	res, err := LabInitialSearch(context.Background(), 3, 1, CheckAllQueens, 1000)
	if err != nil || res.Attempts != 1000 {
		t.Errorf("n=3 all-queens: %+v, %v; want to stop at the 1000-attempt limit", res, err)
	}
	if _, err := LabInitialSearch(context.Background(), 0, 1, CheckScan, 0); err == nil {
		t.Error("n=0: no error")
	}
}
