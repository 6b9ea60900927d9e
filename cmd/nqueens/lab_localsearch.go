package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

type localSearchRow struct {
	N            int     `json:"n"`
	Seconds      float64 `json:"seconds"`
	NsPerQueen   float64 `json:"ns_per_queen"`
	K            int64   `json:"k"`
	Attempts     int64   `json:"attempts"`
	FinalSwaps   int64   `json:"final_swaps"`
	FinalFailed  int64   `json:"final_failed"`
	Restarts     int64   `json:"restarts"`
	InitPlaced   float64 `json:"initial_placed_seconds"`         // O(1) check on the placed queens
	InitScan     float64 `json:"initial_scan_seconds,omitempty"` // O(j) partial_collision
	ScanOverFast float64 `json:"scan_over_placed,omitempty"`
}

// labLocalSearchCmd is "nqueens lab localsearch": the flags, then parse, run (one
// local search per n) and render.
type labLocalSearchCmd struct {
	e                 *env
	from, to, scanMax string
	perDecade         int
	seed              uint64
	seedGiven         bool
	of                outputFlags
}

// labLocalSearchJob is a parsed command line of lab localsearch.
type labLocalSearchJob struct {
	ns      []int // the sizes, in increasing order
	scanMax int   // the largest n whose initial search is also timed with the O(j) scan
}

func newLabLocalSearchCmd(e *env) *cobra.Command {
	c := &labLocalSearchCmd{e: e}
	cmd := &cobra.Command{
		Use:   "localsearch",
		Short: "Sosic–Gu over a range of n: time, k, swaps, restarts (docs/algorithms.md §3.6)",
		Long: `Run Sosic–Gu's local search for n from --from to --to (a few values per
decade) and print per n: time, time per queen, k (queens left in conflict by
the initial search), final-search swaps and restarts. It also times the
initial search alone with the O(1) check on the placed queens against the
seed's O(j) partial_collision scan (up to n = --scan-max, as the scan is
quadratic), to show why the O(1) check matters. Time and k against n on
log-log axes with --plot.`,
		Example: "  nqueens lab localsearch --from 1e3 --to 1e7\n  nqueens lab localsearch --to 1e6 --plot ls.png",
		Args:    exactArgs(0, "no arguments (use --from and --to)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			c.seedGiven = cmd.Flags().Changed("seed")
			job, err := c.parse()
			if err != nil {
				return err
			}
			return c.run(job)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.from, "from", "1e3", "smallest n")
	f.StringVar(&c.to, "to", "1e6", "largest n")
	f.IntVar(&c.perDecade, "per-decade", 1, "values of n per decade (1: 10^k; 3: 1, 2, 5 × 10^k)")
	f.StringVar(&c.scanMax, "scan-max", "3e4", "largest n for the O(j) scan")
	f.Uint64Var(&c.seed, "seed", 0, "seed (default: random, printed)")
	c.of.register(cmd)
	return cmd
}

// parse checks the flags; every usage error comes from here, before any search.
func (c *labLocalSearchCmd) parse() (labLocalSearchJob, error) {
	var j labLocalSearchJob
	lo, err := flagSize("from", c.from)
	if err != nil {
		return j, err
	}
	hi, err := flagSize("to", c.to)
	if err != nil {
		return j, err
	}
	if j.scanMax, err = flagSize("scan-max", c.scanMax); err != nil {
		return j, err
	}
	if lo < 4 || hi < lo {
		return j, usagef("want 4 ≤ --from ≤ --to, got %d and %d", lo, hi)
	}
	if c.perDecade < 1 || c.perDecade > 10 {
		return j, usagef("--per-decade must be 1..10")
	}
	if err := (nqueens.LocalSearch).CheckSize(hi); err != nil {
		return j, usageError{err}
	}
	if err := c.of.check(); err != nil {
		return j, err
	}
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed with the table, so the runs can be repeated
	}
	j.ns = sizesBetween(lo, hi, c.perDecade)
	return j, nil
}

