package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/labplot"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// Sosic–Gu's local search, docs/algorithms.md §3.6.

// Check is the collision check of the initial search.
type Check int

const (
	// CheckScan scans the placed queens, O(j) (the original program): quadratic in all.
	CheckScan Check = iota
	// CheckPlaced tests two bits of the placed queens' diagonals, O(1) (the solver).
	CheckPlaced
	// CheckAllQueens tests counters of all the queens, placed or not, O(1): the tempting
	// mistake that places no queen at all.
	CheckAllQueens
)

// String returns "scan", "placed" or "allqueens".
func (c Check) String() string { return localsearch.Check(c).String() }

// MarshalText writes the check by name, as in JSON.
func (c Check) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// ParseCheck reads "scan", "placed" or "allqueens".
func ParseCheck(s string) (Check, error) {
	for _, c := range []Check{CheckScan, CheckPlaced, CheckAllQueens} {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown check %q (want scan, placed or allqueens)", s)
}

// InitialSearchResult is the outcome of InitialSearch.
type InitialSearchResult struct {
	N     int   `json:"n"`
	Check Check `json:"check"`
	// Attempts is the attempts made, Placed the queens placed without conflict (n − k).
	Attempts int64 `json:"attempts"`
	Placed   int   `json:"placed"`
	// Checks counts the check's elementary tests: one per attempt for the O(1) checks;
	// for the O(j) scan, the placed queens it compares, up to the first conflict.
	Checks int64 `json:"checks"`
	// Seconds is the time of the search loop.
	Seconds float64 `json:"seconds"`
}

// InitialSearch runs the initial search of the local search (step 1 of §3.6) on the n×n
// board with the given check, for at most maxAttempts attempts (0: the solver's budget,
// 3.08·n). CheckScan and CheckPlaced draw the same candidates for a seed and follow the
// same path: only their time differs.
func InitialSearch(ctx context.Context, n int, seed uint64, check Check, maxAttempts int64) (InitialSearchResult, error) {
	r, err := localsearch.LabInitialSearch(ctx, n, seed, localsearch.Check(check), maxAttempts)
	return InitialSearchResult{N: r.N, Check: Check(r.Check), Attempts: r.Attempts, Placed: r.Placed, Checks: r.Checks,
		Seconds: r.Elapsed.Seconds()}, err
}

// LocalSearchOptions configures LocalSearch.
type LocalSearchOptions struct {
	// From and To bound the sizes, PerDecade of them per decade (1: powers of ten; 3: 1, 2,
	// 5 × 10^k; 0 means 1), From and To included.
	From, To, PerDecade int
	// ScanMax is the largest n whose initial search is also timed with the O(j) scan,
	// which is quadratic.
	ScanMax int
	// Seed seeds every run.
	Seed uint64
	// Progress, if set, is called before each size: Phase "n=N", Done the sizes done,
	// Total their number.
	Progress func(nqueens.Progress)
}

// LocalSearchTable is the outcome of LocalSearch, as "nqueens lab localsearch --json"
// prints it.
type LocalSearchTable struct {
	Seed    uint64           `json:"seed"`
	ScanMax int              `json:"scan_max"`
	Rows    []LocalSearchRow `json:"rows"`
	// Complete is false when the run was interrupted: Rows holds the sizes done.
	Complete bool `json:"complete"`
}

// LocalSearchRow is one size: the whole local search (its time and counters), and its
// initial search alone with each check.
type LocalSearchRow struct {
	N          int     `json:"n"`
	Seconds    float64 `json:"seconds"`
	NsPerQueen float64 `json:"ns_per_queen"`
	// Conflicts is k, the queens left in conflict by the initial search (of the last
	// run); Attempts the initial search's attempts, Swaps the final search's swaps tried
	// and FailedSwaps those undone, Restarts the runs started again, all runs summed.
	Conflicts   int64 `json:"conflicts"`
	Attempts    int64 `json:"attempts"`
	Swaps       int64 `json:"swaps"`
	FailedSwaps int64 `json:"failed_swaps"`
	Restarts    int64 `json:"restarts"`
	// InitialPlacedSeconds times the initial search of the first run (step 1 only, even
	// when the search restarted) with the O(1) check, and InitialPlacedChecks counts its
	// tests, one per attempt; for n up to
	// ScanMax, InitialScanSeconds and InitialScanChecks are the same with the O(j) scan,
	// which makes the same attempts, and ScanOverPlaced is the ratio of the times (nil,
	// and absent from the JSON, beyond ScanMax). The checks grow as n with the O(1)
	// check and as n² with the scan.
	InitialPlacedSeconds float64  `json:"initial_placed_seconds"`
	InitialPlacedChecks  int64    `json:"initial_placed_checks"`
	InitialScanSeconds   *float64 `json:"initial_scan_seconds,omitempty"`
	InitialScanChecks    *int64   `json:"initial_scan_checks,omitempty"`
	ScanOverPlaced       *float64 `json:"scan_over_placed,omitempty"`
}

// LocalSearch solves each size from opt.From to opt.To with the local search of
// nqueens.Solve (each placement verified), and times its initial search alone with the
// O(1) check and, up to opt.ScanMax, with the O(j) scan. On an error (cancellation among
// them) it returns the sizes done (Complete false) and the error.
func LocalSearch(ctx context.Context, opt LocalSearchOptions) (LocalSearchTable, error) {
	t := LocalSearchTable{Seed: opt.Seed, ScanMax: opt.ScanMax, Rows: []LocalSearchRow{}}
	per := max(opt.PerDecade, 1)
	switch {
	case opt.From < 4 || opt.To < opt.From:
		return t, fmt.Errorf("lab: want 4 ≤ From ≤ To, got %d and %d", opt.From, opt.To)
	case per > 10:
		return t, errors.New("lab: PerDecade must be 1..10")
	case opt.To > localsearch.MaxN:
		return t, fmt.Errorf("lab: To = %d is beyond the local search's %d", opt.To, localsearch.MaxN)
	}
	ns := sizesBetween(opt.From, opt.To, per)
	for i, n := range ns {
		report(opt.Progress, "n="+group(int64(n)), uint64(i), uint64(len(ns)))
		r, err := measureLocal(ctx, n, opt)
		if err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, r)
	}
	t.Complete = true
	return t, nil
}

