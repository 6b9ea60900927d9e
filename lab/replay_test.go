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
	board nqueens.Placement // the board the steps leave: a column per row, -1 when empty
	bad   error             // a solution step whose board is not a solution
}

// put puts a queen on (row, col) of the board the steps build.
func (c *lvCounter) put(row, col int) {
	if c.board == nil {
		c.board = make(nqueens.Placement, c.n)
	}
	c.board[row] = int32(col)
}

func (c *lvCounter) step(kind string, line int) {
	c.steps = append(c.steps, lab.Step{Kind: kind, Line: line})
}

func (c *lvCounter) Start(line int) {
	c.step("start", line)
	c.st.Starts++
	c.st.Explored++
	for r := range c.n {
		c.put(r, -1)
	}
}
func (c *lvCounter) Draw(row, col int, placed bool, line int) {
	c.step(map[bool]string{true: "draw", false: "reject"}[placed], line)
	c.st.Draws++
	c.st.Checks++
	if placed {
		c.put(row, col)
		c.st.Random++
		c.st.Explored++
	}
}
func (c *lvCounter) RandomRow(row, col, line int) {
	c.step("random", line)
	c.put(row, col)
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
func (c *lvCounter) Place(row, col, line int) {
	c.step("place", line)
	c.put(row, col)
	c.st.Nodes++
	c.st.Checks++
	c.st.Explored++
}
func (c *lvCounter) Remove(row, _, line int) { c.step("remove", line); c.put(row, -1) }
func (c *lvCounter) Conflict(_, _, line int) { c.step("conflict", line); c.st.Checks++ }
func (c *lvCounter) Fail(line int)           { c.step("fail", line) }
func (c *lvCounter) Solution(line int) {
	c.step("solution", line)
	if err := nqueens.Verify(c.board); err != nil {
		c.bad = err
	}
}

// TestLasVegasReplay: a traced run's counters, counted from its events, are those of
// the run and of the sampled table's row for the same n, m and seed (one trial), for
// several n, m, seeds and both variants; the board its events build is a solution, the
// run's. (The web board's replay counts its events so; it checked them against the run's
// counters on every replay until this test did it once.)
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
				if rec.bad != nil || !slices.Equal(rec.board, res.Placement) {
					t.Errorf("%s: the events end on %v (%v), the run on %v", name, rec.board, rec.bad, res.Placement)
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
	q                        nqueens.Placement // the permutation the steps leave
	placedChecks, scanChecks int64             // of the first run's initial search
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
	c.q = make(nqueens.Placement, c.n)
	for i := range c.q {
		c.q[i] = int32(i)
	}
}
func (c *lsCounter) Try(j, m int, placed bool, scan, line int) {
	c.step("try", line)
	c.st.Attempts++
	if c.runs == 1 {
		c.placedChecks++
		c.scanChecks += int64(scan)
	}
	if placed {
		c.q[j], c.q[m] = c.q[m], c.q[j]
		c.j++
	}
}
func (c *lsCounter) Shuffle(i, m, line int) { c.step("shuffle", line); c.q[i], c.q[m] = c.q[m], c.q[i] }
func (c *lsCounter) Final(line int)         { c.step("final", line); c.st.Conflicts = int64(c.n - c.j) }
func (c *lsCounter) Swap(i, m int, kept bool, line int) {
	c.step("swap", line)
	c.st.Swaps++
	if kept {
		c.q[i], c.q[m] = c.q[m], c.q[i]
	} else {
		c.st.FailedSwaps++
	}
}
func (c *lsCounter) Solved(line int) { c.step("solved", line) }

// TestLocalSearchReplay: a traced local search's counters, counted from its events, are
// those of the run and of the LocalSearch table's row for the same n and seed, the checks
// of its first initial search included, and the permutation its events leave is the run's
// placement, a solution. (The web board's replay counts and moves its queens so; it
// checked them against the run on every replay until this test did it once.)
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
			if err := nqueens.Verify(rec.q); err != nil || !slices.Equal(rec.q, res.Placement) {
				t.Errorf("n=%d seed=%d: the events end on %v (%v), the run on %v", n, seed, rec.q, err, res.Placement)
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

// searchCounter counts a teaching search from its events, as the web board's replay does:
// a node per place event and the root, a check per place or conflict event, a solution
// per solution event, whose board it keeps.
type searchCounter struct {
	board                        nqueens.Placement // a column per row, -1 when empty
	places, conflicts, solutions int64
	compares                     int64           // Place's loop iterations (classic)
	found                        map[string]bool // the solutions' boards, each once
	bad                          error           // a solution event whose board is not a solution
}

func (c *searchCounter) Place(row, col, _ int) { c.board[row] = int32(col); c.places++ }
func (c *searchCounter) Remove(row, _, _ int)  { c.board[row] = -1 }
func (c *searchCounter) Conflict(_, _, _ int)  { c.conflicts++ }
func (c *searchCounter) Compare(row, col, j, colJ int, attacks bool, _ int) {
	c.compares++
	if d := col - colJ; c.board[j] != int32(colJ) || j >= row || attacks != (d == 0 || d == row-j || d == j-row) {
		c.bad = fmt.Errorf("compare %d: row %d, column %d with row %d, column %d (attacks %v) on %v", c.compares, row, col, j, colJ, attacks, c.board)
	}
}
func (c *searchCounter) Prune(_, _ int) {}
func (c *searchCounter) Solution(_ int) {
	c.solutions++
	if err := nqueens.Verify(c.board); err != nil && c.bad == nil {
		c.bad = fmt.Errorf("solution %d: %v: %w", c.solutions, c.board, err)
	}
	c.found[fmt.Sprint(c.board)] = true
}

// TestSearchReplay: for every teaching search and n = 1..8, the counters of its events are
// its own (1 + places nodes, places + conflicts checks, a solution per solution event), a
// traced run counts as an untraced one, and every board its events call a solution is one,
// each once. (The web board's replay counts its events so; it checked them against the
// search's counters on every replay until this test did it once.)
func TestSearchReplay(t *testing.T) {
	ctx := context.Background()
	for _, s := range lab.Searches() {
		for n := 1; n <= 8; n++ {
			c := &searchCounter{board: make(nqueens.Placement, n), found: map[string]bool{}}
			for i := range c.board {
				c.board[i] = -1
			}
			traced, err := s.Run(ctx, n, c)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := s.Run(ctx, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(traced, plain) || traced.Placement != nil || traced.N != n {
				t.Errorf("%s n=%d: traced %+v, untraced %+v", s.Name, n, traced, plain)
			}
			if 1+c.places != plain.Nodes || c.places+c.conflicts != plain.Checks || c.solutions != plain.Total || c.compares != plain.PlaceLoopIterations {
				t.Errorf("%s n=%d: the events count %d nodes, %d checks, %d solutions, %d loop iterations; the search %d, %d, %d, %d", s.Name, n,
					1+c.places, c.places+c.conflicts, c.solutions, c.compares, plain.Nodes, plain.Checks, plain.Total, plain.PlaceLoopIterations)
			}
			if c.bad != nil || int64(len(c.found)) != c.solutions {
				t.Errorf("%s n=%d: %d solution events, %d boards: %v", s.Name, n, c.solutions, len(c.found), c.bad)
			}
		}
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
func (s *searchSteps) Compare(_, _, _, _ int, _ bool, line int) {
	s.add("compare", line)
}

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

// TestRunFrom: the row-by-row searches from a partial board count its completions, as the
// complete search of nqueens.CountCompletions does (another algorithm: propagation on
// bitsets), for partial boards from solutions and random ones, attacking queens included;
// both explore the same tree; in a fixed row only the fixed column is placed; their lines
// are a path through their program; with no queen fixed it is Run. The cell searches
// refuse.
func TestRunFrom(t *testing.T) {
	ctx := context.Background()
	classicS, _ := lab.LookupSearch("classic")
	rowS, _ := lab.LookupSearch("row")
	for n := 4; n <= 8; n++ {
		for seed := range uint64(6) {
			mode := []nqueens.GenerateMode{nqueens.FromSolution, nqueens.RandomQueens}[seed%2]
			p, err := nqueens.GenerateInstance(ctx, n, int(seed%3)+1, mode, seed)
			if err != nil {
				t.Fatal(err)
			}
			if seed == 5 { // two queens that attack each other
				p[0], p[1] = 0, 1
			}
			want, _ := nqueens.CountCompletions(ctx, p, nqueens.CompletionOptions{})
			var results []lab.RunResult
			for _, s := range []lab.Search{classicS, rowS} {
				steps := &fixedSteps{fixed: p}
				res, err := s.RunFrom(ctx, p, steps)
				if err != nil {
					t.Fatal(err)
				}
				if res.Total != int64(want.Total) || steps.bad != "" {
					t.Errorf("%s from %v: %d completions, CountCompletions %d (%s)", s.Name, p, res.Total, want.Total, steps.bad)
				}
				if err := s.Code().Walk(steps.searchSteps, true); err != nil {
					t.Errorf("%s from %v: %v", s.Name, p, err)
				}
				results = append(results, res)
			}
			if results[0].Nodes != results[1].Nodes {
				t.Errorf("from %v: classic %d nodes, row %d", p, results[0].Nodes, results[1].Nodes)
			}
		}
		empty := make(nqueens.Partial, n)
		for r := range empty {
			empty[r] = -1
		}
		for _, s := range []lab.Search{classicS, rowS} {
			from, err1 := s.RunFrom(ctx, empty, nil)
			whole, err2 := s.Run(ctx, n, nil)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(from, whole) {
				t.Errorf("%s, n = %d, nothing fixed: %+v, Run %+v (%v, %v)", s.Name, n, from, whole, err1, err2)
			}
		}
	}
	for _, name := range []string{"cell", "cellprune"} {
		s, _ := lab.LookupSearch(name)
		if _, err := s.RunFrom(ctx, nqueens.Partial{-1, -1, -1, -1}, nil); err == nil || s.StartsFromPartial() {
			t.Errorf("%s from a partial board: no error", name)
		}
	}
}

// fixedSteps records a search's steps and notes a queen placed off a fixed row's column.
type fixedSteps struct {
	searchSteps
	fixed nqueens.Partial
	bad   string
}

func (s *fixedSteps) Place(row, col, line int) {
	s.searchSteps.Place(row, col, line)
	if f := s.fixed[row]; f >= 0 && int(f) != col && s.bad == "" {
		s.bad = fmt.Sprintf("a queen on (%d, %d), in a row fixed at column %d", row+1, col+1, f+1)
	}
}

// fixedRows notes a local search step that names a fixed row.
type fixedRows struct {
	fixed nqueens.Partial
	steps int
	bad   string
}

func (f *fixedRows) note(kind string, rows ...int) {
	f.steps++
	for _, r := range rows {
		if f.fixed[r] >= 0 && f.bad == "" {
			f.bad = fmt.Sprintf("%s names row %d, which is fixed", kind, r+1)
		}
	}
}
func (f *fixedRows) Run(int)                        { f.steps++ }
func (f *fixedRows) Try(j, m int, _ bool, _, _ int) { f.note("try", j, m) }
func (f *fixedRows) Shuffle(i, m, _ int)            { f.note("shuffle", i, m) }
func (f *fixedRows) Final(int)                      { f.steps++ }
func (f *fixedRows) Swap(i, m int, _ bool, _ int)   { f.note("swap", i, m) }
func (f *fixedRows) Solved(int)                     { f.steps++ }

// TestLocalSearchRunFrom: the local search from a partial board keeps its fixed queens
// (its placement is a solution that holds them), no step names a fixed row, a traced run
// ends as an untraced one, and fixed queens that attack each other are ErrNoSolution.
func TestLocalSearchRunFrom(t *testing.T) {
	ctx := context.Background()
	solved := 0
	for _, n := range []int{8, 12, 30, 100} {
		for seed := range uint64(3) {
			p, err := nqueens.GenerateInstance(ctx, n, n/4, nqueens.FromSolution, seed)
			if err != nil {
				t.Fatal(err)
			}
			f := &fixedRows{fixed: p}
			res, err := lab.LocalSearchRunFrom(ctx, p, seed, f)
			if errors.Is(err, lab.ErrNoCompletionFound) {
				continue // the runs may all fail on a small board; the next seed tries again
			}
			plain, err2 := lab.LocalSearchRunFrom(ctx, p, seed, nil)
			if err != nil || err2 != nil || f.bad != "" || f.steps == 0 || !reflect.DeepEqual(res, plain) {
				t.Fatalf("n=%d seed=%d from %v: %v, %v, %s; traced %+v, untraced %+v", n, seed, p, err, err2, f.bad, res, plain)
			}
			if err := nqueens.Verify(res.Placement); err != nil {
				t.Errorf("n=%d seed=%d: %v", n, seed, err)
			}
			solved++
			for r, c := range p {
				if c >= 0 && res.Placement[r] != c {
					t.Errorf("n=%d seed=%d: the queen of row %d moved from column %d to %d", n, seed, r+1, c+1, res.Placement[r]+1)
				}
			}
		}
	}
	if solved < 8 {
		t.Errorf("only %d of 12 runs found their completion", solved)
	}
	p, _ := nqueens.ParsePartial("1:1, 2:2", 8)
	if _, err := lab.LocalSearchRunFrom(ctx, p, 1, nil); !errors.Is(err, nqueens.ErrNoSolution) {
		t.Errorf("attacking fixed queens: %v", err)
	}
}
