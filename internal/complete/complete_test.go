package complete

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// allSolutions lists every solution of the n×n board by plain backtracking with arrays,
// independent of the bitset search.
func allSolutions(n int) [][]int32 {
	var out [][]int32
	q := make([]int32, n)
	col := make([]bool, n)
	dd := make([]bool, 2*n)
	aa := make([]bool, 2*n)
	var rec func(r int)
	rec = func(r int) {
		if r == n {
			out = append(out, slices.Clone(q))
			return
		}
		for c := range n {
			if !col[c] && !dd[r-c+n-1] && !aa[r+c] {
				col[c], dd[r-c+n-1], aa[r+c] = true, true, true
				q[r] = int32(c)
				rec(r + 1)
				col[c], dd[r-c+n-1], aa[r+c] = false, false, false
			}
		}
	}
	rec(0)
	return out
}

// valid checks that q is a solution keeping the fixed queens (independent O(n) check).
func valid(q, fixed []int32) error {
	n := len(fixed)
	if len(q) != n {
		return fmt.Errorf("%d rows, want %d", len(q), n)
	}
	col := make([]bool, n)
	dd := make([]bool, 2*n)
	aa := make([]bool, 2*n)
	for r, c := range q {
		if c < 0 || int(c) >= n || col[c] || dd[r-int(c)+n-1] || aa[r+int(c)] {
			return fmt.Errorf("row %d: queen at column %d is attacked or off the board", r+1, c+1)
		}
		if fixed[r] >= 0 && fixed[r] != c {
			return fmt.Errorf("row %d: fixed queen moved from %d to %d", r+1, fixed[r]+1, c+1)
		}
		col[c], dd[r-int(c)+n-1], aa[r+int(c)] = true, true, true
	}
	return nil
}

// randomPartial fixes k random rows to random columns: the queens may attack each other.
func randomPartial(rng *rand.Rand, n, k int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = -1
	}
	for _, r := range rng.Perm(n)[:k] {
		p[r] = int32(rng.IntN(n))
	}
	return p
}

// TestCountAgainstFilter: the number of completions of random partial boards (n ≤ 12)
// equals the number of solutions that keep the fixed queens, found by filtering all
// solutions; Find agrees on whether one exists.
func TestCountAgainstFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	maxN := 12
	if testing.Short() {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		all := allSolutions(n)
		for trial := range 40 {
			var p []int32
			if trial%2 == 0 {
				p = randomPartial(rng, n, rng.IntN(min(n, 5)+1))
			} else {
				g, err := Generate(context.Background(), n, rng.IntN(n/2+1), Random, rng)
				if err != nil {
					t.Fatal(err)
				}
				p = g
			}
			want := uint64(0)
			for _, s := range all {
				if valid(s, p) == nil {
					want++
				}
			}
			got, _, err := Count(context.Background(), p, nil)
			if err != nil || got != want {
				t.Fatalf("n=%d %v: count %d (%v), want %d", n, p, got, err, want)
			}
			q, _, err := Find(context.Background(), p, Options{Rand: rng})
			if (err == nil) != (want > 0) {
				t.Fatalf("n=%d %v: Find %v, but %d completions", n, p, err, want)
			}
			if err == nil {
				if e := valid(q, p); e != nil {
					t.Fatalf("n=%d %v: %v: %v", n, p, q, e)
				}
			}
		}
	}
}

// TestFindLarge: instances from solutions always complete; each completion verifies and
// keeps the fixed queens, whichever engine answers.
func TestFindLarge(t *testing.T) {
	ns := []int{50, 100, 300}
	if !testing.Short() {
		ns = append(ns, 1000)
	}
	for _, n := range ns {
		for _, frac := range []float64{0.1, 0.3, 0.5} {
			for seed := range uint64(3) {
				rng := rand.New(rand.NewPCG(seed, uint64(n)))
				p, err := Generate(context.Background(), n, int(frac*float64(n)), FromSolution, rng)
				if err != nil {
					t.Fatal(err)
				}
				for _, propOnly := range []bool{false, true} {
					q, st, err := Find(context.Background(), p, Options{Rand: rng, PropagationOnly: propOnly})
					if err != nil {
						t.Fatalf("n=%d frac=%v seed=%d: %v (%+v)", n, frac, seed, err, st)
					}
					if e := valid(q, p); e != nil {
						t.Fatalf("n=%d: %v", n, e)
					}
				}
			}
		}
	}
}

func TestLocalSearchKeepsFixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{8, 60, 500} {
		p, err := Generate(context.Background(), n, n/3, FromSolution, rng)
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := localSearch(context.Background(), p, rng, 1<<40)
		if err != nil || valid(q, p) != nil {
			t.Fatalf("n=%d: %v %v", n, err, valid(q, p))
		}
	}
}

