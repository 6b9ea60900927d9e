package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// lvCounters are the counters of a Las Vegas replay after some events, counted as the
// page counts them.
type lvCounters struct {
	Starts, Draws, Random, Nodes, Checks, Explored, Failed, ExploredFailed, Total int64
}

// lasVegasAt replays the first i events of a Las Vegas trace, checking each against the
// board.
func lasVegasAt(t *testing.T, tr lasVegasTrace, i int) lvCounters {
	t.Helper()
	n := int32(tr.N)
	var c lvCounters
	board := emptyBoard(tr.N)
	attacked := func(r, col int32) bool {
		for q, k := range board {
			q := int32(q)
			if k >= 0 && (q == r || k == col || q-k == r-col || q+k == r+col) {
				return true
			}
		}
		return false
	}
	var attempt int64 // nodes explored by the current attempt
	for x, e := range tr.Events[:i] {
		var r, col int32 = -1, -1
		if len(e) >= 4 { // [kind, row, column, line]
			r, col = e[1]-1, e[2]-1
		}
		switch e[0] {
		case lvStart:
			board = emptyBoard(tr.N)
			c.Starts++
			c.Explored++
			attempt = 1
		case lvDraw, lvReject, lvRandom:
			if attacked(r, col) != (e[0] == lvReject) {
				t.Fatalf("event %d %v on %v", x, e, board)
			}
			if e[0] == lvRandom {
				c.Checks += int64(n)
			} else {
				c.Draws++
				c.Checks++
			}
			if e[0] != lvReject {
				board[r] = col
				c.Random++
				c.Explored++
				attempt++
			}
		case lvDeadEnd:
			if e[1] > 0 {
				c.Checks += int64(n)
			}
			c.Failed++
			c.ExploredFailed += attempt
		case lvBacktrack:
			c.Nodes++
		case lvPlace:
			if attacked(r, col) {
				t.Fatalf("event %d %v on %v", x, e, board)
			}
			board[r] = col
			c.Nodes++
			c.Checks++
			c.Explored++
			attempt++
		case lvRemove:
			board[r] = -1
		case lvConflict:
			if !attacked(r, col) {
				t.Fatalf("event %d %v on %v", x, e, board)
			}
			c.Checks++
		case lvFail:
			c.Failed++
			c.ExploredFailed += attempt
		case lvSolution:
			if err := nqueens.Verify(board); err != nil {
				t.Fatalf("event %d: the solution %v: %v", x, board, err)
			}
			c.Total++
		default:
			t.Fatalf("event %d: kind %v", x, e)
		}
	}
	return c
}

// TestTraceLasVegas: the replay of a Las Vegas run, for several n, m, seeds and both
// variants: the counters of its events are those of the answer, and those of the lab's
// sampled table for the same n, m and seed (one trial); the same seed replays the same run.
func TestTraceLasVegas(t *testing.T) {
	h := New(Options{})
	for _, v := range []string{"row", "cell"} {
		for _, c := range []struct{ n, m int }{{4, 2}, {8, 3}, {12, 8}, {20, 14}, {30, 22}} {
			for _, seed := range []uint64{1, 2, 3} {
				q := fmt.Sprintf("/api/trace?search=lasvegas&variant=%s&n=%d&m=%d&seed=%d", v, c.n, c.m, seed)
				tr := decode[lasVegasTrace](t, get(t, h, q))
				got := lasVegasAt(t, tr, len(tr.Events))
				answer := lvCounters{tr.Starts, tr.Draws, tr.Random, tr.Nodes, tr.Checks, tr.Explored, tr.Failed, tr.ExploredFailed, tr.Total}
				tab, err := lab.LasVegas(context.Background(), c.n, lab.LasVegasOptions{Variant: map[string]lab.Variant{"row": lab.Row, "cell": lab.Cell}[v],
					Ms: []int{c.m}, Trials: 1, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				r := tab.Rows[0]
				if got != answer || tr.Stopped != "" || !tr.Verified || got.Total != 1 || got.Failed != got.Starts-1 ||
					got.Starts != int64(r.Starts) || got.Explored != int64(r.Explored) || got.Checks != int64(r.Checks) ||
					got.Nodes != int64(r.Nodes) || got.Draws != int64(r.Draws) {
					t.Errorf("%s: the events count %+v, the answer %+v, the lab's row %+v %+v", q, got, answer, r, r.Sampled)
				}
				if again := get(t, h, q).Body.String(); again != get(t, h, q).Body.String() {
					t.Errorf("%s: two answers differ", q)
				}
			}
		}
	}
	// Without a seed the answer names the one it drew, which replays the same run.
	tr := decode[lasVegasTrace](t, get(t, h, "/api/trace?search=lasvegas&n=10&m=5"))
	again := decode[lasVegasTrace](t, get(t, h, fmt.Sprintf("/api/trace?search=lasvegas&n=10&m=5&seed=%d", tr.Seed)))
	if tr.Variant != lab.DefaultVariant.String() || !slices.EqualFunc(tr.Events, again.Events, slices.Equal) || tr.Checks != again.Checks {
		t.Errorf("seed %d does not replay the run", tr.Seed)
	}
	// The event limit: the counters are those of the events sent.
	capped := decode[lasVegasTrace](t, get(t, h, "/api/trace?search=lasvegas&variant=cell&n=30&m=0&seed=1&max_events=500"))
	if c := lasVegasAt(t, capped, 500); len(capped.Events) != 500 || capped.Stopped != "event limit" || c.Checks != capped.Checks || c.Nodes != capped.Nodes {
		t.Errorf("capped: %d events, stopped %q, %+v; the answer %d checks", len(capped.Events), capped.Stopped, c, capped.Checks)
	}
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=8"), 400, "parameter m")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=8&m=9"), 400, "m = 9")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=3&m=1"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=1001&m=1"), 400, "at most 1000")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=8&m=2&until=all"), 400, "unknown parameter until")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=8&m=2&variant=diagonal"), 400, "variant")
}

