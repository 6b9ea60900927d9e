package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/labplot"
	"github.com/nqueens/nqueens/internal/lasvegas"
)

// The Las Vegas hybrid of docs/algorithms.md §3.5: m queens at random, then backtracking.

// Variant is how the random queens are placed.
type Variant int

const (
	// Cell draws squares from the whole board, rejecting the attacked ones.
	Cell Variant = iota
	// Row picks a free column at random in each of the first m rows (Brassard &
	// Bratley's QueensLV).
	Row
)

// String returns "cell" or "row".
func (v Variant) String() string { return lasvegas.Variant(v).String() }

// MarshalText writes the variant by name, as in JSON.
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a variant by name.
func (v *Variant) UnmarshalText(b []byte) error {
	p, err := ParseVariant(string(b))
	if err == nil {
		*v = p
	}
	return err
}

// ParseVariant reads "cell" or "row".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "cell":
		return Cell, nil
	case "row":
		return Row, nil
	}
	return 0, fmt.Errorf("unknown variant %q (want cell or row)", s)
}

// Objective is what the optimum m of a Las Vegas table minimises, per solution.
type Objective int

const (
	// ByExplored, the default, minimises the nodes explored: Brassard & Bratley's t, the
	// measure of their table.
	ByExplored Objective = iota
	// ByChecks minimises the checks (every draw and every square tried: all the work).
	ByChecks
	// ByTime minimises the mean time of a run (sampled tables only).
	ByTime
)

// String returns "explored", "checks" or "time".
func (o Objective) String() string {
	switch o {
	case ByExplored:
		return "explored"
	case ByChecks:
		return "checks"
	case ByTime:
		return "time"
	}
	return "Objective(" + strconv.Itoa(int(o)) + ")"
}

// MarshalText writes the objective by name, as in JSON.
func (o Objective) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an objective by name.
func (o *Objective) UnmarshalText(b []byte) error {
	p, err := ParseObjective(string(b))
	if err == nil {
		*o = p
	}
	return err
}

