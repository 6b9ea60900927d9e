package nqueens_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// doneIn is done for a run whose phases may repeat: each is one of want.
func (p *progressProbe) doneIn(want ...string) {
	p.returned.Store(true)
	time.Sleep(20 * time.Millisecond)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ph := range p.phases {
		if !slices.Contains(want, ph) {
			p.t.Errorf("%s: phase %q, want one of %q", p.name, ph, want)
		}
	}
	if p.calls == 0 {
		p.t.Errorf("%s: no call", p.name)
	}
}

// lastDone is the Done of the last call in phase.
func (p *progressProbe) lastDone(phase string) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last[phase]
}

// TestProgressPromises: every long-running entry point reports through the one hook
// shape, one call at a time (the plain counter's workers report concurrently inside),
// never going back, never after it returned.
func TestProgressPromises(t *testing.T) {
	ctx := context.Background()
	for _, workers := range []int{1, 4} {
		p := newProbe(t, fmt.Sprintf("Count, %d workers", workers))
		if _, err := nqueens.Count(ctx, 12, nqueens.CountOptions{Workers: workers, Progress: p.hook}); err != nil {
			t.Fatal(err)
		}
		p.done("count")
	}
	if !testing.Short() {
		p := newProbe(t, "Solve")
		if _, err := nqueens.Solve(ctx, 3_000_000, nqueens.SolveOptions{Algorithm: nqueens.LocalSearch, Seed: 1, Progress: p.hook}); err != nil {
			t.Fatal(err)
		}
		p.done("initial", "final", "verify")
	}
}

// TestProgressListing: Enumerate and WriteSolutions report the solutions listed, in every
// format, the last call at the published count (or the limit).
func TestProgressListing(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opt  nqueens.EnumerateOptions
		want uint64
	}{
		{nqueens.EnumerateOptions{Workers: 2}, 14200},
		{nqueens.EnumerateOptions{Workers: 1, Limit: 5000}, 5000},
		{nqueens.EnumerateOptions{Unique: true}, 1787},
	} {
		for _, f := range []nqueens.Format{nqueens.Text, nqueens.Board, nqueens.JSON} {
			p := newProbe(t, fmt.Sprintf("WriteSolutions %s %+v", f, c.opt))
			c.opt.Progress = p.hook
			if _, err := nqueens.WriteSolutions(ctx, io.Discard, f, 12, c.opt); err != nil {
				t.Fatal(err)
			}
			p.done("list")
			if got := p.lastDone("list"); got != c.want {
				t.Errorf("%s: last report %d, want %d", p.name, got, c.want)
			}
		}
		p := newProbe(t, fmt.Sprintf("Enumerate %+v", c.opt))
		c.opt.Progress = p.hook
		if _, err := nqueens.Enumerate(ctx, 12, c.opt, func(nqueens.Placement, int) bool { return true }); err != nil {
			t.Fatal(err)
		}
		p.done("list")
		if got := p.lastDone("list"); got != c.want {
			t.Errorf("%s: last report %d, want %d", p.name, got, c.want)
		}
	}
}

// TestProgressCompletion: FindCompletion and CountCompletions report through the hook;
// a count's last report is its Total.
func TestProgressCompletion(t *testing.T) {
	ctx := context.Background()
	p := newProbe(t, "CountCompletions")
	partial, _ := nqueens.ParsePartial("1:2", 13)
	var total uint64
	p2 := func(pr nqueens.Progress) { p.hook(pr); total = pr.Total }
	if res, err := nqueens.CountCompletions(ctx, partial, nqueens.CompletionOptions{Progress: p2}); err != nil || res.Total == 0 {
		t.Fatal(res.Total, err)
	}
	p.done("count")
	if got := p.lastDone("count"); got != total || total == 0 {
		t.Errorf("CountCompletions: last report %d of %d", got, total)
	}
	p = newProbe(t, "CountCompletions, nothing fixed")
	empty, _ := nqueens.ParsePartial("", 11)
	if _, err := nqueens.CountCompletions(ctx, empty, nqueens.CompletionOptions{Progress: p.hook}); err != nil {
		t.Fatal(err)
	}
	p.done("count")
	for _, n := range []int{30, 3000} { // the complete search's rounds; the local search of large boards
		p = newProbe(t, fmt.Sprintf("FindCompletion %d", n))
		partial, _ := nqueens.ParsePartial("1:1", n)
		if _, err := nqueens.FindCompletion(ctx, partial, nqueens.CompletionOptions{Seed: 1, Progress: p.hook}); err != nil {
			t.Fatal(err)
		}
		p.doneIn("round", "initial", "final")
	}
}

// TestProgressVerify: VerifyBinary reports the rows read, out of a file's rows; from a
// stream, with Total unknown; VerifyPlacements the placements verified.
func TestProgressVerify(t *testing.T) {
	ctx := context.Background()
	const n = 3<<20 + 5
	res, err := nqueens.Solve(ctx, n, nqueens.SolveOptions{Algorithm: nqueens.Construct})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	nqueens.WritePlacement(context.Background(), &b, nqueens.Binary, res.Placement)
	path := filepath.Join(t.TempDir(), "q.bin")
	os.WriteFile(path, b.Bytes(), 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newProbe(t, "VerifyBinary, a file")
	var totals []uint64
	if got, err := nqueens.VerifyBinary(ctx, f, nqueens.VerifyOptions{Progress: func(pr nqueens.Progress) { p.hook(pr); totals = append(totals, pr.Total) }}); got != n || err != nil {
		t.Fatal(got, err)
	}
	p.done("verify")
	if got := p.lastDone("verify"); got != n || len(totals) < 3 || totals[0] != n {
		t.Errorf("a file: last report %d, totals %v; want %d of %d", got, totals, n, n)
	}
	p = newProbe(t, "VerifyBinary, a stream")
	totals = nil
	if got, err := nqueens.VerifyBinary(ctx, bytes.NewReader(b.Bytes()), nqueens.VerifyOptions{Progress: func(pr nqueens.Progress) { p.hook(pr); totals = append(totals, pr.Total) }}); got != n || err != nil {
		t.Fatal(got, err)
	}
	p.done("verify")
	if got := p.lastDone("verify"); got != n || slices.Max(totals) != 0 {
		t.Errorf("a stream: last report %d, totals %v; want %d, unknown", got, totals, n)
	}
	p = newProbe(t, "VerifyPlacements")
	for _, err := range nqueens.VerifyPlacements(ctx, strings.NewReader("2 4 1 3\n3 1 4 2\n1 2\n"), nqueens.VerifyOptions{Progress: p.hook}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	p.done("verify")
	if got := p.lastDone("verify"); got != 3 {
		t.Errorf("VerifyPlacements: last report %d, want 3", got)
	}
}
