// Package conformance holds the tests that every counter, every finder and every verifier
// of nqueens runs, whatever its algorithm. Counter: the known counts of the OEIS tables, a
// refusal of sizes out of range, a prompt return on cancellation. Finder: every placement
// is a solution, the boards without one say so, the same seed gives the same answer, a
// prompt return on cancellation. Verifier: the same verdict as a plain checker of this
// package on every solution of the small boards, every single change of them, random
// placements and the edge cases. A test calls them with an adapter; see the tests of
// refcount, fastcount, qjoin and the root package.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/rules"
)

// CountFunc is a counter as the suite sees it: the total and unique counts of the n×n
// board, or an error.
type CountFunc func(ctx context.Context, n int) (total, unique uint64, err error)

// CounterSpec describes a counter to the suite.
type CounterSpec struct {
	Count CountFunc
	// MinN is the smallest n the counter accepts (0 means 1); MaxN is the largest n
	// checked against the tables (keep the test short); Limit is the largest n the
	// counter accepts (0: no upper limit is checked).
	MinN, MaxN, Limit int
	// SlowN is a size that takes well over a second; 0 skips the cancellation check.
	SlowN int
}

// Counter runs the suite on c.
func Counter(t *testing.T, c CounterSpec) {
	t.Helper()
	ctx := context.Background()
	minN := max(c.MinN, 1)
	for n := minN; n <= c.MaxN; n++ {
		total, unique, err := c.Count(ctx, n)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if total != oeis.Total(n) || unique != oeis.Unique(n) {
			t.Errorf("n=%d: total %d unique %d, want %d and %d (A000170, A002562)",
				n, total, unique, oeis.Total(n), oeis.Unique(n))
		}
	}
	for _, n := range []int{minN - 1, 0, -1} {
		if _, _, err := c.Count(ctx, n); err == nil {
			t.Errorf("n=%d: accepted", n)
		}
	}
	if c.Limit > 0 {
		if _, _, err := c.Count(ctx, c.Limit+1); err == nil {
			t.Errorf("n=%d: accepted beyond the limit %d", c.Limit+1, c.Limit)
		}
	}
	if c.SlowN > 0 {
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, _, err := c.Count(cctx, c.SlowN)
		if took := time.Since(start); took > time.Second+100*time.Millisecond {
			t.Errorf("n=%d: returned %v after the cancellation", c.SlowN, took-100*time.Millisecond)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("n=%d cancelled: %v, want context.Canceled", c.SlowN, err)
		}
	}
}

// FindFunc is a finder as the suite sees it: one solution of the n×n board (0-based
// columns), drawn with seed where the finder is random.
type FindFunc func(ctx context.Context, n int, seed uint64) ([]int32, error)

// FinderSpec describes a finder to the suite.
type FinderSpec struct {
	Find FindFunc
	Ns   []int // sizes to solve and check
	// Seeded: the same seed gives the same placement (every finder of nqueens is
	// deterministic for a given seed).
	Seeded bool
	// SlowN is a size that takes well over a second; 0 skips the cancellation check.
	SlowN int
}

// Finder runs the suite on f: every placement is a solution (checked here, independently
// of the verifiers of nqueens), n = 1 has its one solution, n = 2 and 3 give
// rules.ErrNoSolution, the same seed gives the same placement, and a cancellation is
// honoured within a second.
func Finder(t *testing.T, f FinderSpec) {
	t.Helper()
	ctx := context.Background()
	for _, n := range append([]int{1}, f.Ns...) {
		q, err := f.Find(ctx, n, 1)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if why := solution(n, q); why != "" {
			t.Fatalf("n=%d: not a solution: %s", n, why)
		}
		if f.Seeded {
			again, err := f.Find(ctx, n, 1)
			if err != nil || !slices.Equal(q, again) {
				t.Errorf("n=%d: seed 1 gave two placements (%v)", n, err)
			}
		}
	}
	for _, n := range []int{2, 3} {
		if _, err := f.Find(ctx, n, 1); !errors.Is(err, rules.ErrNoSolution) {
			t.Errorf("n=%d: %v, want ErrNoSolution", n, err)
		}
	}
	if _, err := f.Find(ctx, 0, 1); err == nil {
		t.Error("n=0: accepted")
	}
	if f.SlowN > 0 {
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := f.Find(cctx, f.SlowN, 1)
		if took := time.Since(start); took > time.Second+50*time.Millisecond {
			t.Errorf("n=%d: returned %v after the cancellation", f.SlowN, took-50*time.Millisecond)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("n=%d cancelled: %v, want context.Canceled", f.SlowN, err)
		}
	}
}

