package main

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/lab"
)

// The lab: the classic experiments of the seed documents, reproduced exactly (docs/algorithms.md §3).
// One file per experiment: lab_backtrack.go, lab_lasvegas.go, lab_localsearch.go.

func newLabCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab",
		Short: "Reproduce the classic experiments: tables and plots",
		Long: `The lab runs instrumented versions of the classic algorithms and prints their
exact counters (docs/algorithms.md §3): the four teaching backtracking searches, the Las
Vegas hybrid's sweep over the number of random queens, and Sosic–Gu's local
search over a range of n. Every experiment takes --json or --csv for
machines and --plot FILE.png|FILE.svg for a figure.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown lab experiment %q: want backtrack, lasvegas or localsearch", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newLabBacktrackCmd(e), newLabLasVegasCmd(e), newLabLocalSearchCmd(e))
	return cmd
}

// The cost of an experiment is estimated before it runs (lab.EstimateBacktrack,
// lab.EstimateLasVegas): past labWarnAfter the estimate is printed on stderr, past
// labRefuseAfter (its optimistic bound) the run is refused (exit 2) unless --force is
// given.
const (
	labWarnAfter   = 10 * time.Second
	labRefuseAfter = time.Hour
)

// checkCost warns about, or refuses, an experiment estimated to take est.Seconds; what
// names it ("lab backtrack 14") and why says where the time goes. It refuses only when
// even the optimistic bound, est.MinSeconds, is past the limit: an estimate from short
// runs on a busy machine must not refuse a short experiment.
func checkCost(e *env, what string, est lab.CostEstimate, why string, force bool) error {
	secs, about := est.Seconds, duration(est.Seconds)
	if least := duration(est.MinSeconds); least != about {
		about += ", at least " + least
	}
	switch {
	case est.MinSeconds > labRefuseAfter.Seconds() && !force:
		return usagef("%s would take about %s (%s); give a smaller N or --force", what, about, why)
	case secs > labWarnAfter.Seconds():
		_, err := fmt.Fprintf(e.stderr, "%s: this takes about %s (%s); Ctrl-C prints the rows done so far\n", what, about, why)
		return err
	}
	return nil
}

// duration writes a number of seconds for people: "40 s", "12 min", "3.5 h", "12 days",
// "3.1·10^27 years".
func duration(secs float64) string {
	switch {
	case secs < 90:
		return fmt.Sprintf("%.0f s", secs)
	case secs < 90*60:
		return fmt.Sprintf("%.0f min", secs/60)
	case secs < 48*3600:
		return fmt.Sprintf("%.1f h", secs/3600)
	case secs < 2*365.25*86400:
		return fmt.Sprintf("%.0f days", secs/86400)
	}
	return sci(secs/(365.25*86400)) + " years"
}

// sci writes x in scientific notation past a million: "5.2·10^11"; "35,539" below.
func sci(x float64) string {
	if math.IsInf(x, 1) {
		return "unbounded"
	}
	if x < 1e6 {
		return group(int64(math.Round(x)))
	}
	e := int(math.Floor(math.Log10(x)))
	m := x / math.Pow(10, float64(e))
	if m >= 9.95 {
		m, e = m/10, e+1
	}
	return fmt.Sprintf("%.1f·10^%d", m, e)
}

// outputFlags are the flags every lab command shares.
type outputFlags struct {
	json, csv bool
	plot      string
}

func (o *outputFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&o.csv, "csv", false, "print CSV")
	cmd.Flags().StringVar(&o.plot, "plot", "", "draw a figure to `FILE` (.png or .svg)")
}

func (o *outputFlags) check() error {
	if o.json && o.csv {
		return usagef("--json and --csv exclude each other")
	}
	if o.plot != "" {
		ext := strings.ToLower(o.plot[strings.LastIndexByte(o.plot, '.')+1:])
		if !strings.Contains(o.plot, ".") || (ext != "png" && ext != "svg") {
			return usagef("--plot wants a .png or .svg file, got %q", o.plot)
		}
		// A path that cannot be written fails now, not after the experiment.
		f, err := createOutput(o.plot, false)
		if err != nil {
			return err
		}
		f.Abort()
	}
	return nil
}

// labResult is what every lab experiment returns: its JSON is the result itself, its
// text and CSV the layout of its Table, and Plot draws its figure.
type labResult interface {
	Table() lab.Table
	Plot(path string) error
}

// print writes r as --json, --csv or text asks, on stdout, or on stderr when --plot
// names the file stdout is redirected to (lab … --plot u.png > u.png): the figure is
// the data there, as the placement of solve --out /dev/stdout is.
func (o *outputFlags) print(e *env, r labResult) error {
	w := e.stdout
	if isStdout(e, o.plot) {
		w = e.stderr
	}
	switch {
	case o.json:
		return printJSON(w, r)
	case o.csv:
		return r.Table().WriteCSV(w)
	}
	return r.Table().WriteText(w)
}

// group writes an integer with thousands separators: 7,535,369.
func group(v int64) string {
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// powerOfTwo writes a limit that is a power of two, or one less, as people write it:
// "2^20", "2^31−1"; any other v with thousands separators.
func powerOfTwo(v int64) string {
	switch {
	case v > 0 && v&(v-1) == 0:
		return fmt.Sprintf("2^%d", bits.Len64(uint64(v))-1)
	case v > 0 && (v+1)&v == 0:
		return fmt.Sprintf("2^%d−1", bits.Len64(uint64(v)))
	}
	return group(v)
}

// parseList reads "a,b,c" or a range "a..b" (or "a..b/step") of integers.
func parseList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if lo, hi, ok := strings.Cut(part, ".."); ok {
			step := 1
			if h, st, ok := strings.Cut(hi, "/"); ok {
				hi = h
				v, err := strconv.Atoi(st)
				if err != nil || v < 1 {
					return nil, fmt.Errorf("bad step in %q", part)
				}
				step = v
			}
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || a > b {
				return nil, fmt.Errorf("bad range %q (want a..b with a ≤ b)", part)
			}
			for v := a; v <= b; v += step {
				out = append(out, v)
			}
			continue
		}
		v, err := strconv.Atoi(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", part)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New("empty list")
	}
	return out, nil
}
