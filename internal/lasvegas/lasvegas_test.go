package lasvegas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/rules"
)

// Brassard & Bratley's table for n=8, row variant, k = 0..8 (docs/algorithms.md §3.5).
var (
	bbT = []float64{114.00, 39.63, 28.20, 29.01, 35.10, 46.92, 53.50, 55.93, 55.93}
	bbP = []float64{1, 1, 0.8750, 0.4931, 0.2618, 0.1624, 0.1357, 0.1293, 0.1293}
)

// round rounds half away from zero, as printed tables do (39.625 → 39.63).
func round(x float64, digits int) float64 {
	f := math.Pow(10, float64(digits))
	return math.Round(x*f) / f
}

func TestExactBrassardBratley(t *testing.T) {
	tab, err := ExactTable(context.Background(), 8, Row, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range tab {
		if round(r.T, 2) != bbT[k] || round(r.P, 4) != bbP[k] {
			t.Errorf("k=%d: p=%.6f t=%.6f, want p=%.4f t=%.2f", k, r.P, r.T, bbP[k], bbT[k])
		}
		if want := r.S + (1-r.P)*r.E/r.P; math.Abs(r.T-want) > 1e-9*r.T {
			t.Errorf("k=%d: t=%v, s+(1−p)e/p=%v", k, r.T, want)
		}
	}
	if tab[0].S != 114 || tab[0].ChecksT != 876 {
		t.Errorf("plain backtracking: %+v, want 114 nodes", tab[0])
	}
	if tab[1].T != 39.625 {
		t.Errorf("k=1: t=%v, want exactly 39.625", tab[1].T)
	}
}

// scripted is a Rand that follows a prefix of choices, answers 0 beyond
// it, and records the range of every call.
type scripted struct {
	prefix []int
	ranges []int
}

func (s *scripted) IntN(n int) int {
	i := len(s.ranges)
	s.ranges = append(s.ranges, n)
	if i < len(s.prefix) {
		return s.prefix[i]
	}
	return 0
}

// enumerateAttempts computes the exact result by running the simulator's
// own attempt code on every sequence of random answers (an odometer over
// the answers), each weighted by its probability. It is independent of
// exact.go and only feasible for tiny cases.
func enumerateAttempts(t *testing.T, n int, opt Options) ExactResult {
	t.Helper()
	var acc accum
	src := &scripted{}
	s := newSolver(context.Background(), n, opt, src)
	paths := 0
	for {
		src.ranges = src.ranges[:0]
		before := s.st
		ok := s.attempt()
		p := 1.0
		for _, r := range src.ranges {
			p /= float64(r)
		}
		acc.add(ok, p, float64(s.st.Explored-before.Explored), float64(s.st.Checks-before.Checks))
		paths++
		if paths > 5_000_000 {
			t.Fatal("too many paths")
		}
		// Next sequence: increment the last answer that can grow.
		i := len(src.ranges) - 1
		for ; i >= 0; i-- {
			v := 0
			if i < len(src.prefix) {
				v = src.prefix[i]
			}
			if v+1 < src.ranges[i] {
				break
			}
		}
		if i < 0 {
			break
		}
		next := make([]int, i+1)
		copy(next, src.prefix[:min(i+1, len(src.prefix))])
		next[i]++
		src.prefix = next
	}
	md := 0
	if opt.Variant == Cell {
		md = s.maxDraws
	}
	return acc.result(ExactResult{N: n, M: opt.M, Variant: opt.Variant, MaxDraws: md})
}

func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func sameExact(a, b ExactResult) bool {
	return closeRel(a.P, b.P) && closeRel(a.S, b.S) && closeRel(a.E, b.E) && closeRel(a.T, b.T) &&
		closeRel(a.ChecksS, b.ChecksS) && closeRel(a.ChecksE, b.ChecksE) && closeRel(a.ChecksT, b.ChecksT)
}

func TestExactAgainstSimulatorPaths(t *testing.T) {
	cases := []struct {
		n   int
		opt Options
	}{
		{5, Options{Variant: Row, M: 2}},
		{6, Options{Variant: Row, M: 3}},
		{8, Options{Variant: Row, M: 4}},
		{8, Options{Variant: Row, M: 8}},
		{1, Options{Variant: Cell, M: 1}},
		{4, Options{Variant: Cell, M: 0}},
		{4, Options{Variant: Cell, M: 2, MaxDraws: 4}},
		{4, Options{Variant: Cell, M: 3, MaxDraws: 5}},
		{5, Options{Variant: Cell, M: 2, MaxDraws: 3}},
		{6, Options{Variant: Cell, M: 3, MaxDraws: 3}},
	}
	for _, c := range cases {
		want := enumerateAttempts(t, c.n, c.opt)
		got, err := Exact(context.Background(), c.n, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !sameExact(got, want) {
			t.Errorf("n=%d %+v:\n got %+v\nwant %+v", c.n, c.opt, got, want)
		}
	}
}

// TestMonteCarloAgreesWithExact runs fixed-seed sweeps for n=8 and checks
// that every mean lies within 3 standard errors of the exact value.
func TestMonteCarloAgreesWithExact(t *testing.T) {
	for _, v := range []Variant{Row, Cell} {
		trials := 2000
		res, err := Sweep(context.Background(), 8, SweepOptions{Variant: v, Trials: trials, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := ExactTable(context.Background(), 8, v, 0)
		if err != nil {
			t.Fatal(err)
		}
		for m, r := range res.Rows {
			ex := tab[m]
			if r.M != m || r.Runs != trials || r.Censored != 0 {
				t.Fatalf("%v m=%d: row %+v", v, m, r)
			}
			check := func(name string, got Estimate, want float64) {
				t.Helper()
				if math.Abs(got.Mean-want) > 3*got.SE+1e-9 {
					t.Errorf("%v m=%d %s: %.4f ± %.4f, exact %.4f", v, m, name, got.Mean, got.SE, want)
				}
			}
			check("explored", r.Explored, ex.T)
			check("checks", r.Checks, ex.ChecksT)
			check("p", r.P, ex.P)
			check("attempts", r.MeanAttempts, 1/ex.P)
		}
	}
}

func valid(q []int) error {
	n := len(q)
	for i := 0; i < n; i++ {
		if q[i] < 0 || q[i] >= n {
			return fmt.Errorf("row %d: column %d", i, q[i])
		}
		for j := 0; j < i; j++ {
			if d := q[i] - q[j]; d == 0 || d == i-j || d == j-i {
				return fmt.Errorf("rows %d and %d attack", j, i)
			}
		}
	}
	return nil
}

func TestSolve(t *testing.T) {
	for _, v := range []Variant{Cell, Row} {
		for _, n := range []int{1, 4, 5, 8, 20, 60} {
			for _, m := range []int{0, n / 2, n * 3 / 4} {
				if n >= 60 && m < n/2 {
					continue
				}
				opt := Options{Variant: v, M: m}
				r1, err := Solve(context.Background(), n, opt, rand.New(rand.NewPCG(7, 8)))
				if err != nil {
					t.Fatalf("%v n=%d m=%d: %v", v, n, m, err)
				}
				if err := valid(r1.Solution); err != nil || len(r1.Solution) != n {
					t.Errorf("%v n=%d m=%d: invalid solution %v: %v", v, n, m, r1.Solution, err)
				}
				st := r1.Stats
				if st.Attempts < 1 || st.Random > st.Attempts*int64(m) || st.Explored < st.Attempts {
					t.Errorf("%v n=%d m=%d: counters %+v", v, n, m, st)
				}
				if v == Row && st.Draws != 0 || v == Cell && st.Draws > st.Attempts*int64(n*n) {
					t.Errorf("%v n=%d m=%d: draws %+v", v, n, m, st)
				}
				r2, _ := Solve(context.Background(), n, opt, rand.New(rand.NewPCG(7, 8)))
				if r2.Stats != st || fmt.Sprint(r2.Solution) != fmt.Sprint(r1.Solution) {
					t.Errorf("%v n=%d m=%d: same seed, different runs", v, n, m)
				}
			}
		}
	}
	// m = 0 is plain first-fit backtracking: 114 nodes for n=8, one
	// attempt, the first solution in lexicographic order.
	r, err := Solve(context.Background(), 8, Options{Variant: Row}, nil)
	if err != nil || r.Stats.Explored != 114 || r.Stats.Nodes != 114 || r.Stats.Attempts != 1 ||
		fmt.Sprint(r.Solution) != "[0 4 7 5 2 6 1 3]" {
		t.Errorf("plain backtracking: %+v, %v", r, err)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n    int
		opt  Options
		want error
	}{
		{0, Options{}, ErrArgs},
		{8, Options{M: 9}, ErrArgs},
		{8, Options{M: -1}, ErrArgs},
		{8, Options{Variant: 7}, ErrArgs},
		{2, Options{}, rules.ErrNoSolution},
		{3, Options{Variant: Row, M: 1}, rules.ErrNoSolution},
		{30, Options{MaxChecks: 100_000}, ErrBudget},
		{30, Options{Variant: Cell, M: 30, MaxChecks: 100_000}, ErrBudget},
	} {
		_, err := Solve(ctx, c.n, c.opt, rng)
		if !errors.Is(err, c.want) {
			t.Errorf("Solve(%d, %+v) = %v, want %v", c.n, c.opt, err, c.want)
		}
	}
	if _, err := Exact(ctx, 12, Options{Variant: Cell, M: 8}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Exact(12, cell): %v, want ErrTooLarge", err)
	}
	if _, err := Exact(ctx, 16, Options{Variant: Cell, M: 1}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Exact(16, cell): %v, want ErrTooLarge", err)
	}
	// The row variant refuses a board past MaxExactRowN at once (n = 30 ran for minutes).
	start := time.Now()
	if _, err := Exact(ctx, MaxExactRowN+1, Options{Variant: Row, M: 3}); !errors.Is(err, ErrTooLarge) || time.Since(start) > 5*time.Second {
		t.Errorf("Exact(%d, row): %v after %v, want ErrTooLarge at once", MaxExactRowN+1, err, time.Since(start))
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := Solve(ctx, 40, Options{Variant: Row}, nil)
	if !errors.Is(err, context.DeadlineExceeded) || r.Stats.Nodes == 0 || time.Since(start) > 2*time.Second {
		t.Errorf("Solve: %v after %v, %+v", err, time.Since(start), r.Stats)
	}
	// Attempts that never reach backtracking poll the context too.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel2()
	_, err = Solve(ctx2, 30, Options{Variant: Cell, M: 30, MaxDraws: 5}, rand.New(rand.NewPCG(1, 1)))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Solve without backtracking: %v", err)
	}
	// A sweep returns the rows done before the cancellation.
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	var calls int
	res, err := Sweep(ctx3, 8, SweepOptions{Variant: Row, Trials: 10, Progress: func(p Progress) {
		calls++
		if p.Row == 3 && p.Run == 5 {
			cancel3()
		}
		if p.Rows != 9 || p.Trials != 10 {
			t.Errorf("progress %+v", p)
		}
	}})
	if !errors.Is(err, context.Canceled) || len(res.Rows) != 3 {
		t.Errorf("cancelled sweep: %v, %d rows", err, len(res.Rows))
	}
	ctx4, cancel4 := context.WithCancel(context.Background())
	cancel4()
	if _, err := Exact(ctx4, 12, Options{Variant: Row, M: 6}); !errors.Is(err, context.Canceled) {
		t.Errorf("Exact cancelled: %v", err)
	}
}

func TestSweepCensored(t *testing.T) {
	res, err := Sweep(context.Background(), 28, SweepOptions{Variant: Row, Ms: []int{0, 20}, Trials: 20, MaxChecks: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[0].Censored != 3 || !res.Rows[0].Abandoned || res.Rows[0].Runs != 3 ||
		res.Rows[0].Checks.Mean < 1_000_000 || res.Rows[1].Censored != 0 || res.Rows[1].Runs != 20 {
		t.Errorf("censoring: %+v", res)
	}
	if r := res.Rows[1]; r.Median <= 0 || r.Seconds.Mean <= 0 || r.Checks.SE <= 0 {
		t.Errorf("row stats: %+v", r)
	}
}

func ExampleExact() {
	r, err := Exact(context.Background(), 8, Options{Variant: Row, M: 3})
	if err != nil {
		panic(err)
	}
	fmt.Printf("p=%.4f s=%.2f e=%.2f t=%.2f\n", r.P, r.S, r.E, r.T)
	// Output: p=0.4931 s=13.48 e=15.10 t=29.01
}

var sink Stats

func BenchmarkSolve(b *testing.B) {
	for _, v := range []Variant{Cell, Row} {
		for _, c := range []struct{ n, m int }{{8, 3}, {50, 38}} {
			b.Run(fmt.Sprintf("variant=%v/n=%d/m=%d", v, c.n, c.m), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				var tot Stats
				for b.Loop() {
					r, _ := Solve(context.Background(), c.n, Options{Variant: v, M: c.m}, rng)
					tot.Add(r.Stats)
				}
				b.ReportMetric(float64(tot.Checks)/float64(b.N), "checks/op")
				sink = tot
			})
		}
	}
}

// TestExactReproducible: the cell variant's exact expectations are the same to the last
// bit on every call (its states were summed in the random order of a Go map, so that the
// command and the web board printed different digits for the same table).
func TestExactReproducible(t *testing.T) {
	first, err := Exact(context.Background(), 6, Options{Variant: Cell, M: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if r, _ := Exact(context.Background(), 6, Options{Variant: Cell, M: 3}); r != first {
			t.Fatalf("two calls: %+v and %+v", first, r)
		}
	}
}