// run measures each size, prints the table and draws the figure. It stops at the first
// error (Ctrl-C among them), prints the rows finished before it and returns the error.
func (c *labLocalSearchCmd) run(j labLocalSearchJob) error {
	line := newLazyLine(c.e.stderr, isTerminal(c.e.stderr))
	var rows []localSearchRow
	var runErr error
	for i, n := range j.ns {
		line.update(fmt.Sprintf("n=%d", n), float64(i)/float64(len(j.ns)))
		r, err := c.measure(n, j.scanMax)
		if err != nil {
			runErr = err
			break
		}
		rows = append(rows, r)
	}
	line.finish()
	if err := c.render(rows, runErr == nil); err != nil {
		return err
	}
	if c.of.plot != "" && len(rows) > 0 {
		if err := plotLocalSearch(c.of.plot, rows); err != nil {
			return err
		}
	}
	return runErr
}

// render prints the table: a line "seed=S" and aligned columns, or CSV, or one JSON
// object whose "complete" is false when the sizes were not all measured. The O(j) columns
// are "-" beyond --scan-max.
func (c *labLocalSearchCmd) render(rows []localSearchRow, complete bool) error {
	t := table{header: []string{"n", "seconds", "ns/queen", "k", "final swaps", "restarts", "init O(1) s", "init O(j) s", "O(j)/O(1)"},
		json: map[string]any{"seed": c.seed, "rows": rows, "complete": complete}}
	for _, r := range rows {
		scan, ratio := "-", "-"
		if r.InitScan > 0 {
			scan, ratio = fmt.Sprintf("%.4f", r.InitScan), fmt.Sprintf("%.0f", r.ScanOverFast)
		}
		t.rows = append(t.rows, []string{group(int64(r.N)), fmt.Sprintf("%.4f", r.Seconds), fmt.Sprintf("%.1f", r.NsPerQueen),
			fmt.Sprint(r.K), group(r.FinalSwaps), fmt.Sprint(r.Restarts), fmt.Sprintf("%.4f", r.InitPlaced), scan, ratio})
	}
	if !c.of.json && !c.of.csv {
		if _, err := fmt.Fprintf(c.e.stdout, "seed=%d\n", c.seed); err != nil {
			return err
		}
	}
	return c.of.print(c.e.stdout, t)
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

// measure solves the n×n board with the local search, verifies the placement, and times
// the initial search alone with the O(1) check and, up to n = scanMax, with the O(j)
// scan.
func (c *labLocalSearchCmd) measure(n, scanMax int) (localSearchRow, error) {
	e, seed := c.e, c.seed
	start := time.Now()
	q, st, err := lab.LocalSearch(e.ctx, n, seed)
	el := time.Since(start).Seconds()
	if err != nil {
		return localSearchRow{}, err
	}
	if err := nqueens.Verify(q); err != nil {
		return localSearchRow{}, fmt.Errorf("internal error: local search at n = %d: %w", n, err)
	}
	r := localSearchRow{N: n, Seconds: el, NsPerQueen: 1e9 * el / float64(n), K: st.K, Attempts: st.Attempts,
		FinalSwaps: st.FinalSwaps, FinalFailed: st.FinalFailed, Restarts: st.Restarts}
	fast, err := lab.InitialSearch(e.ctx, n, seed, lab.CheckPlaced, 0)
	if err != nil {
		return r, err
	}
	r.InitPlaced = fast.Elapsed.Seconds()
	if n <= scanMax {
		scan, err := lab.InitialSearch(e.ctx, n, seed, lab.CheckScan, 0)
		if err != nil {
			return r, err
		}
		r.InitScan = scan.Elapsed.Seconds()
		r.ScanOverFast = r.InitScan / max(r.InitPlaced, 1e-9)
	}
	return r, nil
}

// flagSize parses the board size given to --flag, naming the flag when it is wrong.
func flagSize(flag, value string) (int, error) {
	n, err := parseSize(value)
	if err != nil {
		return 0, usagef("--%s: %v", flag, err)
	}
	return n, nil
}
