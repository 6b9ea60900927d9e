package lab_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// counters is r without its board, its size and its solutions: the counters of a run.
func counters(r lab.RunResult) lab.RunResult {
	r.N, r.Placement, r.Total = 0, nil, 0
	return r
}

// sameCounters says whether two runs have the same counters.
func sameCounters(a, b lab.RunResult) bool { return reflect.DeepEqual(counters(a), counters(b)) }

// lvCounter counts a Las Vegas run from its events, as the web board's replay does.
type lvCounter struct {
	n     int
	st    lab.RunResult // the counters only
	steps []lab.Step
}

func (c *lvCounter) step(kind string, line int) {
	c.steps = append(c.steps, lab.Step{Kind: kind, Line: line})
}

func (c *lvCounter) Attempt(line int) { c.step("attempt", line); c.st.Starts++; c.st.Explored++ }
func (c *lvCounter) Draw(_, _ int, placed bool, line int) {
	c.step(map[bool]string{true: "draw", false: "reject"}[placed], line)
	c.st.Draws++
	c.st.Checks++
	if placed {
		c.st.Random++
		c.st.Explored++
	}
}
func (c *lvCounter) RandomRow(_, _, line int) {
	c.step("random", line)
	c.st.Checks += int64(c.n)
	c.st.Random++
	c.st.Explored++
}
func (c *lvCounter) DeadEnd(row, line int) {
	c.step("deadend", line)
	if row >= 0 {
		c.st.Checks += int64(c.n)
	}
}
func (c *lvCounter) Backtrack(line int) { c.step("backtrack", line); c.st.Nodes++ }
func (c *lvCounter) Place(_, _, line int) {
	c.step("place", line)
	c.st.Nodes++
	c.st.Checks++
	c.st.Explored++
}
func (c *lvCounter) Remove(_, _, line int)   { c.step("remove", line) }
func (c *lvCounter) Conflict(_, _, line int) { c.step("conflict", line); c.st.Checks++ }
func (c *lvCounter) Fail(line int)           { c.step("fail", line) }
func (c *lvCounter) Solution(line int)       { c.step("solution", line) }

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
				res, err := lab.LasVegasRun(ctx, c.n, lab.LasVegasRunOptions{Variant: v, M: c.m, Seed: seed}, rec)
				if err != nil || len(res.Placement) != c.n || res.Total != 1 || res.N != c.n {
					t.Fatalf("%s: %+v, %v", name, res, err)
				}
				st := counters(res)
				tab, err := lab.LasVegas(ctx, c.n, lab.LasVegasOptions{Variant: v, Ms: []int{c.m}, Trials: 1, Seed: seed})
				if err != nil {
					t.Fatal(name, err)
				}
				r := tab.Rows[0]
				row := lab.RunResult{Starts: int64(r.Starts), Draws: int64(r.Draws), Random: st.Random, Nodes: int64(r.Nodes),
					Checks: int64(r.Checks), Explored: int64(r.Explored)}
				if !sameCounters(rec.st, st) || !sameCounters(st, row) {
					t.Errorf("%s: the events count %+v, the run %+v, the table's row %+v", name, rec.st, st, row)
				}
				if err := lab.LasVegasCode(v).Walk(rec.steps, true); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

// lsCounter counts a local search from its events.
type lsCounter struct {
	st                       lab.RunResult // the counters only
	j, n, runs               int
	placedChecks, scanChecks int64 // of the first run's initial search
	steps                    []lab.Step
}

func (c *lsCounter) step(kind string, line int) {
	c.steps = append(c.steps, lab.Step{Kind: kind, Line: line})
}

func (c *lsCounter) Run(line int) {
	c.step("run", line)
	if c.runs > 0 {
		c.st.Restarts++
	}
	c.runs++
	c.j = 0
}
func (c *lsCounter) Try(_, _ int, placed bool, scan, line int) {
	c.step("try", line)
	c.st.Attempts++
	if c.runs == 1 {
		c.placedChecks++
		c.scanChecks += int64(scan)
	}
	if placed {
		c.j++
	}
}
func (c *lsCounter) Shuffle(_, _, line int) { c.step("shuffle", line) }
func (c *lsCounter) Final(line int)         { c.step("final", line); c.st.Conflicts = int64(c.n - c.j) }
func (c *lsCounter) Swap(_, _ int, kept bool, line int) {
	c.step("swap", line)
	c.st.Swaps++
	if !kept {
		c.st.FailedSwaps++
	}
}
func (c *lsCounter) Solved(line int) { c.step("solved", line) }

