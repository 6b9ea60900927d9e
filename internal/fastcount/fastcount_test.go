package fastcount

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/conformance"
	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/u128"
)

// refSolutions enumerates every solution by plain row-by-row search with an
// array of columns (no bitboards, no symmetry) and calls visit on each.
func refSolutions(n int, visit func(col []int)) {
	col := make([]int, n)
	var rec func(r int)
	rec = func(r int) {
		if r == n {
			visit(col)
			return
		}
	next:
		for c := 0; c < n; c++ {
			for rr := 0; rr < r; rr++ {
				d := col[rr] - c
				if d == 0 || d == r-rr || d == rr-r {
					continue next
				}
			}
			col[r] = c
			rec(r + 1)
		}
	}
	rec(0)
}

// refStab counts the symmetries of the square that fix a placement, by
// building each of the 8 images as a set of squares.
func refStab(col []int) int {
	n := len(col)
	k := 0
	for g := 0; g < 8; g++ {
		same := true
		for r, c := range col {
			x, y := r, c
			for i := 0; i < g%4; i++ {
				x, y = y, n-1-x
			}
			if g >= 4 {
				x, y = y, x
			}
			if col[x] != y {
				same = false
				break
			}
		}
		if same {
			k++
		}
	}
	return k
}

// refCount is the independent reference: total by enumeration, unique by
// Burnside (unique = Σ over solutions of |stabiliser| / 8).
func refCount(n int) (total, unique uint64) {
	var stab uint64
	refSolutions(n, func(col []int) {
		total++
		stab += uint64(refStab(col))
	})
	return total, stab / 8
}

func TestReferenceAgreesWithSpec(t *testing.T) {
	for n := 1; n <= 10; n++ {
		tot, uni := refCount(n)
		if tot != oeis.Total(n) || uni != oeis.Unique(n) {
			t.Errorf("reference n=%d: got %d/%d, want %d/%d", n, tot, uni, oeis.Total(n), oeis.Unique(n))
		}
	}
}

func maxTestN() int {
	if testing.Short() {
		return 14
	}
	return 17
}

func TestCountKnown(t *testing.T) {
	for n := 1; n <= maxTestN(); n++ {
		for _, w := range []int{1, 2, 3} {
			if n > 14 && w == 3 {
				continue
			}
			r, err := Count(context.Background(), n, Options{Workers: w})
			if err != nil {
				t.Fatalf("n=%d workers=%d: %v", n, w, err)
			}
			if !r.Complete || r.SubsDone != r.Subs || r.N != n {
				t.Errorf("n=%d workers=%d: incomplete result %+v", n, w, r)
			}
			if r.Total != u128.From(oeis.Total(n)) || r.Unique != u128.From(oeis.Unique(n)) {
				t.Errorf("n=%d workers=%d: got total %d unique %d, want %d %d",
					n, w, r.Total, r.Unique, oeis.Total(n), oeis.Unique(n))
			}
		}
	}
}

// TestEngines runs every engine explicitly on every small board; in the long
// tests the constellation join, which stays as the cross-check of the quadrant
// join, counts n = 16..18 as well (about two minutes).
func TestEngines(t *testing.T) {
	maxN := 15
	if testing.Short() {
		maxN = 13
	} else {
		for n := 16; n <= 18; n++ {
			r, err := Count(context.Background(), n, Options{Workers: 2, Engine: EngineJoin})
			if err != nil || r.Total != u128.From(oeis.Total(n)) || r.Unique != u128.From(oeis.Unique(n)) {
				t.Errorf("%v n=%d: got %d/%d (%v), want %d/%d", EngineJoin, n, r.Total, r.Unique, err, oeis.Total(n), oeis.Unique(n))
			}
		}
	}
	for _, e := range []Engine{EngineSearch, EngineJoin, EngineQJoin} {
		for n := 1; n <= maxN; n++ {
			if e == EngineQJoin && n < qjoin.MinN {
				if _, err := Count(context.Background(), n, Options{Engine: e}); err == nil {
					t.Errorf("%v n=%d: no error", e, n)
				}
				continue
			}
			r, err := Count(context.Background(), n, Options{Workers: 2, Engine: e})
			if err != nil {
				t.Fatalf("%v n=%d: %v", e, n, err)
			}
			if r.Total != u128.From(oeis.Total(n)) || r.Unique != u128.From(oeis.Unique(n)) {
				t.Errorf("%v n=%d: got %d/%d, want %d/%d", e, n, r.Total, r.Unique, oeis.Total(n), oeis.Unique(n))
			}
		}
	}
}

