package lab_test

import (
	"context"
	"math"
	"testing"

	"github.com/nqueens/nqueens/lab"
)

// TestLab reproduces a published figure of each experiment through the public package:
// the n = 10 counters of the four searches (docs/algorithms.md §3.1–3.4), Brassard &
// Bratley's t for n = 8, k = 1 (§3.5), and the initial search that places no queen with
// the check on all queens (§3.6).
func TestLab(t *testing.T) {
	ctx := context.Background()
	want := map[string][2]int64{"classic": {35539, 348150}, "row": {35539, 348150},
		"cell": {7535369, 70450278}, "cellprune": {185489, 1256703}}
	if len(lab.Searches()) != len(want) {
		t.Fatalf("%d searches", len(lab.Searches()))
	}
	for name, w := range want {
		s, ok := lab.LookupSearch(name)
		if !ok {
			t.Fatalf("no search %q", name)
		}
		row, err := lab.Measure(ctx, 10, s)
		if err != nil || row.Variant != name || row.Section != s.Section || row.Solutions != 724 ||
			row.Nodes != w[0] || row.Checks != w[1] || row.Seconds <= 0 {
			t.Errorf("%s: %+v, %v; want %d nodes, %d checks", name, row, err, w[0], w[1])
		}
	}
	r, err := lab.Exact(ctx, 8, lab.LasVegasOptions{Variant: lab.Row, M: 1})
	if err != nil || math.Abs(r.T-39.625) > 1e-9 {
		t.Errorf("exact n=8 row k=1: t = %v, %v; want 39.625", r.T, err)
	}
	for _, c := range []struct {
		check  lab.Check
		placed bool
	}{{lab.CheckPlaced, true}, {lab.CheckScan, true}, {lab.CheckAllQueens, false}} {
		r, err := lab.InitialSearch(ctx, 1000, 1, c.check, 0)
		if err != nil || (r.Placed > 900) != c.placed {
			t.Errorf("%v: placed %d of 1000, %v", c.check, r.Placed, err)
		}
	}
}
