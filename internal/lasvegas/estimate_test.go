package lasvegas

import (
	"context"
	"testing"
	"time"
)

// TestEstimateSweep: the estimate of a sweep comes within a factor 3 of the checks the
// sweep makes, and a sweep of a large board is seen to be long, at once.
func TestEstimateSweep(t *testing.T) {
	ctx := context.Background()
	opt := SweepOptions{Variant: Row, Trials: 30, Seed: 2}
	e, err := EstimateSweep(ctx, 16, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(ctx, 16, opt)
	if err != nil {
		t.Fatal(err)
	}
	var checks float64
	for _, r := range res.Rows {
		checks += r.Checks.Mean * float64(r.Runs)
	}
	if e.Checks > 3*checks || checks > 3*e.Checks || e.Rate <= 0 || e.Sampled != 17 {
		t.Errorf("n=16: estimated %.3g checks (%+v), the sweep made %.3g", e.Checks, e, checks)
	}
	start := time.Now()
	e, err = EstimateSweep(ctx, 1000, SweepOptions{Variant: Cell, Trials: 1, Seed: 1})
	if err != nil || e.Checks < 1e10 || e.Budgeted == 0 || time.Since(start) > 5*time.Second {
		t.Errorf("n=1000: %+v %v after %v", e, err, time.Since(start))
	}
}