func TestCountAgainstReference(t *testing.T) {
	for n := 1; n <= 11; n++ {
		tot, uni := refCount(n)
		r, err := Count(context.Background(), n, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.Total != u128.From(tot) || r.Unique != u128.From(uni) {
			t.Errorf("n=%d: got %d/%d, reference %d/%d", n, r.Total, r.Unique, tot, uni)
		}
	}
}

// TestSubsAgainstReference checks each sub-problem on its own: its total
// must be its weight times the number of reference solutions having exactly
// its border queens, and its unique count must be the number of classes of
// those solutions under the border set's stabiliser.
func TestSubsAgainstReference(t *testing.T) {
	for n := 4; n <= 10; n++ {
		p, err := NewPlanEngine(n, EngineSearch)
		if err != nil {
			t.Fatal(err)
		}
		type key [4]int
		count := map[key]uint64{}
		stabSum := map[key]uint64{} // Σ over solutions of |stabiliser|
		refSolutions(n, func(col []int) {
			var k key
			k[0], k[1] = col[0], col[n-1]
			for r, c := range col {
				if c == 0 {
					k[2] = r
				}
				if c == n-1 {
					k[3] = r
				}
			}
			count[k]++
			stabSum[k] += uint64(refStab(col))
		})
		seen := map[key]bool{}
		for i, s := range p.Subs {
			k := key{int(s.Top), int(s.Bottom), int(s.Left), int(s.Right)}
			if seen[k] {
				t.Fatalf("n=%d: duplicate sub-problem %v", n, k)
			}
			seen[k] = true
			r, err := p.SolveSub(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			if want := count[k] * s.Weight(); r.Total != want {
				t.Errorf("n=%d sub %d %v: total %d, want %d", n, i, k, r.Total, want)
			}
			// Classes within the sub-problem: Burnside over its stabiliser
			// (rotations only; a solution's own stabiliser is inside it).
			if want := 8 * (stabSum[k] / uint64(s.Stab)); r.Burnside != want {
				t.Errorf("n=%d sub %d %v (stab %d): Burnside %d, want %d", n, i, k, s.Stab, r.Burnside, want)
			}
		}
	}
}

func TestPlan(t *testing.T) {
	if _, err := NewPlan(0); err == nil {
		t.Error("NewPlan(0): no error")
	}
	if _, err := NewPlan(MaxN + 1); err == nil {
		t.Error("NewPlan(MaxN+1): no error")
	}
	p27, err := NewPlan(27)
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]int{}
	for n := 1; n <= 16; n++ {
		p, _ := NewPlan(n)
		q, _ := NewPlan(n)
		if p.Hash() != q.Hash() {
			t.Errorf("n=%d: hash not deterministic", n)
		}
		if m, dup := hashes[p.Hash()]; dup {
			t.Errorf("n=%d and n=%d share a hash", n, m)
		}
		hashes[p.Hash()] = n
		var cost uint64
		for i := 0; i < p.Len(); i++ {
			s := p.Sub(i)
			cost += uint64(s.Cost)
			if s.Stab != 1 && s.Stab != 2 && s.Stab != 4 {
				t.Errorf("n=%d: sub %+v has stabiliser %d", n, s, s.Stab)
			}
		}
		if cost != p.TotalCost {
			t.Errorf("n=%d: TotalCost %d, sum %d", n, p.TotalCost, cost)
		}
	}
	if p27.Len() < 1000 {
		t.Errorf("n=27: only %d sub-problems", p27.Len())
	}
	if _, err := p27.SolveSub(context.Background(), p27.Len()); err == nil {
		t.Error("SolveSub out of range: no error")
	}
}

func TestEstimateMemory(t *testing.T) {
	for n := 1; n <= MaxN; n++ {
		limit := uint64(2 << 30)
		if n == 29 {
			limit = 4 << 30
		}
		if m := EstimateMemory(n, 2); m > limit {
			t.Errorf("n=%d: estimate %d bytes exceeds %d GiB", n, m, limit>>30)
		}
	}
	if EstimateMemory(20, 8) <= EstimateMemory(20, 1) {
		t.Error("estimate does not grow with workers")
	}
}

// TestSums128: the sums of the sub-problems carry past 2^64 (Q(29) does),
// and the work measure saturates.
func TestSums128(t *testing.T) {
	var res Result
	for _, r := range []SubResult{{Total: math.MaxUint64 - 1, Burnside: math.MaxUint64, Nodes: math.MaxUint64}, {Total: 1, Burnside: 9, Nodes: 5}} {
		res.add(r)
	}
	if res.Total != u128.From(math.MaxUint64) || res.SubsDone != 2 {
		t.Errorf("two: %v over %d", res.Total, res.SubsDone)
	}
	res.add(SubResult{Total: 1, Burnside: 7})
	if res.Total != (u128.U128{Hi: 1}) || res.Burnside != (u128.U128{Hi: 1, Lo: 15}) || res.Nodes != math.MaxUint64 {
		t.Errorf("three: total %v burnside %v nodes %d", res.Total, res.Burnside, res.Nodes)
	}
	if u, err := Unique(res.Burnside); err == nil || u != res.Burnside.Div8() {
		t.Errorf("Unique(%v) = %v, %v: want ErrBurnside", res.Burnside, u, err)
	}
	if u, err := Unique(u128.U128{Hi: 1, Lo: 8}); err != nil || u != u128.From(1<<61+1) {
		t.Errorf("Unique(2^64+8) = %v, %v", u, err)
	}
}

func TestCancel(t *testing.T) {
	for _, c := range []struct {
		e Engine
		n int
	}{{EngineSearch, 16}, {EngineJoin, 17}, {EngineQJoin, 20}} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		r, err := Count(ctx, c.n, Options{Workers: 2, Engine: c.e})
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%v n=%d: err = %v, want deadline exceeded (result %+v)", c.e, c.n, err, r)
		}
		if took > time.Second+200*time.Millisecond {
			t.Errorf("%v n=%d: cancelled count took %v", c.e, c.n, took)
		}
		if r.Complete || (r.Subs > 0 && r.SubsDone >= r.Subs) || r.Total.Cmp(u128.From(oeis.Total(c.n))) > 0 || r.Unique.Cmp(u128.From(oeis.Unique(c.n))) > 0 {
			t.Errorf("%v n=%d: dishonest partial result %+v", c.e, c.n, r)
		}
		// SolveSub honours cancellation too.
		p, _ := NewPlanEngine(c.n, c.e)
		done, cancel2 := context.WithCancel(context.Background())
		cancel2()
		if _, err := p.SolveSub(done, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: SolveSub on a cancelled context: %v", c.e, err)
		}
	}
}

