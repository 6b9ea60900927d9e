package classic

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestProbesEstimate: the mean of Knuth's probes comes within a factor 1.5 of the exact
// counters of every search on boards it can count (the estimate is unbiased; 20,000 probes
// make its spread small there).
func TestProbesEstimate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const probes = 20_000
	for _, a := range Algorithms() {
		for _, n := range []int{6, 8, 9} {
			st, err := a.Run(context.Background(), n, nil)
			if err != nil {
				t.Fatal(err)
			}
			var nodes, checks, loops float64
			for range probes {
				var nd, ck, lp float64
				if a.Name == "cell" || a.Name == "cellprune" {
					nd, ck = probeCell(n, a.Name == "cellprune", rng)
				} else {
					nd, ck, lp = probeRows(n, rng)
				}
				nodes, checks, loops = nodes+nd/probes, checks+ck/probes, loops+lp/probes
			}
			near := func(est float64, exact int64) bool {
				return est <= 1.5*float64(exact) && float64(exact) <= 1.5*est
			}
			if !near(nodes, st.Nodes) || !near(checks, st.Checks) || (a.Name == "classic" && !near(loops, st.LoopIterations)) {
				t.Errorf("%s n=%d: estimated %.0f nodes, %.0f checks, %.0f loops; exact %d, %d, %d", a.Name, n, nodes, checks, loops, st.Nodes, st.Checks, st.LoopIterations)
			}
		}
	}
}

// TestEstimateSearch: a small board is measured exactly by the trial run; a board far
// beyond reach is estimated in astronomical terms, fast.
func TestEstimateSearch(t *testing.T) {
	ctx := context.Background()
	row, _ := Lookup("row")
	e, err := EstimateSearch(ctx, row, 8, 1)
	if err != nil || !e.Exact || e.Nodes != 2057 || e.Checks != 15720 {
		t.Errorf("row 8: %+v %v", e, err)
	}
	for _, a := range Algorithms() {
		e, err := EstimateSearch(ctx, a, 40, 1)
		if err != nil || e.Exact || e.Nodes < 1e15 || e.Seconds < 1e6 || e.Rate <= 0 {
			t.Errorf("%s 40: %+v %v", a.Name, e, err)
		}
	}
}

// TestEstimateCalibrated: the estimate of each search on a board it cannot measure whole
// within its calibration comes within 25% of the exact counters: the probes alone put
// the cell search of n = 10 at 60% of its checks, of n = 12 at a seventh ("lab backtrack
// 12" announced 11 s for a search of 41 s).
func TestEstimateCalibrated(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		n    int
	}{{"cell", 10}, {"cellprune", 11}, {"classic", 12}, {"row", 12}} {
		a, _ := Lookup(c.name)
		e, err := EstimateSearch(ctx, a, c.n, 1)
		if err != nil {
			t.Fatal(err)
		}
		st, err := a.Run(ctx, c.n, nil)
		if err != nil {
			t.Fatal(err)
		}
		near := func(est float64, exact int64) bool { return est <= 1.25*float64(exact) && float64(exact) <= 1.25*est }
		if !near(e.Checks, st.Checks) || !near(e.Nodes, st.Nodes) {
			t.Errorf("%s n=%d: estimated %.3g nodes, %.3g checks (exact: %v); the search made %d, %d", c.name, c.n, e.Nodes, e.Checks, e.Exact, st.Nodes, st.Checks)
		}
		if !e.Exact && (e.Rate <= 0 || e.MaxRate < e.Rate || e.MinSeconds > e.Seconds) {
			t.Errorf("%s n=%d: speed %+v", c.name, c.n, e)
		}
	}
}
