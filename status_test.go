package nqueens_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/conformance"
)

// TestStatusOnEveryReturn: every entry point sets Status on every return, errors
// included, and Status.String never panics.
func TestStatusOnEveryReturn(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	count := func(n int, ctx context.Context) nqueens.Status {
		r, _ := nqueens.Count(ctx, n, nqueens.CountOptions{})
		return r.Status
	}
	solve := func(n int, a nqueens.Algorithm, ctx context.Context) nqueens.Status {
		r, _ := nqueens.Solve(ctx, n, nqueens.SolveOptions{Algorithm: a, Seed: 1})
		return r.Status
	}
	enum := func(n int, ctx context.Context) nqueens.Status {
		r, _ := nqueens.Enumerate(ctx, n, nqueens.EnumerateOptions{}, func(nqueens.Placement, int) bool { return true })
		return r.Status
	}
	complete := func(p nqueens.Partial, ctx context.Context) nqueens.Status {
		r, _ := nqueens.FindCompletion(ctx, p, nqueens.CompletionOptions{Seed: 1})
		return r.Status
	}
	// The corner of n = 4 has no completion, but with no memory for the complete search
	// the local search alone cannot say so.
	r, _ := nqueens.FindCompletion(ctx, nqueens.Partial{0, -1, -1, -1}, nqueens.CompletionOptions{MaxMemory: 100, Runs: 2})
	undecided := r.Status
	cases := []struct {
		name      string
		got, want nqueens.Status
	}{
		{"Count(8)", count(8, ctx), nqueens.Complete},
		{"Count(40)", count(40, ctx), nqueens.Failed},
		{"Count(0)", count(0, ctx), nqueens.Failed},
		{"Count(14) cancelled", count(14, cancelled), nqueens.Interrupted},
		{"Solve(8)", solve(8, nqueens.Auto, ctx), nqueens.Complete},
		{"Solve(3)", solve(3, nqueens.Auto, ctx), nqueens.NoSolution},
		{"Solve(0)", solve(0, nqueens.Auto, ctx), nqueens.Failed},
		{"Solve(200, backtrack)", solve(200, nqueens.Backtrack, ctx), nqueens.Failed},
		{"Solve(1e6) cancelled", solve(1e6, nqueens.LocalSearch, cancelled), nqueens.Interrupted},
		{"Enumerate(6)", enum(6, ctx), nqueens.Complete},
		{"Enumerate(3)", enum(3, ctx), nqueens.NoSolution},
		{"Enumerate(99)", enum(99, ctx), nqueens.Failed},
		{"FindCompletion ok", complete(nqueens.Partial{0, -1, -1, -1, -1, -1, -1, -1}, ctx), nqueens.Complete},
		{"FindCompletion none", complete(nqueens.Partial{0, 2, -1, -1, -1, -1, -1, -1}, ctx), nqueens.NoSolution},
		{"FindCompletion attack", complete(nqueens.Partial{0, 1, -1, -1}, ctx), nqueens.Failed},
		{"FindCompletion undecided", undecided, nqueens.Undecided},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: status %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, s := range []nqueens.Status{nqueens.Unknown, nqueens.Failed, nqueens.Undecided, -1, 99} {
		if s.String() == "" {
			t.Errorf("Status(%d) has no name", int(s))
		}
	}
}

// TestCounterConformance runs the suite every counter runs on Count, with each kernel
// name it takes (the unavailable ones are refused with ErrKernel).
func TestCounterConformance(t *testing.T) {
	for _, kernel := range []string{"", "go", "avx2", "avx512"} {
		t.Run("kernel="+kernel, func(t *testing.T) {
			if _, err := nqueens.Count(context.Background(), 10, nqueens.CountOptions{Kernel: kernel}); errors.Is(err, nqueens.ErrKernel) {
				t.Skipf("%s: %v", kernel, err)
			}
			conformance.Counter(t, conformance.CounterSpec{MaxN: 12, SlowN: 20,
				Count: func(ctx context.Context, n int) (uint64, uint64, error) {
					r, err := nqueens.Count(ctx, n, nqueens.CountOptions{Workers: 2, Kernel: kernel})
					return r.Total.Lo, r.Unique.Lo, err
				}})
		})
	}
}

// TestCountOptions: a kernel that is no kernel fails every count, whatever n, before any
// work, with ErrKernel; the environment is not read (only the command reads
// NQUEENS_KERNEL); MaxMemory below CountMemory is a *MemoryError naming both.
func TestCountOptions(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{4, 12} {
		r, err := nqueens.Count(ctx, n, nqueens.CountOptions{Kernel: "sse"})
		if !errors.Is(err, nqueens.ErrKernel) || r.Status != nqueens.Failed || r.Total != (nqueens.Uint128{}) {
			t.Errorf("n=%d, kernel sse: %+v, %v", n, r, err)
		}
	}
	// The result names the kernel that counted: the one asked for, the one auto picks,
	// none below the join.
	for _, k := range []string{"go", "avx2", "avx512", "", "auto"} {
		r, err := nqueens.Count(ctx, 12, nqueens.CountOptions{Kernel: k})
		switch {
		case errors.Is(err, nqueens.ErrKernel) && k != "go" && k != "" && k != "auto":
			continue // this CPU does not run it
		case err != nil || r.Total.Lo != 14200:
			t.Errorf("n=12, kernel %q: %+v, %v", k, r, err)
		case k != "" && k != "auto" && r.Kernel != k, (k == "" || k == "auto") && (r.Kernel == "" || r.Kernel == "auto" || r.Kernel == "none"):
			t.Errorf("n=12, kernel %q: counted by %q", k, r.Kernel)
		}
	}
	if r, err := nqueens.Count(ctx, 8, nqueens.CountOptions{Kernel: "go"}); err != nil || r.Kernel != "none" {
		t.Errorf("n=8 counts without a kernel: %q, %v", r.Kernel, err)
	}
	// The result says how many goroutines counted: the setting, or one per CPU for 0.
	for w, want := range map[int]int{0: runtime.GOMAXPROCS(0), 1: 1, 3: 3} {
		if r, err := nqueens.Count(ctx, 11, nqueens.CountOptions{Workers: w}); err != nil || r.Workers != want {
			t.Errorf("n=11 on Workers %d: counted on %d, want %d (%v)", w, r.Workers, want, err)
		}
	}
	t.Setenv("NQUEENS_KERNEL", "sse")
	if r, err := nqueens.Count(ctx, 12, nqueens.CountOptions{Kernel: "go"}); err != nil || r.Total.Lo != 14200 {
		t.Errorf("kernel go with NQUEENS_KERNEL=sse in the environment: %+v, %v", r, err)
	}
	need := nqueens.CountMemory(16, 2)
	_, err := nqueens.Count(ctx, 16, nqueens.CountOptions{Workers: 2, MaxMemory: int64(need) - 1})
	var me *nqueens.MemoryError
	if !errors.As(err, &me) || me.Need != int64(need) || me.Have != int64(need)-1 {
		t.Errorf("MaxMemory one byte short: %v", err)
	}
	if r, err := nqueens.Count(ctx, 10, nqueens.CountOptions{MaxMemory: int64(nqueens.CountMemory(10, 0))}); err != nil || r.Total.Lo != 724 {
		t.Errorf("MaxMemory just enough: %+v, %v", r, err)
	}
}

// TestFinderConformance runs the suite every finder runs on each algorithm, through
// Solve.
func TestFinderConformance(t *testing.T) {
	for _, c := range []struct {
		a     nqueens.Algorithm
		ns    []int
		slowN int
	}{
		{nqueens.LocalSearch, []int{4, 5, 8, 50, 1000, 100_000}, 30_000_000},
		{nqueens.Construct, []int{4, 5, 8, 9, 14, 15, 1000, 100_001}, 0},
		{nqueens.Backtrack, []int{4, 5, 8, 20, 28}, 0},
		{nqueens.Auto, []int{4, 8, 21, 1000}, 30_000_000},
	} {
		t.Run(string(c.a), func(t *testing.T) {
			conformance.Finder(t, conformance.FinderSpec{Ns: c.ns, Seeded: true, SlowN: c.slowN,
				Find: func(ctx context.Context, n int, seed uint64) ([]int32, error) {
					r, err := nqueens.Solve(ctx, n, nqueens.SolveOptions{Algorithm: c.a, Seed: seed})
					return r.Placement, err
				}})
		})
	}
}