func TestProgress(t *testing.T) {
	var last, total uint64
	calls := 0
	r, err := Count(context.Background(), 10, Options{Workers: 1, Progress: func(d, tw uint64) {
		if d < last {
			t.Errorf("progress went back: %d after %d", d, last)
		}
		last, total = d, tw
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != r.Subs || last != total || total == 0 {
		t.Errorf("progress: %d calls for %d subs, last %d of %d", calls, r.Subs, last, total)
	}
}

var sink uint64

func BenchmarkCount(b *testing.B) {
	for _, e := range []Engine{EngineSearch, EngineJoin, EngineQJoin} {
		for _, n := range []int{12, 14, 16} {
			b.Run(fmt.Sprintf("algo=%v/n=%d", e, n), func(b *testing.B) {
				p, err := NewPlanEngine(n, e)
				if err != nil {
					b.Fatal(err)
				}
				var nodes uint64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					r, err := p.Count(context.Background(), Options{Workers: 1, Engine: e})
					if err != nil {
						b.Fatal(err)
					}
					sink += r.Total.Lo
					nodes = r.Nodes
				}
				b.ReportMetric(float64(nodes), "nodes/op")
			})
		}
	}
}

// TestConformance runs the suite every counter runs, on each engine.
func TestConformance(t *testing.T) {
	for _, e := range []Engine{EngineAuto, EngineSearch, EngineJoin, EngineQJoin} {
		t.Run(e.String(), func(t *testing.T) {
			spec := conformance.CounterSpec{MaxN: 13, Limit: MaxN, SlowN: 19,
				Count: func(ctx context.Context, n int) (uint64, uint64, error) {
					r, err := Count(ctx, n, Options{Workers: 2, Engine: e})
					return r.Total.Lo, r.Unique.Lo, err
				}}
			if e == EngineQJoin {
				spec.MinN, spec.Limit = qjoin.MinN, qjoin.MaxN
			}
			conformance.Counter(t, spec)
		})
	}
}
