package lab_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// TestBacktrack reproduces the n = 10 counters of the four searches (docs/algorithms.md
// §3.1–3.4), with their ratios to the row DFS.
func TestBacktrack(t *testing.T) {
	want := map[string][2]int64{"classic": {35539, 348150}, "row": {35539, 348150},
		"cell": {7535369, 70450278}, "cellprune": {185489, 1256703}}
	var steps []string
	tab, err := lab.Backtrack(context.Background(), 10, lab.BacktrackOptions{Progress: func(p nqueens.Progress) {
		steps = append(steps, fmt.Sprintf("%s %d/%d", p.Phase, p.Done, p.Total))
	}})
	if err != nil || len(tab.Rows) != 4 || !tab.Complete || tab.N != 10 {
		t.Fatalf("%+v, %v", tab, err)
	}
	if strings.Join(steps, ",") != "classic 0/4,row 1/4,cell 2/4,cellprune 3/4" {
		t.Errorf("progress steps %v", steps)
	}
	for _, r := range tab.Rows {
		w := want[r.Search]
		s, _ := lab.LookupSearch(r.Search)
		if r.Section != s.Section || r.Total != 724 || r.Nodes != w[0] || r.Checks != w[1] || r.Seconds <= 0 {
			t.Errorf("%s: %+v; want %d nodes, %d checks", r.Search, r, w[0], w[1])
		}
		if r.NodesVsRow != float64(w[0])/35539 || r.ChecksVsRow != float64(w[1])/348150 {
			t.Errorf("%s: ratios %v %v", r.Search, r.NodesVsRow, r.ChecksVsRow)
		}
	}
	// Without the row DFS in the table it is run for the ratios all the same.
	tab, err = lab.Backtrack(context.Background(), 8, lab.BacktrackOptions{Searches: []string{"cellprune"}})
	if err != nil || len(tab.Rows) != 1 || tab.Rows[0].NodesVsRow != 9269.0/2057 {
		t.Errorf("cellprune alone: %+v, %v", tab, err)
	}
	if _, err := lab.Backtrack(context.Background(), 8, lab.BacktrackOptions{Searches: []string{"magic"}}); err == nil {
		t.Error("an unknown search is accepted")
	}
	// Interrupted: the searches done, no ratios, not complete.
	ctx, cancel := context.WithCancel(context.Background())
	tab, err = lab.Backtrack(ctx, 12, lab.BacktrackOptions{Searches: []string{"row", "cell"}, Progress: func(p nqueens.Progress) {
		if p.Phase == "cell" {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || tab.Complete || len(tab.Rows) != 1 || tab.Rows[0].NodesVsRow != 0 {
		t.Errorf("interrupted: %+v, %v", tab, err)
	}
	if txt := text(t, tab.Table()); !strings.HasPrefix(strings.Join(strings.Fields(txt), " "), "n=12 search total") ||
		!strings.HasSuffix(strings.Join(strings.Fields(txt), " "), "- - -") || !strings.Contains(strings.Join(strings.Fields(txt), " "), "row 14,200 ") {
		t.Errorf("the interrupted table has ratios or lacks its row:\n%s", txt)
	}
}

func text(t *testing.T, tab lab.Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := tab.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func csvOf(t *testing.T, tab lab.Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestExactTable: Brassard & Bratley's table for n = 8, row variant (§3.5), its optimum
// m = 2, and the optimum of each objective for n = 4 (explored: m = 2, t = 8.5; checks:
// m = 0).
func TestExactTable(t *testing.T) {
	ctx := context.Background()
	tab, err := lab.LasVegas(ctx, 8, lab.LasVegasOptions{Variant: lab.Row, Exact: true})
	if err != nil || len(tab.Rows) != 9 || tab.Optimum != 2 || tab.Sampling != (lab.Sampling{}) || !tab.Complete {
		t.Fatalf("%+v, %v", tab, err)
	}
	wantT := []float64{114, 39.625, 28.20, 29.01, 35.10, 46.92, 53.50, 55.93, 55.93}
	for m, r := range tab.Rows {
		if r.M != m || r.Expected == (lab.Expected{}) || r.Sampled != (lab.Sampled{}) || math.Abs(float64(r.Explored)-wantT[m]) > 0.006 ||
			math.Abs(float64(r.Explored)-(r.S+(1-r.P)*r.E/r.P)) > 1e-9 || math.Abs(float64(r.Starts)-1/r.P) > 1e-12 {
			t.Errorf("m=%d: %+v %+v", m, r, r.Expected)
		}
	}
	for _, c := range []struct {
		o lab.Objective
		m int
	}{{lab.ByExplored, 2}, {lab.ByChecks, 0}} {
		tab, err := lab.LasVegas(ctx, 4, lab.LasVegasOptions{Variant: lab.Row, Exact: true, Objective: c.o})
		if err != nil || tab.Optimum < 0 || tab.Rows[tab.Optimum].M != c.m || tab.Objective != c.o {
			t.Errorf("n=4 by %v: optimum %d (%+v), want m = %d", c.o, tab.Optimum, tab.Rows, c.m)
		}
	}
	if _, err := lab.LasVegas(ctx, 8, lab.LasVegasOptions{Exact: true, Objective: lab.ByTime}); err == nil {
		t.Error("an exact table by time")
	}
	if _, err := lab.LasVegas(ctx, 20, lab.LasVegasOptions{Variant: lab.Row, Exact: true}); !errors.Is(err, lab.ErrTooLarge) {
		t.Errorf("n = 20 exact: %v", err)
	}
	// A cell variant with a single draw per attempt never places two queens: p = 0, an
	// infinite cost, null in the JSON, never the optimum.
	tab, err = lab.LasVegas(ctx, 5, lab.LasVegasOptions{Variant: lab.Cell, Exact: true, MaxDraws: 1, Ms: []int{0, 2}})
	if err != nil || tab.Rows[1].P != 0 || !math.IsInf(float64(tab.Rows[1].Explored), 1) || tab.Optimum != 0 {
		t.Fatalf("p = 0: %+v, %v", tab, err)
	}
	b, err := json.Marshal(tab)
	if err != nil || !strings.Contains(string(b), `"starts":null,"explored":null,"checks":null`) {
		t.Errorf("p = 0 in JSON: %s, %v", b, err)
	}
}

// TestSampledTable: a sampled table keeps its settings, its optimum follows the objective
// and lies within noise of the exact optimum, and its JSON reads back as it was written.
func TestSampledTable(t *testing.T) {
	ctx := context.Background()
	for _, v := range []lab.Variant{lab.Row, lab.Cell} {
		exact, err := lab.LasVegas(ctx, 8, lab.LasVegasOptions{Variant: v, Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := lab.LasVegas(ctx, 8, lab.LasVegasOptions{Variant: v, Trials: 2000, Seed: 42})
		if err != nil || tab.Exact || tab.Trials != 2000 || tab.Seed != 42 || tab.MaxChecks != lab.DefaultMaxChecks || len(tab.Rows) != 9 {
			t.Fatalf("%v: %+v, %v", v, tab, err)
		}
		o, best := tab.Rows[tab.Optimum], exact.Rows[exact.Optimum]
		if float64(exact.Rows[o.M].Explored) > float64(best.Explored)+3*o.ExploredSE+3*tab.Rows[best.M].ExploredSE {
			t.Errorf("%v: sampled optimum m=%d (exact t %.2f), exact optimum m=%d (t %.2f)", v, o.M, exact.Rows[o.M].Explored, best.M, best.Explored)
		}
		byChecks, _ := lab.LasVegas(ctx, 8, lab.LasVegasOptions{Variant: v, Trials: 2000, Seed: 42, Objective: lab.ByChecks})
		for _, r := range byChecks.Rows {
			if r.Checks < byChecks.Rows[byChecks.Optimum].Checks {
				t.Errorf("%v: m=%d has fewer checks than the optimum m=%d", v, r.M, byChecks.Optimum)
			}
		}
		b, err := json.Marshal(tab)
		if err != nil {
			t.Fatal(err)
		}
		var back lab.LasVegasTable
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tab) {
			t.Errorf("%v: the JSON does not read back: %v\n%s", v, err, b)
		}
	}
	// A censored row is a lower bound, never the optimum.
	tab, err := lab.LasVegas(ctx, 28, lab.LasVegasOptions{Variant: lab.Row, Ms: []int{0, 20}, Trials: 20, MaxChecks: 1_000_000})
	if err != nil || !tab.Rows[0].LowerBound || tab.Rows[0].Censored == 0 || tab.Rows[1].LowerBound || tab.Optimum != 1 {
		t.Errorf("censored: %+v, %v", tab, err)
	}
	if txt := text(t, tab.Table()); !strings.Contains(txt, "censored 3 abandoned") || !strings.Contains(txt, "optimum: m=20 (explored ") {
		t.Errorf("text:\n%s", txt)
	}
}

// TestTable: text for people (groups, "-", halves up, scales) and CSV for machines (the
// JSON's keys, numbers in full, empty where a row has no such quantity).
func TestTable(t *testing.T) {
	tab := lab.Table{Head: []string{"head"}, Foot: []string{"foot"},
		Columns: []lab.Column{{Key: "a", Head: "A"}, {Key: "b", Head: "B ms", Scale: 1e3}, {Key: "c"}, {Head: " "}},
		Rows: [][]lab.Entry{
			{{Value: int64(1234567)}, {Value: 0.0123456, Decimals: 2}, {Value: 39.625, Decimals: 2}, {Value: "*"}},
			{{}, {Value: math.Inf(1), Decimals: 1}, {Value: true}, {Value: ""}},
		}}
	if got, want := text(t, tab), "head\n          A   B ms\n  1,234,567  12.35  *\n          -      ∞\nfoot\n"; got != want {
		t.Errorf("text:\n%q\nwant\n%q", got, want)
	}
	if got, want := csvOf(t, tab), "a,b,c\n1234567,0.0123456,39.625\n,,true\n"; got != want {
		t.Errorf("csv %q, want %q", got, want)
	}
}

// TestInitialSearch: the check on all queens places no queen; the two right checks place
// nearly all, along the same path.
func TestInitialSearch(t *testing.T) {
	ctx := context.Background()
	var attempts []int64
	for _, c := range []struct {
		check  lab.Check
		placed bool
	}{{lab.CheckPlaced, true}, {lab.CheckScan, true}, {lab.CheckAllQueens, false}} {
		r, err := lab.InitialSearch(ctx, 1000, 1, c.check, 0)
		if err != nil || (r.Placed > 900) != c.placed || r.Check != c.check {
			t.Errorf("%v: placed %d of 1000, %v", c.check, r.Placed, err)
		}
		attempts = append(attempts, r.Attempts)
	}
	if attempts[0] != attempts[1] {
		t.Errorf("the O(1) and O(j) checks made %d and %d attempts", attempts[0], attempts[1])
	}
}

func TestLocalSearch(t *testing.T) {
	tab, err := lab.LocalSearch(context.Background(), lab.LocalSearchOptions{From: 100, To: 1000, PerDecade: 3, ScanMax: 200, Seed: 2})
	if err != nil || !tab.Complete || len(tab.Rows) != 4 {
		t.Fatalf("%+v, %v", tab, err)
	}
	for i, r := range tab.Rows {
		if r.N != []int{100, 200, 500, 1000}[i] || (r.InitialScanSeconds != nil) != (r.N <= 200) || r.Attempts <= 0 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if _, err := lab.LocalSearch(context.Background(), lab.LocalSearchOptions{From: 10, To: 5}); err == nil {
		t.Error("From > To is accepted")
	}
}

// TestProgress: the experiments report through nqueens.Progress: Done never decreases,
// and a sampled table's last report is its last run (Done = Total).
func TestProgress(t *testing.T) {
	var got []nqueens.Progress
	_, err := lab.LasVegas(context.Background(), 8, lab.LasVegasOptions{Ms: []int{2, 4, 6}, Trials: 5, Seed: 1,
		Progress: func(p nqueens.Progress) { got = append(got, p) }})
	if err != nil || len(got) != 15 {
		t.Fatalf("%d reports, %v", len(got), err)
	}
	for i, p := range got {
		if p.Total != 15 || p.Done != uint64(i+1) || p.Phase != fmt.Sprintf("m=%d", 2+2*(i/5)) {
			t.Errorf("report %d: %+v", i, p)
		}
	}
	got = nil
	_, err = lab.LocalSearch(context.Background(), lab.LocalSearchOptions{From: 100, To: 1000, Seed: 1,
		Progress: func(p nqueens.Progress) { got = append(got, p) }})
	if err != nil || len(got) != 2 || got[0] != (nqueens.Progress{Phase: "n=100", Done: 0, Total: 2}) || got[1].Phase != "n=1,000" {
		t.Errorf("local search: %+v, %v", got, err)
	}
}

// TestLasVegasFieldsNeverPanic: every field of a table reads without a panic whatever
// its kind, the other kind's reading 0 (t.Rows[0].PSE on an exact table was a nil
// pointer), and the JSON of each kind has its own keys only, as before.
func TestLasVegasFieldsNeverPanic(t *testing.T) {
	ctx := context.Background()
	exact, err := lab.LasVegas(ctx, 6, lab.LasVegasOptions{Variant: lab.Row, Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	sampled, err := lab.LasVegas(ctx, 6, lab.LasVegasOptions{Variant: lab.Row, Trials: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := exact.Rows[0]; r.PSE != 0 || r.Runs != 0 || r.Nodes != 0 || exact.Trials != 0 || exact.Seed != 0 {
		t.Errorf("an exact table's sampled fields: %+v %+v", exact.Sampling, r.Sampled)
	}
	if r := sampled.Rows[0]; r.S != 0 || r.E != 0 || r.Runs != 5 {
		t.Errorf("a sampled table's exact fields: %+v", r.Expected)
	}
	for _, c := range []struct {
		tab       lab.LasVegasTable
		has, hasn []string
	}{
		{exact, []string{`"s":`, `"checks_e":`}, []string{`"p_se"`, `"runs"`, `"trials"`, `"seed"`, `"max_checks"`, `"max_draws"`}},
		{sampled, []string{`"p_se":`, `"runs":5`, `"trials":5`, `"seed":1`, `"max_checks":`}, []string{`"s":`, `"checks_e"`, `"max_draws"`}},
	} {
		b, err := json.Marshal(c.tab)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range c.has {
			if !strings.Contains(string(b), k) {
				t.Errorf("exact=%v: no %s in %s", c.tab.Exact, k, b)
			}
		}
		for _, k := range c.hasn {
			if strings.Contains(string(b), k) {
				t.Errorf("exact=%v: %s in %s", c.tab.Exact, k, b)
			}
		}
		var back lab.LasVegasTable
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c.tab) {
			t.Errorf("exact=%v: the JSON reads back as %+v (%v), not %+v", c.tab.Exact, back, err, c.tab)
		}
	}
	cell, err := lab.LasVegas(ctx, 6, lab.LasVegasOptions{Variant: lab.Cell, Exact: true, Ms: []int{1}})
	if b, _ := json.Marshal(cell); err != nil || !strings.Contains(string(b), `"max_draws":36`) {
		t.Errorf("the cell variant's max_draws: %s, %v", b, err)
	}
}

// TestNoSolution: every run and table of lab that looks for a solution refuses n = 2 and
// 3 at once, with an error wrapping nqueens.ErrNoSolution that names n, as the command and
// the web board print it; the teaching searches, which count, find 0.
func TestNoSolution(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{2, 3} {
		want := fmt.Sprintf("n = %d: no solution exists", n)
		_, lvErr := lab.LasVegasRun(ctx, n, lab.LasVegasRunOptions{M: 1}, nil)
		_, lsErr := lab.LocalSearchRun(ctx, n, 1, nil)
		_, cErr := lab.ConstructRun(ctx, n, nil)
		_, sampledErr := lab.LasVegas(ctx, n, lab.LasVegasOptions{Trials: 1})
		_, exactErr := lab.LasVegas(ctx, n, lab.LasVegasOptions{Exact: true, Variant: lab.Row})
		_, estErr := lab.EstimateLasVegas(ctx, n, lab.LasVegasOptions{})
		for what, err := range map[string]error{"LasVegasRun": lvErr, "LocalSearchRun": lsErr, "ConstructRun": cErr,
			"LasVegas": sampledErr, "LasVegas exact": exactErr, "EstimateLasVegas": estErr} {
			if !errors.Is(err, nqueens.ErrNoSolution) || err.Error() != want {
				t.Errorf("%s n=%d: %v; want %q", what, n, err, want)
			}
		}
		for _, s := range lab.Searches() {
			if r, err := s.Run(ctx, n, nil); err != nil || r.Total != 0 {
				t.Errorf("%s n=%d: %+v, %v", s.Name, n, r, err)
			}
		}
	}
}