func TestGenerate(t *testing.T) {
	for _, mode := range []Mode{FromSolution, Random} {
		a, _ := Generate(context.Background(), 100, 30, mode, rand.New(rand.NewPCG(9, 9)))
		b, _ := Generate(context.Background(), 100, 30, mode, rand.New(rand.NewPCG(9, 9)))
		if !slices.Equal(a, b) {
			t.Errorf("%s: the same seed gives different instances", mode)
		}
		k := 0
		for _, c := range a {
			if c >= 0 {
				k++
			}
		}
		if k != 30 {
			t.Errorf("%s: %d queens fixed, want 30", mode, k)
		}
		if s, _ := newProp(context.Background(), a); s == nil {
			t.Errorf("%s: fixed queens attack each other", mode)
		}
	}
	if _, err := Generate(context.Background(), 3, 1, FromSolution, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("n=3 from a solution accepted")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	fixed := make([]int32, 18)
	for i := range fixed {
		fixed[i] = -1
	}
	start := time.Now()
	_, _, err := Count(ctx, fixed, nil)
	if err != context.DeadlineExceeded || time.Since(start) > 2*time.Second {
		t.Errorf("count: %v after %v", err, time.Since(start))
	}
}

func TestAttackingFixedQueens(t *testing.T) {
	p := []int32{0, 1, -1, -1, -1}
	if n, _, err := Count(context.Background(), p, nil); n != 0 || err != nil {
		t.Errorf("count %d %v", n, err)
	}
	if _, _, err := Find(context.Background(), p, Options{}); err != ErrNoCompletion {
		t.Errorf("find: %v", err)
	}
}

// TestFindLargeBoards: on boards whose propagation search the memory limit cannot hold,
// instances from solutions are completed by the O(n) local search (engine sosic-gu), the
// fixed queens in place, from one queen to half of them; before, such a board needed
// 24·n² bytes (2 GB at n = 10^4, 241 GB at 10^5).
func TestFindLargeBoards(t *testing.T) {
	ns := []int{2000, 100_000}
	if !testing.Short() {
		ns = append(ns, 1_000_000)
	}
	for _, n := range ns {
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		for _, k := range []int{1, n / 1000, n / 10, n / 2} {
			p, err := Generate(context.Background(), n, k, FromSolution, rng)
			if err != nil {
				t.Fatal(err)
			}
			q, st, err := Find(context.Background(), p, Options{Rand: rng, MemoryLimit: 64 << 20})
			if err != nil || st.Engine != LocalSearch {
				t.Fatalf("n=%d k=%d: %v (%+v)", n, k, err, st)
			}
			if e := valid(q, p); e != nil {
				t.Fatalf("n=%d k=%d: %v", n, k, e)
			}
		}
	}
}

// TestFindUnknown: when the local search gives up and the propagation search does not fit
// the memory limit, the answer is ErrUnknown, never ErrNoCompletion; with the memory, the
// same instances are decided. Instances: the corner of n = 4 (no completion), and random
// instances of n = 20 with 11 queens, about half of which have none.
func TestFindUnknown(t *testing.T) {
	ctx := context.Background()
	corner := []int32{0, -1, -1, -1}
	if _, _, err := Find(ctx, corner, Options{MemoryLimit: 100, Runs: 3}); err != ErrUnknown {
		t.Errorf("corner of n=4, no memory for the complete search: %v, want ErrUnknown", err)
	}
	if _, _, err := Find(ctx, corner, Options{}); err != ErrNoCompletion {
		t.Errorf("corner of n=4: %v, want ErrNoCompletion", err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	unknown, none := 0, 0
	for range 20 {
		p, err := Generate(ctx, 20, 11, Random, rng)
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := Find(ctx, p, Options{Rand: rng, MemoryLimit: 10_000, Runs: 4})
		switch {
		case err == ErrUnknown:
			unknown++
		case err != nil:
			t.Fatalf("without the complete search: %v", err)
		case valid(q, p) != nil:
			t.Fatalf("invalid completion: %v", valid(q, p))
		}
		if _, _, err := Find(ctx, p, Options{Rand: rng}); err == ErrNoCompletion {
			none++
		} else if err != nil {
			t.Fatalf("with the complete search: %v", err)
		}
	}
	if unknown < none || none == 0 {
		t.Errorf("%d instances without completion, %d unknown without the complete search", none, unknown)
	}
	t.Logf("%d of 20 without completion, %d unknown without the complete search", none, unknown)
}

// TestCountProgressMoves: the progress of a count moves every reportNodes nodes or so,
// not only after whole branches of the first two choices (complete 20 --fix 1:1 --count
// showed nothing for hours), never goes back, and ends at the total.
func TestCountProgressMoves(t *testing.T) {
	fixed := make([]int32, 14)
	for i := range fixed {
		fixed[i] = -1
	}
	fixed[0] = 0
	s, ok := newProp(context.Background(), fixed)
	if !ok {
		t.Fatal("no search")
	}
	s.reportNodes = 64
	var prev, gap, last, total uint64
	back := false
	s.counting = true
	s.progress = func(done, tot uint64) {
		gap, prev = max(gap, s.nodes-prev), s.nodes
		back = back || done < last
		last, total = done, tot
	}
	if _, err := s.search(0); err != nil {
		t.Fatal(err)
	}
	if back || last != total {
		t.Errorf("the progress went back (%v) or ended at %d of %d", back, last, total)
	}
	if gap = max(gap, s.nodes-prev); gap > 4*s.reportNodes {
		t.Errorf("%d nodes without a report (of %d), want about %d at most", gap, s.nodes, s.reportNodes)
	}
}