// measureLocal measures one size.
func measureLocal(ctx context.Context, n int, opt LocalSearchOptions) (LocalSearchRow, error) {
	start := time.Now()
	q, st, err := localsearch.Solve(ctx, n, localsearch.Options{Seed: opt.Seed})
	el := time.Since(start).Seconds()
	if err != nil {
		return LocalSearchRow{}, err
	}
	if err := nqueens.Verify(q); err != nil {
		return LocalSearchRow{}, fmt.Errorf("internal error: local search at n = %d: %w", n, err)
	}
	r := LocalSearchRow{N: n, Seconds: el, NsPerQueen: 1e9 * el / float64(n), Conflicts: st.K, Attempts: st.Attempts,
		Swaps: st.FinalSwaps, FailedSwaps: st.FinalFailed, Restarts: st.Restarts}
	fast, err := InitialSearch(ctx, n, opt.Seed, CheckPlaced, 0)
	if err != nil {
		return r, err
	}
	r.InitialPlacedSeconds, r.InitialPlacedChecks = fast.Seconds, fast.Checks
	if n <= opt.ScanMax {
		scan, err := InitialSearch(ctx, n, opt.Seed, CheckScan, 0)
		if err != nil {
			return r, err
		}
		ratio := scan.Seconds / max(fast.Seconds, 1e-9)
		r.InitialScanSeconds, r.InitialScanChecks, r.ScanOverPlaced = &scan.Seconds, &scan.Checks, &ratio
	}
	return r, nil
}

