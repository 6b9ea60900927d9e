// Package conformance holds the tests every counter of nqueens runs, whatever its
// algorithm: the known counts of the OEIS tables, a refusal of sizes out of range, and a
// prompt return on cancellation. A counter's test calls Counter with an adapter; see the
// tests of refcount, fastcount, qjoin and the root package.
package conformance

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/oeis"
)

// CountFunc is a counter as the suite sees it: the total and unique counts of the n×n
// board, or an error.
type CountFunc func(ctx context.Context, n int) (total, unique uint64, err error)

// CounterSpec describes a counter to the suite.
type CounterSpec struct {
	Count CountFunc
	// MinN is the smallest n the counter accepts (0 means 1); MaxN is the largest n
	// checked against the tables (keep the test short); Limit is the largest n the
	// counter accepts (0: no upper limit is checked).
	MinN, MaxN, Limit int
	// SlowN is a size that takes well over a second; 0 skips the cancellation check.
	SlowN int
}

// Counter runs the suite on c.
func Counter(t *testing.T, c CounterSpec) {
	t.Helper()
	ctx := context.Background()
	minN := max(c.MinN, 1)
	for n := minN; n <= c.MaxN; n++ {
		total, unique, err := c.Count(ctx, n)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if total != oeis.Total(n) || unique != oeis.Unique(n) {
			t.Errorf("n=%d: total %d unique %d, want %d and %d (A000170, A002562)",
				n, total, unique, oeis.Total(n), oeis.Unique(n))
		}
	}
	for _, n := range []int{minN - 1, 0, -1} {
		if _, _, err := c.Count(ctx, n); err == nil {
			t.Errorf("n=%d: accepted", n)
		}
	}
	if c.Limit > 0 {
		if _, _, err := c.Count(ctx, c.Limit+1); err == nil {
			t.Errorf("n=%d: accepted beyond the limit %d", c.Limit+1, c.Limit)
		}
	}
	if c.SlowN > 0 {
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, _, err := c.Count(cctx, c.SlowN)
		if took := time.Since(start); took > time.Second+100*time.Millisecond {
			t.Errorf("n=%d: returned %v after the cancellation", c.SlowN, took-100*time.Millisecond)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("n=%d cancelled: %v, want context.Canceled", c.SlowN, err)
		}
	}
}