// ParseObjective reads "explored", "checks" or "time".
func ParseObjective(s string) (Objective, error) {
	for _, o := range []Objective{ByExplored, ByChecks, ByTime} {
		if s == o.String() {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown objective %q (want explored, checks or time)", s)
}

// The defaults of the Las Vegas experiment, the same in "nqueens lab lasvegas" and the
// web board's /api/lab/lasvegas and replay (/api/trace?search=lasvegas): the zero values
// of LasVegasOptions.
const (
	DefaultVariant   = Cell       // how the random queens are placed
	DefaultObjective = ByExplored // what the optimum minimises
)

// The limits and defaults of the Las Vegas experiment.
const (
	MaxLasVegasN     = 1 << 16    // the largest board
	MaxExactRowN     = 14         // the largest board of an exact table, row variant (25 s)
	DefaultTrials    = 100        // runs per m of a sampled table
	DefaultMaxChecks = 20_000_000 // checks per run before it is censored
)

// ErrTooLarge says that an exact table would enumerate too many random choices.
var ErrTooLarge = lasvegas.ErrTooLarge

// LasVegasOptions configures LasVegas.
type LasVegasOptions struct {
	Variant Variant
	// Exact asks for the expectations computed exactly, by enumerating every random
	// choice with its probability (small boards), instead of sampled runs.
	Exact bool
	// Ms lists the values of m, in the order of the rows; nil means 0..n.
	Ms []int
	// Objective is what the optimum minimises (ByTime needs a sampled table).
	Objective Objective
	// MaxDraws bounds the draws of one start of the cell variant; 0 means n².
	MaxDraws int

	// The sampled table only. Trials is the number of runs per m (0: DefaultTrials);
	// Seed seeds them (m gets its own stream PCG(Seed, m), so a row does not depend on
	// the others); a run that reaches MaxChecks checks (0: DefaultMaxChecks; negative:
	// no bound) is censored, and a row is abandoned after MaxCensored censored runs (0:
	// max(3, Trials/20)).
	Trials      int
	Seed        uint64
	MaxChecks   int64
	MaxCensored int

	// Progress, if set, is called after each run (sampled) or before each m (exact), with
	// Phase "m=M" for the row of M, Done the runs done (exact: the rows done) and Total
	// those of the whole table.
	Progress func(nqueens.Progress)
}

// LasVegasTable is the outcome of LasVegas: the cost against m, sampled or exact, as
// "nqueens lab lasvegas --json" prints it and the web board's /api/lab/lasvegas answers.
type LasVegasTable struct {
	N         int       `json:"n"`
	Variant   Variant   `json:"variant"`
	Exact     bool      `json:"exact"`
	Objective Objective `json:"objective"`
	// MaxDraws is the bound of draws per start of the cell variant (n² by default),
	// 0 for the row variant, which draws no squares (and absent from its JSON).
	MaxDraws int `json:"max_draws,omitempty"`
	// Sampling holds the settings of a sampled table; zero, and absent from the JSON, in
	// an exact one.
	Sampling
	Rows []LasVegasRow `json:"rows"`
	// Optimum is the index in Rows of the least cost per solution by Objective, among the
	// rows that are no lower bounds; -1 if there is none.
	Optimum int `json:"optimum"`
	// Complete is false when the run was interrupted: Rows holds the values of m done.
	Complete bool `json:"complete"`
}

// Sampling is the settings of a sampled table.
type Sampling struct {
	Trials      int    `json:"trials"`
	Seed        uint64 `json:"seed"`
	MaxChecks   int64  `json:"max_checks"`   // checks per run before it is censored; -1: no bound
	MaxCensored int    `json:"max_censored"` // censored runs before a row is abandoned
}

// LasVegasRow is one value of m. Starts, Explored and Checks are per solution:
// expectations in an exact table, means over the runs in a sampled one. A start is one
// attempt from the empty board, random queens then backtracking (not the local search's
// attempts, its random swaps). Explored counts Brassard & Bratley's nodes explored (per
// start, 1 + the random queens + the
// backtracking nodes other than its root: the t of their table); Checks counts every draw,
// n per random row and every square tried while backtracking.
type LasVegasRow struct {
	M int `json:"m"`
	// P is the probability that one start succeeds.
	P        float64 `json:"p"`
	Starts   Number  `json:"starts"`
	Explored Number  `json:"explored"`
	Checks   Number  `json:"checks"`
	// LowerBound says that some runs were stopped by the budget of checks: the means are
	// lower bounds, and the row is no candidate for the optimum.
	LowerBound bool `json:"lower_bound"`
	// Sampled and Expected hold what only a sampled or only an exact table has: the
	// other is zero, and its keys absent from the JSON. (Values, not pointers: a field
	// of the other kind reads as 0, it does not panic.)
	Sampled
	Expected
}

// MarshalJSON writes the table's keys and, for a sampled table, those of Sampling.
func (t LasVegasTable) MarshalJSON() ([]byte, error) {
	type fields LasVegasTable // without this method
	v := struct {
		fields
		*Sampling // outranks fields.Sampling; nil (absent) in an exact table
	}{fields: fields(t)}
	if !t.Exact {
		v.Sampling = &t.Sampling
	}
	return json.Marshal(v)
}

// MarshalJSON writes the row's keys and those of the part it has, Sampled or Expected
// (a sampled row has runs, an exact one an e of at least 1: neither part of a real row
// is zero).
func (r LasVegasRow) MarshalJSON() ([]byte, error) {
	type fields LasVegasRow // without this method
	v := struct {
		fields
		// These outrank the parts inside fields; nil, their keys are absent.
		*Sampled
		*Expected
	}{fields: fields(r)}
	if r.sampled() {
		v.Sampled = &r.Sampled
	}
	if r.Expected != (Expected{}) {
		v.Expected = &r.Expected
	}
	return json.Marshal(v)
}

// sampled says whether r is a row of a sampled table.
func (r LasVegasRow) sampled() bool { return r.Sampled != (Sampled{}) }

// Sampled is what a sampled row adds: the standard errors of the means, the means of the
// other counters, and what became of the runs.
type Sampled struct {
	PSE        float64 `json:"p_se"`
	StartsSE   float64 `json:"starts_se"`
	ExploredSE float64 `json:"explored_se"`
	ChecksSE   float64 `json:"checks_se"`
	// Nodes is the mean backtracking nodes per run, Draws the mean draws (cell variant;
	// 0 for the row variant).
	Nodes   float64 `json:"nodes"`
	NodesSE float64 `json:"nodes_se"`
	Draws   float64 `json:"draws"`
	// Seconds is the mean time of a run, MedianSeconds the median one.
	Seconds       float64 `json:"seconds"`
	SecondsSE     float64 `json:"seconds_se"`
	MedianSeconds float64 `json:"median_seconds"`
	// Runs counts the runs done, Censored those stopped by the budget of checks;
	// Abandoned says the row stopped early, after too many censored runs.
	Runs      int  `json:"runs"`
	Censored  int  `json:"censored"`
	Abandoned bool `json:"abandoned"`
}

// Expected is what an exact row adds: Brassard & Bratley's s and e, the expected nodes
// explored by a successful and by a failed start (so that Explored, their t, is
// s + (1−p)·e/p), and the same two expectations in checks.
type Expected struct {
	S       float64 `json:"s"`
	E       float64 `json:"e"`
	ChecksS float64 `json:"checks_s"`
	ChecksE float64 `json:"checks_e"`
}

// Number is a float64 that JSON writes as null when it is not finite: the cost per
// solution of a start that never succeeds (p = 0) is infinite.
type Number float64

// MarshalJSON writes the number, or null.
func (x Number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number; null is +Inf.
func (x *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Number(math.Inf(1))
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*x = Number(f)
	return err
}

// Cost returns the row's cost per solution by objective o: NaN for the time of an exact
// row, which has none.
func (r LasVegasRow) Cost(o Objective) float64 {
	switch o {
	case ByChecks:
		return float64(r.Checks)
	case ByTime:
		if !r.sampled() {
			return math.NaN()
		}
		return r.Seconds
	}
	return float64(r.Explored)
}

// costSE is the standard error of Cost(o), 0 in an exact row.
func (r LasVegasRow) costSE(o Objective) float64 {
	if !r.sampled() {
		return 0
	}
	switch o {
	case ByChecks:
		return r.ChecksSE
	case ByTime:
		return r.SecondsSE
	}
	return r.ExploredSE
}

// optimum is the one rule of the optimum: the row of least finite cost by o, among the
// rows that are no lower bounds, the first of equal ones; -1 if none.
func optimum(rows []LasVegasRow, o Objective) int {
	best := -1
	for i, r := range rows {
		c := r.Cost(o)
		if r.LowerBound || math.IsNaN(c) || math.IsInf(c, 0) {
			continue
		}
		if best < 0 || c < rows[best].Cost(o) {
			best = i
		}
	}
	return best
}

// LasVegas measures the cost of the Las Vegas hybrid on the n×n board for each m of
// opt.Ms, sampled (opt.Trials runs per m) or exact, and marks the optimum. On cancellation
// it returns the rows done (Complete false) and ctx.Err(); an exact table too large to
// enumerate returns ErrTooLarge; n = 2 and 3, which have no solution, an error wrapping
// nqueens.ErrNoSolution.
func LasVegas(ctx context.Context, n int, opt LasVegasOptions) (LasVegasTable, error) {
	t := LasVegasTable{N: n, Variant: opt.Variant, Exact: opt.Exact, Objective: opt.Objective, Rows: []LasVegasRow{}, Optimum: -1}
	if opt.Variant != Cell && opt.Variant != Row {
		return t, fmt.Errorf("lab: unknown variant %d", int(opt.Variant))
	}
	if opt.Objective < ByExplored || opt.Objective > ByTime {
		return t, fmt.Errorf("lab: unknown objective %d", int(opt.Objective))
	}
	if opt.Exact && opt.Objective == ByTime {
		return t, errors.New("lab: an exact table has no time: its objectives are explored and checks")
	}
	if err := noSolution(n); err != nil {
		return t, err
	}
	if opt.Variant == Cell {
		t.MaxDraws = opt.MaxDraws
		if t.MaxDraws == 0 {
			t.MaxDraws = n * n
		}
	}
	ms := opt.Ms
	if ms == nil {
		for m := 0; m <= n; m++ {
			ms = append(ms, m)
		}
	}
	var err error
	if opt.Exact {
		err = t.exact(ctx, ms, opt)
	} else {
		err = t.sample(ctx, ms, opt)
	}
	t.Optimum = optimum(t.Rows, t.Objective)
	t.Complete = err == nil
	return t, err
}

// exact fills the rows of an exact table.
func (t *LasVegasTable) exact(ctx context.Context, ms []int, opt LasVegasOptions) error {
	for i, m := range ms {
		report(opt.Progress, fmt.Sprintf("m=%d", m), uint64(i), uint64(len(ms)))
		r, err := lasvegas.Exact(ctx, t.N, lasvegas.Options{Variant: lasvegas.Variant(t.Variant), M: m, MaxDraws: opt.MaxDraws})
		if err != nil {
			return err
		}
		row := LasVegasRow{M: m, P: r.P, Starts: Number(1 / r.P), Explored: Number(r.T), Checks: Number(r.ChecksT),
			Expected: Expected{S: r.S, E: r.E, ChecksS: r.ChecksS, ChecksE: r.ChecksE}}
		if r.P == 0 { // no start succeeds: no solution at any cost
			row.Starts, row.Explored, row.Checks = Number(math.Inf(1)), Number(math.Inf(1)), Number(math.Inf(1))
		}
		t.Rows = append(t.Rows, row)
	}
	return nil
}

// sample fills the rows of a sampled table.
func (t *LasVegasTable) sample(ctx context.Context, ms []int, opt LasVegasOptions) error {
	so := lasvegas.SweepOptions{Variant: lasvegas.Variant(t.Variant), Ms: ms, Trials: opt.Trials, Seed: opt.Seed,
		MaxDraws: opt.MaxDraws, MaxChecks: opt.MaxChecks, MaxCensored: opt.MaxCensored}
	if opt.Progress != nil {
		so.Progress = func(p lasvegas.Progress) {
			report(opt.Progress, fmt.Sprintf("m=%d", p.M), uint64(p.Row*p.Trials+p.Run), uint64(p.Rows*p.Trials))
		}
	}
	res, err := lasvegas.Sweep(ctx, t.N, so)
	t.Sampling = Sampling{Trials: res.Trials, Seed: res.Seed, MaxChecks: res.MaxChecks, MaxCensored: res.MaxCensored}
	if t.MaxChecks < 0 {
		t.MaxChecks = -1
	}
	for _, r := range res.Rows {
		t.Rows = append(t.Rows, LasVegasRow{M: r.M, P: r.P.Mean, Starts: Number(r.MeanAttempts.Mean),
			Explored: Number(r.Explored.Mean), Checks: Number(r.Checks.Mean), LowerBound: r.Censored > 0,
			Sampled: Sampled{PSE: r.P.SE, StartsSE: r.MeanAttempts.SE, ExploredSE: r.Explored.SE, ChecksSE: r.Checks.SE,
				Nodes: r.Nodes.Mean, NodesSE: r.Nodes.SE, Draws: r.Draws.Mean,
				Seconds: r.Seconds.Mean, SecondsSE: r.Seconds.SE, MedianSeconds: r.Median.Seconds(),
				Runs: r.Runs, Censored: r.Censored, Abandoned: r.Abandoned}})
	}
	return err
}

// EstimateLasVegas estimates the checks and the time of a sampled LasVegas(ctx, n, opt)
// from a few short pilot runs (a second or so): four for each of up to 17 values of m,
// each stopped at the checks of 20 ms of CPU time (4·10^6 at 2·10^8 a second), and the
// median of their speeds in CPU time, so that a slow moment of the machine changes
// little. An exact table is not estimated: its estimate is zero. For n = 2 and 3, as
// LasVegas, it returns an error wrapping nqueens.ErrNoSolution.
func EstimateLasVegas(ctx context.Context, n int, opt LasVegasOptions) (CostEstimate, error) {
	if err := noSolution(n); err != nil {
		return CostEstimate{}, err
	}
	if opt.Exact {
		return CostEstimate{}, nil
	}
	e, err := lasvegas.EstimateSweep(ctx, n, lasvegas.SweepOptions{Variant: lasvegas.Variant(opt.Variant), Ms: opt.Ms,
		Trials: opt.Trials, Seed: opt.Seed, MaxDraws: opt.MaxDraws, MaxChecks: opt.MaxChecks, MaxCensored: opt.MaxCensored})
	return CostEstimate{Seconds: e.Seconds, MinSeconds: e.MinSeconds, Checks: e.Checks, Rate: e.Rate}, err
}

// Table lays the table out for printing: a line of its settings, a row per m with the
// optimum marked *, and, for a sampled table, a line naming the optimum. The CSV has every
// key of the JSON's rows, and optimum (true on the optimum's row).
func (t LasVegasTable) Table() Table {
	if t.Exact {
		return t.exactTable()
	}
	draws := "" // the row variant draws no squares: it has no bound of draws
	if t.Variant == Cell {
		draws = fmt.Sprintf(" max_draws=%d", t.MaxDraws)
	}
	out := Table{
		Head: []string{fmt.Sprintf("n=%d variant=%s trials=%d seed=%d%s max_checks=%d objective=%s",
			t.N, t.Variant, t.Trials, t.Seed, draws, t.MaxChecks, t.Objective)},
		Columns: []Column{{Key: "m", Head: "m"}, {Key: "p", Head: "p"}, {Key: "p_se", Head: "±"},
			{Key: "starts", Head: "starts"}, {Key: "starts_se"}, {Key: "nodes", Head: "nodes"}, {Key: "nodes_se"},
			{Key: "explored", Head: "explored"}, {Key: "explored_se"}, {Key: "checks", Head: "checks"}, {Key: "checks_se", Head: "±"},
			{Key: "draws"}, {Key: "seconds", Head: "mean ms", Scale: 1e3}, {Key: "seconds_se"},
			{Key: "median_seconds", Head: "median ms", Scale: 1e3}, {Key: "runs"}, {Key: "censored"}, {Key: "abandoned"},
			{Key: "lower_bound"}, {Key: "optimum"}, {Head: " "}},
	}
	for i, r := range t.Rows {
		s := r.Sampled
		note := ""
		if i == t.Optimum {
			note = "*"
		}
		if s.Censored > 0 {
			note += fmt.Sprintf(" censored %d", s.Censored)
		}
		if s.Abandoned {
			note += " abandoned"
		}
		out.Rows = append(out.Rows, []Entry{intCell(int64(r.M)), floatCell(r.P, 4), floatCell(s.PSE, 4),
			floatCell(float64(r.Starts), 2), floatCell(s.StartsSE, 2), floatCell(s.Nodes, 1), floatCell(s.NodesSE, 1),
			floatCell(float64(r.Explored), 1), floatCell(s.ExploredSE, 1), floatCell(float64(r.Checks), 1), floatCell(s.ChecksSE, 1),
			floatCell(s.Draws, 1), floatCell(s.Seconds, 3), floatCell(s.SecondsSE, 3), floatCell(s.MedianSeconds, 3),
			intCell(int64(s.Runs)), intCell(int64(s.Censored)), Entry{Value: s.Abandoned}, Entry{Value: r.LowerBound},
			Entry{Value: i == t.Optimum}, textCell(note)})
	}
	out.Foot = t.optimumLine()
	return out
}

func (t LasVegasTable) exactTable() Table {
	out := Table{
		Head: []string{fmt.Sprintf("n=%d variant=%s exact objective=%s (nodes explored: s per successful start, e per failed one, t = s + (1-p)e/p)",
			t.N, t.Variant, t.Objective)},
		Columns: []Column{{Key: "m", Head: "m"}, {Key: "p", Head: "p"}, {Key: "starts"}, {Key: "s", Head: "s"}, {Key: "e", Head: "e"},
			{Key: "explored", Head: "t"}, {Key: "checks_s"}, {Key: "checks_e"}, {Key: "checks", Head: "checks t"},
			{Key: "lower_bound"}, {Key: "optimum"}, {Head: " "}},
	}
	for i, r := range t.Rows {
		x := r.Expected
		note := ""
		if i == t.Optimum {
			note = "*"
		}
		out.Rows = append(out.Rows, []Entry{intCell(int64(r.M)), floatCell(r.P, 4), floatCell(float64(r.Starts), 2), floatCell(x.S, 2), floatCell(x.E, 2),
			floatCell(float64(r.Explored), 2), floatCell(x.ChecksS, 2), floatCell(x.ChecksE, 2), floatCell(float64(r.Checks), 2),
			Entry{Value: r.LowerBound}, Entry{Value: i == t.Optimum}, textCell(note)})
	}
	out.Foot = t.optimumLine()
	return out
}

// optimumLine names the optimum: "optimum: m=2 (explored 28.20 per solution)", with its
// standard error when sampled.
func (t LasVegasTable) optimumLine() []string {
	if t.Optimum < 0 {
		return []string{"optimum: none (every row is a lower bound)"}
	}
	r := t.Rows[t.Optimum]
	c := r.Cost(t.Objective)
	if t.Exact {
		return []string{fmt.Sprintf("optimum: m=%d (%s %s per solution)", r.M, t.Objective, floatCell(c, 2).text(1))}
	}
	unit, scale := "", 1.0
	if t.Objective == ByTime {
		unit, scale = " ms", 1e3
	}
	return []string{fmt.Sprintf("optimum: m=%d (%s %s ± %s%s per solution)", r.M, t.Objective,
		floatCell(c, 1).text(scale), floatCell(r.costSE(t.Objective), 1).text(scale), unit)}
}

// Plot draws the cost by Objective against m on a log scale, the optimum marked, to a
// PNG or SVG file by path's extension. The rows that are lower bounds are drawn hollow.
func (t LasVegasTable) Plot(path string) error {
	what := "mean"
	label := fmt.Sprintf("%s variant", t.Variant)
	if t.Exact {
		what = "expected"
		label += ", exact"
	} else {
		label += fmt.Sprintf(", %d trials per m", t.Trials)
	}
	c := labplot.Curve{Series: labplot.Series{Label: label}, MarkOptimum: t.Optimum >= 0, Optimum: t.Optimum}
	for _, r := range t.Rows {
		c.X = append(c.X, float64(r.M))
		c.Y = append(c.Y, r.Cost(t.Objective))
		if !t.Exact {
			c.Err = append(c.Err, r.costSE(t.Objective))
		}
		c.LowerBound = append(c.LowerBound, r.LowerBound)
	}
	unit := t.Objective.String()
	switch t.Objective {
	case ByExplored:
		unit = "nodes explored"
	case ByTime:
		unit = "seconds"
	}
	return labplot.CostCurve{
		Title:  fmt.Sprintf("Las Vegas hybrid, n = %d: cost against random queens", t.N),
		YLabel: fmt.Sprintf("%s %s per solution (log scale)", what, unit),
		Curves: []labplot.Curve{c},
	}.Save(path)
}
