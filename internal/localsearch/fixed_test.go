package localsearch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/internal/pseudo"
	"github.com/nqueens/nqueens/internal/rules"
)

// fixedFrom keeps k random rows of the solution sol, the others free (−1).
func fixedFrom(sol []int32, k int, rng *rand.Rand) []int32 {
	p := make([]int32, len(sol))
	for i := range p {
		p[i] = -1
	}
	for _, r := range rng.Perm(len(sol))[:k] {
		p[r] = sol[r]
	}
	return p
}

// completes fails unless q is a solution that keeps every queen of fixed.
func completes(t *testing.T, fixed, q []int32) {
	t.Helper()
	if len(q) != len(fixed) {
		t.Fatalf("%d rows for a board of %d", len(q), len(fixed))
	}
	if msg := check(q); msg != "" {
		t.Fatalf("invalid completion: %s", msg)
	}
	for r, c := range fixed {
		if c >= 0 && q[r] != c {
			t.Fatalf("row %d: fixed queen in column %d moved to %d", r, c, q[r])
		}
	}
}

// TestSolveFixedCompletes: queens taken from a solution, from one to seven in ten of the
// rows, on boards from 4 to 10^5 (small ones scan in step 3, large ones draw), are
// completed, the fixed queens in place.
func TestSolveFixedCompletes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{4, 5, 8, 30, 201, 1000, 5000, 100_000} {
		sol, _, err := Solve(ctx, n, Options{Seed: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		for _, frac := range []float64{0.001, 0.1, 0.3, 0.5, 0.7} {
			if frac > 0.5 && n < 1000 {
				continue // a few dozen free rows left so tight that whole runs fail: prop's work
			}
			k := max(1, int(frac*float64(n)))
			fixed := fixedFrom(sol, k, rng)
			q, st, err := SolveFixed(ctx, fixed, Options{Seed: uint64(k), FixedRuns: 1000})
			if err != nil {
				t.Fatalf("n=%d k=%d: %v (%+v)", n, k, err, st)
			}
			completes(t, fixed, q)
		}
	}
}

// TestSolveFixedEdges: nothing fixed is Solve; everything fixed is the input; fixed queens
// that attack each other, and n = 2 or 3, have no completion; a column off the board is
// an error; an instance without completion ends with ErrGaveUp after its runs.
func TestSolveFixedEdges(t *testing.T) {
	ctx := context.Background()
	q, _, err := SolveFixed(ctx, []int32{-1, -1, -1, -1, -1, -1}, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	completes(t, []int32{-1, -1, -1, -1, -1, -1}, q)
	if q, _, err := SolveFixed(ctx, []int32{1, 3, 0, 2}, Options{}); err != nil || check(q) != "" {
		t.Errorf("all fixed: %v %v", q, err)
	}
	for _, fixed := range [][]int32{{0, 1, -1, -1}, {0, -1, -1, 0}, {-1, -1}, {-1, -1, -1}, {0, -1}} {
		if _, _, err := SolveFixed(ctx, fixed, Options{}); !errors.Is(err, rules.ErrNoSolution) && !errors.Is(err, ErrGaveUp) {
			t.Errorf("%v: %v, want no solution", fixed, err)
		}
	}
	if _, _, err := SolveFixed(ctx, []int32{0, 1, -1, -1}, Options{}); !errors.Is(err, rules.ErrNoSolution) {
		t.Errorf("attacking fixed queens: %v", err)
	}
	if _, _, err := SolveFixed(ctx, []int32{4, -1, -1, -1}, Options{}); err == nil {
		t.Error("column off the board accepted")
	}
	// n = 4 has two solutions, neither with a queen in a corner.
	_, st, err := SolveFixed(ctx, []int32{0, -1, -1, -1}, Options{FixedRuns: 5})
	if !errors.Is(err, ErrGaveUp) || st.Restarts != 4 {
		t.Errorf("n=4, corner fixed: %v %+v, want ErrGaveUp after 5 runs", err, st)
	}
}

// TestSolveFixedSeeds: the same fixed queens and seed give the same completion.
func TestSolveFixedSeeds(t *testing.T) {
	ctx := context.Background()
	sol, _, _ := Solve(ctx, 3000, Options{Seed: 9})
	fixed := fixedFrom(sol, 30, rand.New(rand.NewPCG(1, 1)))
	a, _, err1 := SolveFixed(ctx, fixed, Options{Seed: 5})
	b, _, err2 := SolveFixed(ctx, fixed, Options{Seed: 5})
	c, _, err3 := SolveFixed(ctx, fixed, Options{Seed: 6})
	if err1 != nil || err2 != nil || err3 != nil || !equal(a, b) || equal(a, c) {
		t.Errorf("seeds: %v %v %v, same seed equal %v, other seed equal %v", err1, err2, err3, equal(a, b), equal(a, c))
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSolveFixedCancel: a cancelled context stops SolveFixed.
func TestSolveFixedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fixed := make([]int32, 100_000)
	for i := range fixed {
		fixed[i] = -1
	}
	fixed[7] = 3
	if _, _, err := SolveFixed(ctx, fixed, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// fixedReplayer follows the steps of a traced SolveFixed on a board: each run starts from
// the fixed queens and the free columns in order on the free rows; tries, shuffles and
// swaps exchange the columns of two free rows (never a fixed one).
type fixedReplayer struct {
	t      *testing.T
	fixed  []int32
	q      []int32
	runs   int
	solved bool
	steps  []pseudo.Step
	bad    string
}

func (p *fixedReplayer) swap(kind string, a, b, line int) {
	p.steps = append(p.steps, pseudo.Step{Kind: kind, Line: line})
	if p.fixed[a] >= 0 || p.fixed[b] >= 0 {
		if p.bad == "" {
			p.bad = fmt.Sprintf("%s of rows %d and %d: a fixed row", kind, a, b)
		}
		return
	}
	p.q[a], p.q[b] = p.q[b], p.q[a]
}

func (p *fixedReplayer) Run(line int) {
	p.steps = append(p.steps, pseudo.Step{Kind: "run", Line: line})
	p.runs++
	used := make([]bool, len(p.fixed))
	for _, c := range p.fixed {
		if c >= 0 {
			used[c] = true
		}
	}
	c := 0
	for r, f := range p.fixed {
		if f >= 0 {
			p.q[r] = f
			continue
		}
		for used[c] {
			c++
		}
		p.q[r] = int32(c)
		c++
	}
}

func (p *fixedReplayer) Try(j, m int, placed bool, _, line int) {
	if placed {
		p.swap("try", j, m, line)
		return
	}
	p.steps = append(p.steps, pseudo.Step{Kind: "try", Line: line})
}
func (p *fixedReplayer) Shuffle(i, m, line int) { p.swap("shuffle", i, m, line) }
func (p *fixedReplayer) Final(line int) {
	p.steps = append(p.steps, pseudo.Step{Kind: "final", Line: line})
}
func (p *fixedReplayer) Swap(i, m int, kept bool, line int) {
	if kept {
		p.swap("swap", i, m, line)
		return
	}
	p.steps = append(p.steps, pseudo.Step{Kind: "swap", Line: line})
}
func (p *fixedReplayer) Solved(line int) {
	p.steps = append(p.steps, pseudo.Step{Kind: "solved", Line: line})
	p.solved = true
}

// TestSolveFixedTracer: a traced SolveFixed finds what the untraced one finds, with the
// same counters; its steps, followed on a board from the fixed queens, never move a fixed
// queen and end on the placement it returns; their lines are a path through the program.
func TestSolveFixedTracer(t *testing.T) {
	ctx := context.Background()
	gaveUp, tried := 0, 0
	defer func() {
		if gaveUp > tried/4 {
			t.Errorf("%d of %d instances gave up", gaveUp, tried)
		}
	}()
	for _, n := range []int{8, 13, 50, 300} {
		for seed := range uint64(4) {
			sol, _, err := Solve(ctx, n, Options{Seed: seed + 100})
			if err != nil {
				t.Fatal(err)
			}
			fixed := make([]int32, n)
			for r := range fixed {
				fixed[r] = -1
				if r%4 == int(seed%4) {
					fixed[r] = sol[r]
				}
			}
			tried++
			plain, pst, err := SolveFixed(ctx, fixed, Options{Seed: seed})
			if errors.Is(err, ErrGaveUp) {
				gaveUp++ // a hard instance: its runs are traced all the same below
			} else if err != nil {
				t.Fatal(err)
			}
			p := &fixedReplayer{t: t, fixed: fixed, q: make([]int32, n)}
			q, st, err := SolveFixed(ctx, fixed, Options{Seed: seed, Tracer: p})
			if (err == nil) != (plain != nil) || !slices.Equal(q, plain) || st != pst {
				t.Fatalf("n=%d seed=%d: traced %v %+v, untraced %+v", n, seed, err, st, pst)
			}
			if err != nil {
				if p.solved || p.runs != int(st.Restarts)+1 {
					t.Errorf("n=%d seed=%d: gave up after %d runs, solved %v", n, seed, p.runs, p.solved)
				}
				continue
			}
			if p.bad != "" || !p.solved || !slices.Equal(p.q, q) || p.runs != int(st.Restarts)+1 {
				t.Errorf("n=%d seed=%d: the steps end on another board (%s, solved %v, %d runs)", n, seed, p.bad, p.solved, p.runs)
			}
			if err := PlacedCode.Walk(p.steps, true); err != nil {
				t.Errorf("n=%d seed=%d: %v", n, seed, err)
			}
		}
	}
}
