package lasvegas

import (
	"context"
	"testing"
	"time"
)

// TestEstimateSweep: the estimate of a sweep comes within a factor 3 of the checks the
// sweep makes, its optimistic bound below it, and a sweep of a large board is estimated
// within its bounds, at once.
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
	if e.Checks > 3*checks || checks > 3*e.Checks || e.Rate <= 0 || e.Sampled != 17 || e.LowChecks > e.Checks || e.MinSeconds > e.Seconds {
		t.Errorf("n=16: estimated %.3g checks (%+v), the sweep made %.3g", e.Checks, e, checks)
	}
	start := time.Now()
	e, err = EstimateSweep(ctx, 1000, SweepOptions{Variant: Cell, Trials: 1, Seed: 1})
	// One run per m, each stopped at the budget of 2·10^7 checks at the latest: at most
	// 2·10^10 checks, and far more than the pilots make.
	if err != nil || e.Checks < 1e9 || e.Checks > 2.01e10 || e.LowChecks > e.Checks || e.Capped == 0 || time.Since(start) > 10*time.Second {
		t.Errorf("n=1000: %+v %v after %v", e, err, time.Since(start))
	}
}

// TestEstimateSweepNoise: a machine that stalls while pilots run (here one pilot in
// three waits 30 ms, within its time, longer than such a pilot takes) does not make a
// sweep of seconds look like hours: what a pilot says about a run is counted in checks,
// and the rate is the median of the pilots'. It was refused as "18–23 h" when one 20 ms
// pilot happened to be slow.
func TestEstimateSweepNoise(t *testing.T) {
	ctx := context.Background()
	opt := SweepOptions{Variant: Cell, Trials: 20, Seed: 3, Ms: []int{0, 10, 20, 25, 28}}
	quiet, err := EstimateSweep(ctx, 30, opt)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	stall := func() {
		if k++; k%3 == 1 {
			time.Sleep(30 * time.Millisecond)
		}
	}
	noisy, err := estimateSweep(ctx, 30, opt, stall)
	if err != nil {
		t.Fatal(err)
	}
	if noisy.Checks > 2*quiet.Checks || noisy.LowChecks > 2*quiet.LowChecks {
		t.Errorf("the stalls changed the checks: %+v, quiet %+v", noisy, quiet)
	}
	if noisy.MinSeconds > 3*quiet.Seconds+0.5 || noisy.Seconds > 3*quiet.Seconds+0.5 {
		t.Errorf("the stalls made the sweep look long: %.3g s (optimistic %.3g s), quiet %.3g s", noisy.Seconds, noisy.MinSeconds, quiet.Seconds)
	}
}