// lsCounters are the counters of a local-search replay after some events, counted as
// the page counts them, with the permutation they leave.
type lsCounters struct {
	Attempts, Conflicts, Swaps, FailedSwaps, Restarts, PlacedChecks, ScanChecks int64
	q                                                                           nqueens.Placement
	collisions                                                                  int
	InitialPlacedChecks, InitialScanChecks                                      int64 // the first run's
}

// localSearchAt replays the first i events of a local-search trace, checking each against
// the board: a try is placed exactly when the placed queens leave its square free, a kept
// swap leaves both queens free.
func localSearchAt(t *testing.T, tr localSearchTrace, i int) lsCounters {
	t.Helper()
	n := tr.N
	c := lsCounters{q: make(nqueens.Placement, n)}
	anti, diag := make([]int, 2*n), make([]int, 2*n)
	count := func(r int, d int) {
		anti[r+int(c.q[r])] += d
		diag[r-int(c.q[r])+n] += d
	}
	j, runs := 0, 0
	for x, e := range tr.Events[:i] {
		switch e[0] {
		case lsRun:
			if runs > 0 {
				c.Restarts++
			}
			runs++
			for r := range c.q {
				c.q[r] = int32(r)
			}
			clear(anti)
			clear(diag)
			j = 0
		case lsTry:
			row, m, placed := int(e[1]-1), int(e[2]-1), e[3] == 1
			col := int(c.q[m])
			if row != j || (anti[row+col] == 0 && diag[row-col+n] == 0) != placed {
				t.Fatalf("event %d %v: j = %d, the square is free: %v", x, e, j, !placed)
			}
			c.Attempts++
			c.PlacedChecks++
			c.ScanChecks += int64(e[4])
			if runs == 1 {
				c.InitialPlacedChecks++
				c.InitialScanChecks += int64(e[4])
			}
			if placed {
				c.q[row], c.q[m] = c.q[m], c.q[row]
				count(row, 1)
				j++
			}
		case lsShuffle:
			r, m := int(e[1]-1), int(e[2]-1)
			c.q[r], c.q[m] = c.q[m], c.q[r]
			count(r, 1)
		case lsFinal:
			c.Conflicts = int64(n - j)
		case lsSwap:
			r, m := int(e[1]-1), int(e[2]-1)
			c.Swaps++
			if e[3] == 0 {
				c.FailedSwaps++
				continue
			}
			count(r, -1)
			count(m, -1)
			c.q[r], c.q[m] = c.q[m], c.q[r]
			count(r, 1)
			count(m, 1)
			for _, k := range []int{r, m} {
				if anti[k+int(c.q[k])] != 1 || diag[k-int(c.q[k])+n] != 1 {
					t.Fatalf("event %d %v: row %d is not free after a kept swap", x, e, k+1)
				}
			}
		case lsSolved:
			if err := nqueens.Verify(c.q); err != nil {
				t.Fatalf("event %d: solved, but %v", x, err)
			}
		default:
			t.Fatalf("event %d: kind %v", x, e)
		}
	}
	for _, v := range slices.Concat(anti, diag) {
		c.collisions += max(v-1, 0)
	}
	return c
}

