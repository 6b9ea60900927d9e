package nqueens_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

// progressProbe is a Progress hook that checks the promises of nqueens.Progress: calls
// never overlap, Done never decreases within a phase and stays within a known Total, and
// no call comes after the entry point returned (returned, then wait a little).
type progressProbe struct {
	t        *testing.T
	name     string
	inFlight atomic.Int32
	returned atomic.Bool
	mu       sync.Mutex
	calls    int
	phases   []string
	last     map[string]uint64
}

func newProbe(t *testing.T, name string) *progressProbe {
	return &progressProbe{t: t, name: name, last: map[string]uint64{}}
}

func (p *progressProbe) hook(pr nqueens.Progress) {
	if p.inFlight.Add(1) > 1 {
		p.t.Errorf("%s: two calls of the hook at once", p.name)
	}
	defer p.inFlight.Add(-1)
	if p.returned.Load() {
		p.t.Errorf("%s: a call after the entry point returned: %+v", p.name, pr)
	}
	time.Sleep(50 * time.Microsecond) // room for another call to come in
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if len(p.phases) == 0 || p.phases[len(p.phases)-1] != pr.Phase {
		p.phases = append(p.phases, pr.Phase)
		p.last[pr.Phase] = 0
	}
	if pr.Done < p.last[pr.Phase] {
		p.t.Errorf("%s: %s went back from %d to %d", p.name, pr.Phase, p.last[pr.Phase], pr.Done)
	}
	if pr.Total > 0 && pr.Done > pr.Total {
		p.t.Errorf("%s: %s: done %d of %d", p.name, pr.Phase, pr.Done, pr.Total)
	}
	if f := pr.Fraction(); f < 0 || f > 1 {
		p.t.Errorf("%s: fraction %v", p.name, f)
	}
	p.last[pr.Phase] = pr.Done
}

// done marks the return of the entry point and checks that the hook was called, in the
// phases want (in this order, each at least once), and not after.
func (p *progressProbe) done(want ...string) {
	p.returned.Store(true)
	time.Sleep(20 * time.Millisecond)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls == 0 || fmt.Sprint(p.phases) != fmt.Sprint(want) {
		p.t.Errorf("%s: %d calls in phases %q, want phases %q", p.name, p.calls, p.phases, want)
	}
}

// TestProgressPromises: every long-running entry point reports through the one hook
// shape, one call at a time (the plain counter's workers report concurrently inside),
// never going back, never after it returned.
func TestProgressPromises(t *testing.T) {
	ctx := context.Background()
	for _, workers := range []int{1, 4} {
		p := newProbe(t, fmt.Sprintf("PlainCounter, %d workers", workers))
		if _, err := (nqueens.PlainCounter{Workers: workers, Progress: p.hook}).Count(ctx, 11); err != nil {
			t.Fatal(err)
		}
		p.done("count")
		p = newProbe(t, fmt.Sprintf("Count, %d workers", workers))
		if _, err := nqueens.Count(ctx, 12, nqueens.CountOptions{Workers: workers, Progress: p.hook}); err != nil {
			t.Fatal(err)
		}
		p.done("count")
	}
	plan, err := nqueens.NewPlan(ctx, 12)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := newProbe(t, "CountCheckpointed")
	if _, err := nqueens.CountCheckpointed(ctx, plan, nqueens.ShardOptions{Workers: 4, Checkpoint: filepath.Join(dir, "ck"), Progress: p.hook}); err != nil {
		t.Fatal(err)
	}
	p.done("count")
	p = newProbe(t, "CountShard")
	if _, err := nqueens.CountShard(ctx, plan, 1, 2, dir, nqueens.ShardOptions{Workers: 4, Progress: p.hook}); err != nil {
		t.Fatal(err)
	}
	p.done("count")
	if !testing.Short() {
		p = newProbe(t, "Solve")
		if _, err := nqueens.Solve(ctx, 3_000_000, nqueens.SolveOptions{Algorithm: nqueens.LocalSearch, Seed: 1, Progress: p.hook}); err != nil {
			t.Fatal(err)
		}
		p.done("initial", "final", "verify")
	}
}
