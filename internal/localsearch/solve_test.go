package localsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/rules"
)

// check is the test's own verifier, written without the package's bitsets: plain bool
// slices indexed by column, r+c and r−c+n−1. It returns "" or a description of the fault.
func check(q []int32) string {
	n := len(q)
	col := make([]bool, n)
	anti := make([]bool, 2*n)
	diag := make([]bool, 2*n)
	for r, c32 := range q {
		c := int(c32)
		if c < 0 || c >= n {
			return fmt.Sprintf("row %d: column %d off the board", r, c)
		}
		if col[c] {
			return fmt.Sprintf("row %d: column %d used twice", r, c)
		}
		if anti[r+c] {
			return fmt.Sprintf("row %d: anti-diagonal %d used twice", r, r+c)
		}
		if diag[r-c+n-1] {
			return fmt.Sprintf("row %d: diagonal %d used twice", r, r-c)
		}
		col[c], anti[r+c], diag[r-c+n-1] = true, true, true
	}
	return ""
}

// modes are the two initial-search loops; both must pass every test.
var modes = []struct {
	name  string
	plain bool
}{{"pipelined", false}, {"plain", true}}

func solveOK(t *testing.T, n int, opt Options) ([]int32, Stats) {
	t.Helper()
	q, st, err := Solve(context.Background(), n, opt)
	if err != nil {
		t.Fatalf("n=%d seed=%d plain=%v: %v", n, opt.Seed, opt.Plain, err)
	}
	if len(q) != n {
		t.Fatalf("n=%d seed=%d: got %d rows", n, opt.Seed, len(q))
	}
	if msg := check(q); msg != "" {
		t.Fatalf("n=%d seed=%d plain=%v: invalid placement: %s (stats %+v)", n, opt.Seed, opt.Plain, msg, st)
	}
	return q, st
}

func TestTrivialBoards(t *testing.T) {
	ctx := context.Background()
	q, _, err := Solve(ctx, 1, Options{})
	if err != nil || !slices.Equal(q, []int32{0}) {
		t.Errorf("n=1: got %v, %v; want [0], nil", q, err)
	}
	for _, n := range []int{2, 3} {
		start := time.Now()
		q, _, err := Solve(ctx, n, Options{Seed: 7})
		if !errors.Is(err, rules.ErrNoSolution) || q != nil {
			t.Errorf("n=%d: got %v, %v; want nil, rules.ErrNoSolution", n, q, err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("n=%d took %v, want immediate", n, d)
		}
	}
	for _, n := range []int{0, -1, -1 << 40} {
		if _, _, err := Solve(ctx, n, Options{}); err == nil {
			t.Errorf("n=%d: no error", n)
		}
	}
	if _, _, err := Solve(ctx, MaxN+1, Options{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("n=MaxN+1: got %v, want ErrTooLarge", err)
	}
	// Refused before allocating: a limit of 1 KB for a board of 10^6.
	if _, _, err := Solve(ctx, 1_000_000, Options{MemoryLimit: 1000}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MemoryLimit: got %v, want ErrTooLarge", err)
	}
}

func TestSmallBoardsAllSeeds(t *testing.T) {
	for n := 4; n <= 300; n++ {
		for seed := 1; seed <= 200; seed++ {
			solveOK(t, n, Options{Seed: uint64(seed)})
		}
	}
}

func TestLargeBoards(t *testing.T) {
	n, seeds := 100_000, 50
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			var restarts, retries int64
			for seed := 1; seed <= seeds; seed++ {
				_, st := solveOK(t, n, Options{Seed: uint64(seed), Plain: m.plain})
				if st.K >= 200 {
					t.Errorf("seed %d: k = %d, want < 200", seed, st.K)
				}
				if st.Attempts < int64(n)*308/100 || st.Attempts > int64(n)*308/100*(st.Restarts+1) {
					t.Errorf("seed %d: %d attempts for %d runs", seed, st.Attempts, st.Restarts+1)
				}
				restarts += st.Restarts
				retries += st.Retries
			}
			t.Logf("n=%d, %d seeds: %d restarts, %d final retries", n, seeds, restarts, retries)
		})
	}
}

func TestSameSeedSamePlacement(t *testing.T) {
	for _, m := range modes {
		for _, n := range []int{4, 8, 50, 201, 5000, 300_000} {
			a, sa := solveOK(t, n, Options{Seed: 42, Plain: m.plain})
			b, sb := solveOK(t, n, Options{Seed: 42, Plain: m.plain})
			if !slices.Equal(a, b) || sa != sb {
				t.Errorf("%s n=%d: same seed, different results", m.name, n)
			}
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	for _, n := range []int{50, 1000, 300_000} {
		seen := map[string]bool{}
		for seed := uint64(1); seed <= 10; seed++ {
			q, _ := solveOK(t, n, Options{Seed: seed})
			seen[fmt.Sprint(q[:min(n, 50)])] = true
		}
		if len(seen) < 9 {
			t.Errorf("n=%d: 10 seeds gave only %d different placements", n, len(seen))
		}
	}
}

func TestScratchReuse(t *testing.T) {
	n := 100_003
	scratch := make([]uint64, ScratchWords(n))
	for i := range scratch {
		scratch[i] = ^uint64(0) // garbage must not matter
	}
	q, _ := solveOK(t, n, Options{Seed: 3, Scratch: scratch})
	if why := check(q); why != "" {
		t.Fatalf("with a dirty scratch: %s", why)
	}
	q2, _ := solveOK(t, n, Options{Seed: 3})
	if !slices.Equal(q, q2) {
		t.Error("scratch changed the placement")
	}
}

func TestCancel(t *testing.T) {
	n := 30_000_000
	if testing.Short() {
		n = 10_000_000
	}
	for _, m := range modes {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, _, err := Solve(ctx, n, Options{Seed: 1, Plain: m.plain, AttemptFactor: 1e3})
		d := time.Since(start)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", m.name, err)
		}
		if d > time.Second {
			t.Errorf("%s: returned %v after start, want well under a second after cancel", m.name, d)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Solve(ctx, 1000, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before start: got %v", err)
	}
}

func TestProgress(t *testing.T) {
	var phases []string
	var last uint64
	_, _ = solveOK(t, 1_000_000, Options{Seed: 1, Progress: func(p string, done, total uint64) {
		if done > total || (p == "initial" && total != 1_000_000*308/100) {
			t.Errorf("%s: %d of %d", p, done, total)
		}
		if p == "initial" && done < last {
			t.Errorf("attempts went back: %d after %d", done, last)
		}
		last = done
		if len(phases) == 0 || phases[len(phases)-1] != p {
			phases = append(phases, p)
		}
	}})
	if !slices.Equal(phases, []string{"initial", "final"}) {
		t.Errorf("phases %v", phases)
	}
}

// TestKBounded checks docs/algorithms.md §3.6's expectations on k and the final search at a few sizes.
func TestKBounded(t *testing.T) {
	for _, n := range []int{10_000, 1_000_000} {
		var ks, failed int64
		const runs = 5
		for seed := uint64(1); seed <= runs; seed++ {
			_, st := solveOK(t, n, Options{Seed: seed})
			ks += st.K
			failed += st.FinalFailed
		}
		t.Logf("n=%d: mean k %.1f, mean failed final swaps %.0f", n, float64(ks)/runs, float64(failed)/runs)
		if ks/runs > 100 || ks/runs < 3 {
			t.Errorf("n=%d: mean k = %d, want around 20-30", n, ks/runs)
		}
	}
}