// solution says why q is not a solution of the n×n board, or "" if it is: a plain check
// with maps, sharing no code with the verifiers it tests.
func solution(n int, q []int32) string {
	if len(q) != n {
		return fmt.Sprintf("%d rows", len(q))
	}
	cols, dia, anti := map[int32]bool{}, map[int32]bool{}, map[int32]bool{}
	for r, c := range q {
		switch d, a := int32(r)-c, int32(r)+c; {
		case c < 0 || int(c) >= n:
			return fmt.Sprintf("row %d: column %d off the board", r, c)
		case cols[c] || dia[d] || anti[a]:
			return fmt.Sprintf("row %d: the queen in column %d is attacked", r, c)
		default:
			cols[c], dia[d], anti[a] = true, true, true
		}
	}
	return ""
}

// VerifyFunc is a verifier as the suite sees it: whether q (0-based columns, one per row)
// is a solution of the len(q)×len(q) board.
type VerifyFunc func(q []int32) bool

// VerifierSpec describes a verifier to the suite.
type VerifierSpec struct {
	Valid VerifyFunc
	// MaxN is the largest board checked (the exhaustive part stops at 9); 0 means 40.
	MaxN int
	// NoNegative skips the placements with negative columns (a binary input has none);
	// NoEmpty skips the empty board (a stream of no rows is no placement).
	NoNegative, NoEmpty bool
}

// Verifier runs the suite on v: against the plain checker solution, on every solution of
// the boards up to 9 and every change of one of their columns (to every other column,
// one off the board on each side), on random placements and permutations up to MaxN,
// and on the empty board.
func Verifier(t *testing.T, v VerifierSpec) {
	t.Helper()
	maxN := v.MaxN
	if maxN == 0 {
		maxN = 40
	}
	try := func(q []int32) {
		t.Helper()
		if v.NoNegative && slices.ContainsFunc(q, func(c int32) bool { return c < 0 }) {
			return
		}
		want := solution(len(q), q) == ""
		if got := v.Valid(slices.Clone(q)); got != want {
			t.Fatalf("%v: verifier says valid=%v, the plain check says %v (%s)", q, got, want, solution(len(q), q))
		}
	}
	if !v.NoEmpty {
		try([]int32{})
	}
	for n := 1; n <= min(9, maxN); n++ {
		for _, q := range allSolutions(n) {
			try(q)
			for r := range n {
				keep := q[r]
				for c := int32(-1); c <= int32(n); c++ {
					q[r] = c
					try(q)
				}
				q[r] = keep
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		n := 1 + rng.IntN(maxN)
		q := make([]int32, n)
		if rng.IntN(2) == 0 {
			for i, c := range rng.Perm(n) {
				q[i] = int32(c)
			}
		} else {
			for i := range q {
				q[i] = int32(rng.IntN(n+2)) - 1
			}
		}
		try(q)
	}
}

// allSolutions lists the solutions of the n×n board by plain backtracking, sharing no
// code with the searches of nqueens.
func allSolutions(n int) [][]int32 {
	var out [][]int32
	q := make([]int32, 0, n)
	var place func()
	place = func() {
		if len(q) == n {
			out = append(out, slices.Clone(q))
			return
		}
		for c := range int32(n) {
			q = append(q, c)
			if attacksNone(q) {
				place()
			}
			q = q[:len(q)-1]
		}
	}
	place()
	return out
}

// attacksNone reports whether the queens of q attack no other (q may be shorter than the
// board).
func attacksNone(q []int32) bool {
	for i := range q {
		for j := range i {
			d := q[i] - q[j]
			if d == 0 || d == int32(i-j) || d == int32(j-i) {
				return false
			}
		}
	}
	return true
}
