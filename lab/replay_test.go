package lab_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/lab"
)

// lvCounter counts a Las Vegas run from its events, as the web board's replay does.
type lvCounter struct {
	n  int
	st lab.LasVegasRunStats
}

func (c *lvCounter) Attempt() { c.st.Attempts++; c.st.Explored++ }
func (c *lvCounter) Draw(_, _ int, placed bool) {
	c.st.Draws++
	c.st.Checks++
	if placed {
		c.st.Random++
		c.st.Explored++
	}
}
func (c *lvCounter) RandomRow(_, _ int) { c.st.Checks += int64(c.n); c.st.Random++; c.st.Explored++ }
func (c *lvCounter) DeadEnd(row int) {
	if row >= 0 {
		c.st.Checks += int64(c.n)
	}
}
func (c *lvCounter) Backtrack()        { c.st.Nodes++ }
func (c *lvCounter) Place(_, _ int)    { c.st.Nodes++; c.st.Checks++; c.st.Explored++ }
func (c *lvCounter) Remove(_, _ int)   {}
func (c *lvCounter) Conflict(_, _ int) { c.st.Checks++ }
func (c *lvCounter) Fail()             {}
func (c *lvCounter) Solution()         {}

// TestLasVegasReplay: a traced run's counters, counted from its events, are those of
// the sampled table's row for the same n, m and seed (one trial), for several n, m,
// seeds and both variants.
func TestLasVegasReplay(t *testing.T) {
	ctx := context.Background()
	for _, v := range []lab.Variant{lab.Row, lab.Cell} {
		for _, c := range []struct{ n, m int }{{4, 1}, {8, 3}, {10, 6}, {16, 10}, {25, 18}, {40, 30}} {
			for _, seed := range []uint64{0, 1, 7, 1 << 40} {
				name := fmt.Sprintf("%v n=%d m=%d seed=%d", v, c.n, c.m, seed)
				rec := &lvCounter{n: c.n}
				sol, st, err := lab.LasVegasRun(ctx, c.n, lab.LasVegasRunOptions{Variant: v, M: c.m, Seed: seed}, rec)
				if err != nil || len(sol) != c.n {
					t.Fatalf("%s: %v, %v", name, sol, err)
				}
				tab, err := lab.LasVegas(ctx, c.n, lab.LasVegasOptions{Variant: v, Ms: []int{c.m}, Trials: 1, Seed: seed})
				if err != nil {
					t.Fatal(name, err)
				}
				r := tab.Rows[0]
				row := lab.LasVegasRunStats{Attempts: int64(r.Attempts), Draws: int64(r.Draws), Random: st.Random, Nodes: int64(r.Nodes),
					Checks: int64(r.Checks), Explored: int64(r.Explored)}
				if rec.st != st || st != row {
					t.Errorf("%s: the events count %+v, the run %+v, the table's row %+v", name, rec.st, st, row)
				}
			}
		}
	}
}

// lsCounter counts a local search from its events.
type lsCounter struct {
	st                       lab.LocalSearchRunStats
	j, n, runs               int
	placedChecks, scanChecks int64 // of the first run's initial search
}

func (c *lsCounter) Run() {
	if c.runs > 0 {
		c.st.Restarts++
	}
	c.runs++
	c.j = 0
}
func (c *lsCounter) Try(_, _ int, placed bool, scan int) {
	c.st.Attempts++
	if c.runs == 1 {
		c.placedChecks++
		c.scanChecks += int64(scan)
	}
	if placed {
		c.j++
	}
}
func (c *lsCounter) Shuffle(_, _ int) {}
func (c *lsCounter) Final()           { c.st.Conflicts = int64(c.n - c.j) }
func (c *lsCounter) Swap(_, _ int, kept bool) {
	c.st.Swaps++
	if !kept {
		c.st.FailedSwaps++
	}
}
func (c *lsCounter) Solved() {}

// TestLocalSearchReplay: a traced local search's counters, counted from its events, are
// those of the LocalSearch table's row for the same n and seed, the checks of its first
// initial search included.
func TestLocalSearchReplay(t *testing.T) {
	ctx := context.Background()
	restarts := int64(0)
	for _, n := range []int{8, 20, 50, 100, 200, 500} {
		for _, seed := range []uint64{1, 2, 3, 4} {
			rec := &lsCounter{n: n}
			q, st, err := lab.LocalSearchRun(ctx, n, seed, rec)
			if err != nil || len(q) != n {
				t.Fatal(n, seed, err)
			}
			tab, err := lab.LocalSearch(ctx, lab.LocalSearchOptions{From: n, To: n, ScanMax: n, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			r := tab.Rows[0]
			row := lab.LocalSearchRunStats{Attempts: r.Attempts, Conflicts: r.Conflicts, Swaps: r.Swaps, FailedSwaps: r.FailedSwaps, Restarts: r.Restarts}
			if rec.st != st || st != row || rec.placedChecks != r.InitialPlacedChecks || rec.scanChecks != *r.InitialScanChecks {
				t.Errorf("n=%d seed=%d: the events count %+v (checks %d, %d), the run %+v, the table's row %+v (checks %d, %d)",
					n, seed, rec.st, rec.placedChecks, rec.scanChecks, st, row, r.InitialPlacedChecks, *r.InitialScanChecks)
			}
			restarts += st.Restarts
		}
	}
	if restarts == 0 {
		t.Error("no restart: the restarts went untested")
	}
}