// TestTraceLocalSearch: the replay of a local search, for several n and seeds: the
// counters of its events are those of the answer and of the lab's localsearch table for
// the same n and seed (the checks of step 1 with each check included), its last board is
// the placement, and check=scan counts the O(j) scan.
func TestTraceLocalSearch(t *testing.T) {
	h := New(Options{})
	restarted := 0
	for _, n := range []int{4, 6, 8, 30, 100, 200, 1000} { // n = 6, seed 1 restarts 31 times
		for _, seed := range []uint64{1, 2, 3} {
			for _, check := range []string{"placed", "scan"} {
				q := fmt.Sprintf("/api/trace?search=localsearch&n=%d&seed=%d&check=%s", n, seed, check)
				tr := decode[localSearchTrace](t, get(t, h, q))
				got := localSearchAt(t, tr, len(tr.Events))
				answer := lsCounters{tr.Attempts, tr.Conflicts, tr.Swaps, tr.FailedSwaps, tr.Restarts, tr.PlacedChecks, tr.ScanChecks, got.q, 0, 0, 0}
				tab, err := lab.LocalSearch(context.Background(), lab.LocalSearchOptions{From: n, To: n, ScanMax: n, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				r := tab.Rows[0]
				want := map[string]int64{"placed": tr.PlacedChecks, "scan": tr.ScanChecks}[check]
				if !equalLS(got, answer) || tr.Stopped != "" || !tr.Verified || got.collisions != 0 || tr.Checks != want ||
					got.Attempts != r.Attempts || got.Conflicts != r.Conflicts || got.Swaps != r.Swaps || got.FailedSwaps != r.FailedSwaps || got.Restarts != r.Restarts {
					t.Errorf("%s: the events count %+v, the answer %+v, the lab's row %+v", q, got, answer, r)
				}
				// initial_*_checks are the first run's step 1, as in the lab, restarts or
				// not; placed_checks and scan_checks count every run's.
				if tr.InitialPlacedChecks != r.InitialPlacedChecks || tr.InitialScanChecks != *r.InitialScanChecks ||
					got.InitialPlacedChecks != tr.InitialPlacedChecks || got.InitialScanChecks != tr.InitialScanChecks {
					t.Errorf("%s: initial checks %d and %d (from the events %d and %d), the lab's %d and %d", q, tr.InitialPlacedChecks, tr.InitialScanChecks,
						got.InitialPlacedChecks, got.InitialScanChecks, r.InitialPlacedChecks, *r.InitialScanChecks)
				}
				if r.Restarts > 0 {
					restarted++
					if tr.PlacedChecks <= tr.InitialPlacedChecks || tr.PlacedChecks != tr.Attempts {
						t.Errorf("%s: %d restarts, yet %d checks over all runs against %d in the first (%d attempts)", q, r.Restarts,
							tr.PlacedChecks, tr.InitialPlacedChecks, tr.Attempts)
					}
				} else if tr.PlacedChecks != tr.InitialPlacedChecks || tr.ScanChecks != tr.InitialScanChecks {
					t.Errorf("%s: no restart, yet %d and %d checks over all runs, %d and %d in the first", q, tr.PlacedChecks, tr.ScanChecks,
						tr.InitialPlacedChecks, tr.InitialScanChecks)
				}
			}
		}
	}
	if restarted == 0 {
		t.Error("no local search restarted: the initial checks went untested against a restart")
	}
	capped := decode[localSearchTrace](t, get(t, h, "/api/trace?search=localsearch&n=500&seed=1&max_events=100"))
	if c := localSearchAt(t, capped, 100); len(capped.Events) != 100 || capped.Stopped != "event limit" || c.Attempts != capped.Attempts {
		t.Errorf("capped: %d events, stopped %q, %d attempts, the answer %d", len(capped.Events), capped.Stopped, c.Attempts, capped.Attempts)
	}
	wantError(t, get(t, h, "/api/trace?search=localsearch&n=3"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/trace?search=localsearch&n=8&check=allqueens"), 400, "check")
	wantError(t, get(t, h, "/api/trace?search=localsearch&n=8&m=3"), 400, "unknown parameter m")
}

func equalLS(a, b lsCounters) bool {
	return a.Attempts == b.Attempts && a.Conflicts == b.Conflicts && a.Swaps == b.Swaps && a.FailedSwaps == b.FailedSwaps &&
		a.Restarts == b.Restarts && a.PlacedChecks == b.PlacedChecks && a.ScanChecks == b.ScanChecks
}

// TestTraceConstruct: the construction's replay puts the queen of each row, in row order,
// on the column of nqueens.Solve with the construction, and ends on a verified solution;
// n = 2 and 3 have none.
func TestTraceConstruct(t *testing.T) {
	h := New(Options{})
	for _, n := range []int{1, 4, 8, 9, 14, 15, 200, 1000} { // n mod 6 = 2 and 3 among them
		tr := decode[constructTrace](t, get(t, h, fmt.Sprintf("/api/trace?search=construct&n=%d", n)))
		want, err := nqueens.Solve(context.Background(), n, nqueens.SolveOptions{Algorithm: nqueens.Construct})
		if err != nil {
			t.Fatal(err)
		}
		board := emptyBoard(n)
		for r, e := range tr.Events[:len(tr.Events)-1] {
			if e[0] != 0 || e[1] != int32(r+1) {
				t.Fatalf("n=%d: event %d is %v", n, r, e)
			}
			board[r] = e[2] - 1
		}
		if last := tr.Events[len(tr.Events)-1]; len(tr.Events) != n+1 || last[0] != 1 || tr.Placed != n || !tr.Verified || !slices.Equal(board, want.Placement) {
			t.Errorf("n=%d: %d events, placed %d, board %v, want %v", n, len(tr.Events), tr.Placed, board, want.Placement)
		}
	}
	wantError(t, get(t, h, "/api/trace?search=construct&n=3"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/trace?search=construct&n=1001"), 400, "at most 1000")
}

// traceCode is the program of a trace's search, from the lab (whose control flow Walk
// follows; the JSON has only what the page shows).
func traceCode(t *testing.T, q string, head traceHead) lab.Code {
	t.Helper()
	u, _ := url.Parse(q)
	v := u.Query()
	switch head.Search {
	case "lasvegas":
		variant, _ := lab.ParseVariant(cmp.Or(v.Get("variant"), "row"))
		return lab.LasVegasCode(variant)
	case "localsearch":
		c, _ := lab.LocalSearchCode(map[string]lab.Check{"": lab.CheckPlaced, "placed": lab.CheckPlaced, "scan": lab.CheckScan}[v.Get("check")])
		return c
	case "construct":
		return lab.ConstructCode()
	}
	s, ok := lab.LookupSearch(head.Search)
	if !ok {
		t.Fatalf("%s: search %q", q, head.Search)
	}
	return s.Code()
}

// TestTraceLines: for every search of /api/trace and a few n, every event ends with the
// line of the search's program that reported it, a line that reports that kind of event,
// and the lines of the events are a path through the program (to its end when the search
// ran to its end); the answer's code is that program, with comments in both languages.
func TestTraceLines(t *testing.T) {
	h := New(Options{})
	var queries []string
	for _, s := range []string{"classic", "row", "cell", "cellprune"} {
		for _, n := range []int{1, 4, 6} {
			queries = append(queries, fmt.Sprintf("/api/trace?search=%s&n=%d&until=all", s, n))
		}
		queries = append(queries, fmt.Sprintf("/api/trace?search=%s&n=8", s), fmt.Sprintf("/api/trace?search=%s&n=9&until=all&max_events=3000", s))
	}
	for _, v := range []string{"row", "cell"} {
		for _, c := range []struct{ n, m int }{{4, 0}, {4, 2}, {8, 3}, {12, 9}, {20, 20}} {
			for seed := 1; seed <= 3; seed++ {
				queries = append(queries, fmt.Sprintf("/api/trace?search=lasvegas&variant=%s&n=%d&m=%d&seed=%d", v, c.n, c.m, seed))
			}
		}
	}
	for _, check := range []string{"placed", "scan"} {
		for _, n := range []int{4, 8, 30, 201} {
			for seed := 1; seed <= 3; seed++ {
				queries = append(queries, fmt.Sprintf("/api/trace?search=localsearch&check=%s&n=%d&seed=%d", check, n, seed))
			}
		}
	}
	for _, n := range []int{1, 4, 8, 9, 14, 15, 50} {
		queries = append(queries, fmt.Sprintf("/api/trace?search=construct&n=%d", n))
	}
	for _, q := range queries {
		w := get(t, h, q)
		head := decode[traceHead](t, w)
		code := traceCode(t, q, head)
		if got, want := asJSON(head.Code), asJSON(code); got != want {
			t.Fatalf("%s: the answer's code is %s, the search's %s", q, got, want)
		}
		for i, l := range head.Code.Lines {
			if l.Comment.En != "" && (l.Comment.Zh == "" || !strings.ContainsFunc(l.Comment.Zh, isHan)) {
				t.Errorf("%s: line %d's comment %q has no Chinese: %q", q, i+1, l.Comment.En, l.Comment.Zh)
			}
		}
		steps := make([]lab.Step, len(head.Events))
		for i, e := range head.Events {
			steps[i] = lab.Step{Kind: head.Kinds[e[0]], Line: int(e[len(e)-1])}
		}
		if err := code.Walk(steps, head.Stopped == ""); err != nil {
			t.Errorf("%s: %v", q, err)
		}
		// Every line one further on is not a path (a test that can fail).
		for i := range steps {
			steps[i].Line = steps[i].Line%len(code.Lines) + 1
		}
		if len(steps) > 0 && code.Walk(steps, head.Stopped == "") == nil {
			t.Errorf("%s: the lines shifted by one pass", q)
		}
	}
}

// isHan reports whether r is a Chinese character.
func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTraceLocalSearchFrom: the local search replays from the queens of fix= (a custom
// start): no event moves a fixed row, the events, followed from the fixed queens and the
// free columns in order, end on a solution that keeps them, the counters are the lab's
// run from the same board and seed, and fixed queens that attack each other are a 404.
func TestTraceLocalSearchFrom(t *testing.T) {
	h := New(Options{})
	ctx := context.Background()
	ran := 0
	for _, n := range []int{8, 30, 200} {
		for seed := range uint64(3) {
			fix, err := nqueens.GenerateInstance(ctx, n, n/4, nqueens.FromSolution, seed+7)
			if err != nil {
				t.Fatal(err)
			}
			want, err := lab.LocalSearchRunFrom(ctx, fix, seed, nil)
			if errors.Is(err, lab.ErrNoCompletionFound) {
				continue
			}
			q := fmt.Sprintf("/api/trace?search=localsearch&n=%d&seed=%d&fix=%s", n, seed, url.QueryEscape(fix.String()))
			tr := decode[localSearchTrace](t, get(t, h, q))
			ran++
			// The board of a run: the fixed queens, the free columns in order on the free rows.
			start := make(nqueens.Placement, n)
			used := map[int32]bool{}
			for _, c := range fix {
				used[c] = c >= 0
			}
			next := int32(0)
			for r, c := range fix {
				if c >= 0 {
					start[r] = c
					continue
				}
				for used[next] {
					next++
				}
				start[r], next = next, next+1
			}
			board := slices.Clone(start)
			for i, e := range tr.Events {
				kind := tr.Kinds[e[0]]
				swap := kind == "shuffle" || (kind == "try" || kind == "swap") && e[3] == 1
				switch {
				case kind == "run":
					copy(board, start)
				case swap:
					a, b := e[1]-1, e[2]-1
					if fix[a] >= 0 || fix[b] >= 0 {
						t.Fatalf("%s: event %d %v moves a fixed row", q, i, e)
					}
					board[a], board[b] = board[b], board[a]
				}
			}
			if err := nqueens.Verify(board); err != nil || !tr.Verified || !slices.Equal(board, want.Placement) || len(tr.Fix) == 0 {
				t.Errorf("%s: the events end on %v (%v), the lab's run on %v", q, board, err, want.Placement)
			}
			if tr.Attempts != want.Attempts || tr.Swaps != want.Swaps || tr.Restarts != want.Restarts || tr.Conflicts != want.Conflicts {
				t.Errorf("%s: the answer counts %d attempts, %d swaps, %d restarts, k %d; the lab %+v", q, tr.Attempts, tr.Swaps, tr.Restarts, tr.Conflicts, want)
			}
		}
	}
	if ran < 9 {
		t.Errorf("only %d of 9 custom starts found a completion", ran)
	}
	wantError(t, get(t, h, "/api/trace?search=localsearch&n=8&fix=1:1,2:2"), 404, "the fixed queens attack each other")
	wantError(t, get(t, h, "/api/trace?search=lasvegas&n=8&m=2&fix=1:1"), 400, "unknown parameter fix")
}