// TestLocalSearchReplay: a traced local search's counters, counted from its events, are
// those of the LocalSearch table's row for the same n and seed, the checks of its first
// initial search included.
func TestLocalSearchReplay(t *testing.T) {
	ctx := context.Background()
	restarts := int64(0)
	for _, n := range []int{8, 20, 50, 100, 200, 500} {
		for _, seed := range []uint64{1, 2, 3, 4} {
			rec := &lsCounter{n: n}
			res, err := lab.LocalSearchRun(ctx, n, seed, rec)
			if err != nil || len(res.Placement) != n || res.Total != 1 {
				t.Fatal(n, seed, err)
			}
			st := counters(res)
			tab, err := lab.LocalSearch(ctx, lab.LocalSearchOptions{From: n, To: n, ScanMax: n, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			r := tab.Rows[0]
			row := lab.RunResult{Attempts: r.Attempts, Conflicts: r.Conflicts, Swaps: r.Swaps, FailedSwaps: r.FailedSwaps, Restarts: r.Restarts}
			if !sameCounters(rec.st, st) || !sameCounters(st, row) || rec.placedChecks != r.InitialPlacedChecks || rec.scanChecks != *r.InitialScanChecks {
				t.Errorf("n=%d seed=%d: the events count %+v (checks %d, %d), the run %+v, the table's row %+v (checks %d, %d)",
					n, seed, rec.st, rec.placedChecks, rec.scanChecks, st, row, r.InitialPlacedChecks, *r.InitialScanChecks)
			}
			restarts += st.Restarts
			for _, check := range []lab.Check{lab.CheckPlaced, lab.CheckScan} {
				code, _ := lab.LocalSearchCode(check)
				if err := code.Walk(rec.steps, true); err != nil {
					t.Errorf("n=%d seed=%d: %v", n, seed, err)
				}
			}
		}
	}
	if restarts == 0 {
		t.Error("no restart: the restarts went untested")
	}
}

// searchSteps records the steps of a teaching search.
type searchSteps []lab.Step

func (s *searchSteps) add(kind string, line int) { *s = append(*s, lab.Step{Kind: kind, Line: line}) }
func (s *searchSteps) Place(_, _, line int)      { s.add("place", line) }
func (s *searchSteps) Remove(_, _, line int)     { s.add("remove", line) }
func (s *searchSteps) Conflict(_, _, line int)   { s.add("conflict", line) }
func (s *searchSteps) Solution(line int)         { s.add("solution", line) }
func (s *searchSteps) Prune(_, line int)         { s.add("prune", line) }

// constructSteps records the rows of the construction.
type constructSteps struct {
	searchSteps
	cols []int
}

func (s *constructSteps) Place(_, col, line int) { s.add("place", line); s.cols = append(s.cols, col) }

// TestCodePaths: for every search and a few n, every step a traced run reports names a
// line of the search's program that reports that kind of step, and the lines of the run
// are a path through the program from its start to its end.
func TestCodePaths(t *testing.T) {
	ctx := context.Background()
	for _, s := range lab.Searches() {
		for _, n := range []int{1, 4, 6, 7} {
			var steps searchSteps
			if _, err := s.Run(ctx, n, &steps); err != nil {
				t.Fatal(err)
			}
			if err := s.Code().Walk(steps, true); err != nil {
				t.Errorf("%s n=%d: %v", s.Name, n, err)
			}
		}
	}
	for _, n := range []int{1, 4, 8, 9, 14, 15, 100} {
		var steps constructSteps
		res, err := lab.ConstructRun(ctx, n, &steps)
		if err != nil {
			t.Fatal(err)
		}
		q := res.Placement
		want, err := nqueens.Solve(ctx, n, nqueens.SolveOptions{Algorithm: nqueens.Construct})
		if err != nil || !slices.Equal(q, want.Placement) || len(steps.cols) != n {
			t.Errorf("construct n=%d: %v, nqueens.Solve %v (%v)", n, q, want.Placement, err)
		}
		if err := lab.ConstructCode().Walk(steps.searchSteps, true); err != nil {
			t.Errorf("construct n=%d: %v", n, err)
		}
	}
	if _, err := lab.ConstructRun(ctx, 3, nil); !errors.Is(err, nqueens.ErrNoSolution) {
		t.Errorf("construct n=3: %v", err)
	}
	if _, ok := lab.LocalSearchCode(lab.CheckAllQueens); ok {
		t.Error("a program for the all-queens check")
	}
}