// sizesBetween returns the sizes from lo to hi, perDecade per decade (logarithmically
// spaced, rounded to 1, 2, 5 style values for 3), lo and hi included.
func sizesBetween(lo, hi, perDecade int) []int {
	var out []int
	add := func(n int) {
		if n >= lo && n <= hi && (len(out) == 0 || out[len(out)-1] < n) {
			out = append(out, n)
		}
	}
	add(lo)
	for d := math.Floor(math.Log10(float64(lo))); math.Pow(10, d) <= float64(hi); d++ {
		for i := range perDecade {
			v := math.Pow(10, d+float64(i)/float64(perDecade))
			if perDecade == 3 {
				v = math.Pow(10, d) * []float64{1, 2, 5}[i]
			}
			add(int(math.Round(v)))
		}
	}
	add(hi)
	return out
}

// Table lays the table out for printing: a line "seed=S", then one row per size; the
// O(j) columns are "-" beyond ScanMax.
func (t LocalSearchTable) Table() Table {
	out := Table{Head: []string{fmt.Sprintf("seed=%d", t.Seed)}, Columns: []Column{
		{Key: "n", Head: "n"}, {Key: "seconds", Head: "seconds"}, {Key: "ns_per_queen", Head: "ns/queen"}, {Key: "conflicts", Head: "conflicts"},
		{Key: "attempts"}, {Key: "swaps", Head: "swaps"}, {Key: "failed_swaps"}, {Key: "restarts", Head: "restarts"},
		{Key: "initial_placed_seconds", Head: "init O(1) s"}, {Key: "initial_placed_checks", Head: "O(1) checks"},
		{Key: "initial_scan_seconds", Head: "init O(j) s"}, {Key: "initial_scan_checks", Head: "O(j) checks"},
		{Key: "scan_over_placed", Head: "O(j)/O(1)"},
	}}
	opt := func(v *float64, dec int) Entry {
		if v == nil {
			return naCell()
		}
		return floatCell(*v, dec)
	}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, []Entry{intCell(int64(r.N)), floatCell(r.Seconds, 4), floatCell(r.NsPerQueen, 1), intCell(r.Conflicts),
			intCell(r.Attempts), intCell(r.Swaps), intCell(r.FailedSwaps), intCell(r.Restarts), floatCell(r.InitialPlacedSeconds, 4),
			intCell(r.InitialPlacedChecks), opt(r.InitialScanSeconds, 4), optInt(r.InitialScanChecks), opt(r.ScanOverPlaced, 0)})
	}
	return out
}

// Plot draws time and the conflicts (k) against n on log-log axes (with the O(j) initial search's time
// where it was measured), to a PNG or SVG file by path's extension.
func (t LocalSearchTable) Plot(path string) error {
	var n, secs, k, nScan, scan []float64
	for _, r := range t.Rows {
		n = append(n, float64(r.N))
		secs = append(secs, r.Seconds)
		k = append(k, float64(r.Conflicts))
		if r.InitialScanSeconds != nil {
			nScan = append(nScan, float64(r.N))
			scan = append(scan, *r.InitialScanSeconds)
		}
	}
	timePanel := labplot.Panel{Title: "Sosic–Gu local search: time against n", XLabel: "n", YLabel: "seconds",
		Series: []labplot.Series{{Label: "solve", X: n, Y: secs}}, Reference: "linear, c·n"}
	if len(scan) > 0 {
		timePanel.Series = append(timePanel.Series, labplot.Series{Label: "initial search, O(j) scan", X: nScan, Y: scan})
	}
	return labplot.LogLog{Panels: []labplot.Panel{
		timePanel,
		{Title: "queens left in conflict after the initial search (k)", XLabel: "n", YLabel: "conflicts",
			Series: []labplot.Series{{Label: "conflicts", X: n, Y: k}}},
	}, Size: labplot.Size{Height: 800}}.Save(path)
}
