package qjoin

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/conformance"
	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/refcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// kernels are the kernels this CPU runs.
func kernels() []Kernel {
	var ks []Kernel
	for _, k := range []Kernel{KernelGo, KernelAVX2, KernelAVX512} {
		if k.Available() {
			ks = append(ks, k)
		}
	}
	return ks
}

// cutSettings are the cut-line settings the tests force: the matcher's
// choice (-1), none, and 1, 3 and 6 lines.
var cutSettings = []int{-1, 0, 1, 3, 6}

// TestAgainstReference: every n ≤ 14 gives the plain counter's total and
// unique, with 1, 2 and 3 workers, every kernel, with every number of cut
// lines of cutSettings (the matcher's choice also on the smallest row sets for
// even n), from shared tables and from slices.
func TestAgainstReference(t *testing.T) {
	for n := MinN; n <= 14; n++ {
		ref, err := refcount.Count(context.Background(), n, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, cut := range cutSettings {
			o := defaultOptions(n)
			o.forceCut, o.slices = cut, i%2 == 1 || n%3 == 0
			o.westRestricted = (i+n)%2 == 0
			o.shared = (i+n)%3 == 0
			o.pieces = 1 + (i+n)%4
			// The matcher's own choice runs on row sets of every size.
			if cut < 0 && n%2 == 0 {
				o.smallEast, o.orientMin = 0, 0
			}
			slices := o.slices
			p, err := newPlan(context.Background(), n, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range kernels() {
				for w := 1; w <= 3; w++ {
					r, err := p.Count(context.Background(), Options{Workers: w, Kernel: k})
					if err != nil {
						t.Fatalf("n=%d cut=%d slices=%v %v workers=%d: %v", n, cut, slices, k, w, err)
					}
					if !r.Complete || r.Total != u128.From(ref.Total) || r.Unique != u128.From(ref.Unique) {
						t.Errorf("n=%d cut=%d slices=%v shared=%v %v workers=%d: got %v/%v, reference %d/%d",
							n, cut, slices, o.shared, k, w, r.Total, r.Unique, ref.Total, ref.Unique)
					}
					if r.Burnside.Mod8() != 0 {
						t.Errorf("n=%d: Burnside sum %d", n, r.Burnside)
					}
				}
			}
		}
	}
}

// TestParts: with the East halves matched in parts and the West halves
// counted in batches of a few words, every n ≤ 12 still gives the
// reference counts, from tables and from slices, with and without cut
// lines.
func TestParts(t *testing.T) {
	for n := MinN; n <= 12; n++ {
		ref, err := refcount.Count(context.Background(), n, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{-1, 0, 3} {
			o := defaultOptions(n)
			o.forceCut, o.slices, o.westRestricted = cut, n%2 == 0, cut != 0
			o.eastCap, o.westCap, o.joinChunk, o.smallEast, o.orientMin = 7, 53, 5, 0, 0
			o.shared = n%3 != 0
			o.pieces = 1 + n%5
			p, err := newPlan(context.Background(), n, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range kernels() {
				r, err := p.Count(context.Background(), Options{Workers: 2, Kernel: k})
				if err != nil || r.Total != u128.From(ref.Total) || r.Unique != u128.From(ref.Unique) {
					t.Errorf("n=%d cut=%d %v: got %d/%d (%v), reference %d/%d", n, cut, k, r.Total, r.Unique, err, ref.Total, ref.Unique)
				}
			}
		}
	}
}

// TestSlices: every slice a worker builds holds the entries of the shared
// table's row set, cell by cell, in the same order, whether each slice
// has memory of its own (exact) or not; a slicer that only counts gives
// the same cells and no entries.
func TestSlices(t *testing.T) {
	for _, n := range []int{9, 12, 15} {
		o := defaultOptions(n)
		o.slices = false
		p, err := newPlan(context.Background(), n, o)
		if err != nil {
			t.Fatal(err)
		}
		p.buildTables(2, nil)
		// (collect: the most entries the counting search keeps, 0 for
		// collectMax; with 5, most slices are searched twice.)
		for _, mode := range []struct {
			countOnly, exact bool
			collect          int
		}{{false, false, 0}, {false, false, 5}, {false, true, 0}, {true, false, 0}} {
			sl := newSlicers(p.g, p.t, mode.countOnly, mode.exact)
			if mode.collect > 0 {
				sl[0].got.max = mode.collect
			}
			for q := range sl {
				qt := &p.t.quads[q]
				for rows := uint32(0); rows < 1<<uint(qt.qg.rows); rows++ {
					want, got := qt.view(rows), sl[q].get(rows)
					k := bits.OnesCount32(rows)
					if k > qt.qg.cols {
						continue
					}
					if mode.countOnly && got.words != nil {
						t.Fatalf("n=%d quadrant %d rows %b: a counting slicer holds %d entries", n, q, rows, len(got.words))
					}
					if mode.exact && cap(got.words) != len(got.words)+pairSlack {
						t.Fatalf("n=%d quadrant %d rows %b: %d entries in a capacity of %d", n, q, rows, len(got.words), cap(got.words))
					}
					forCombs(uint32(qt.qg.cols), k, func(C uint32) {
						lo, mid, hi := want.cell(C)
						glo, gmid, ghi := got.cell(C)
						if hi-lo != ghi-glo || mid-lo != gmid-glo ||
							!mode.countOnly && fmt.Sprint(want.words[lo:hi]) != fmt.Sprint(got.words[glo:ghi]) {
							t.Fatalf("n=%d quadrant %d rows %b cols %b (%+v): slice %d..%d..%d, table %d..%d..%d",
								n, q, rows, C, mode, glo, gmid, ghi, lo, mid, hi)
						}
					})
				}
			}
		}
	}
}

// TestSampledCosts: the class means that plans beyond countedMaxN give
// their row sets are within 25% of the exact costs of the classes, each
// class's share of the total, where both can be had.
func TestSampledCosts(t *testing.T) {
	for _, n := range []int{16, 19} {
		p, err := NewPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		h := n / 2
		nMask := uint32(1)<<uint(h) - 1
		exact := make([]float64, h+1)
		size := make([]float64, h+1)
		for i := 2; i < p.Len(); i++ {
			s := p.Sub(i)
			k := bits.OnesCount32(s.Rows & nMask)
			exact[k] += float64(s.Cost)
			size[k]++
		}
		q := &Plan{N: n, g: p.g, rows: p.rows, t: newCellNumbers(p.g)}
		mean, ok := sampledCosts(q, func() bool { return false })
		if !ok {
			t.Fatal("stopped")
		}
		var se, ss float64
		for k := range mean {
			se += exact[k]
			ss += mean[k] * size[k]
		}
		for k := range mean {
			if e := exact[k] / se; e > 0.02 {
				if r := mean[k] * size[k] / ss / e; r < 0.75 || r > 1.25 {
					t.Errorf("n=%d class %d: sampled share %.3f of the exact %.3f", n, k, e*r, e)
				}
			}
		}
	}
}

// TestLong counts n = 15..18 (n = 19 and 20 with QJOIN_LONG set) against
// OEIS, from the shared tables and from slices.
func TestLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	hi := 18
	if os.Getenv("QJOIN_LONG") != "" {
		hi = 20 // 2 and 17 minutes of CPU more
	}
	for n := 15; n <= hi; n++ {
		for _, k := range kernels() {
			if n >= 18 && k == KernelGo && len(kernels()) > 1 {
				continue // 10 s; the assembly runs cover the decomposition
			}
			// With the shared tables, and with the slices of n > 21.
			for _, slices := range []bool{false, true} {
				if slices && k == KernelGo && len(kernels()) > 1 {
					continue
				}
				o := defaultOptions(n)
				o.slices = slices
				p, err := newPlan(context.Background(), n, o)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				r, err := p.Count(context.Background(), Options{Workers: 2, Kernel: k})
				if err != nil {
					t.Fatal(err)
				}
				if r.Total != u128.From(oeis.Total(n)) || r.Unique != u128.From(oeis.Unique(n)) {
					t.Errorf("n=%d %v slices=%v: got %d/%d, want %d/%d", n, k, slices, r.Total, r.Unique, oeis.Total(n), oeis.Unique(n))
				}
				t.Logf("n=%d %v slices=%v: %v", n, k, slices, time.Since(start))
			}
		}
	}
}

// allSolutions calls visit with every solution of the n×n board (columns by
// row), by plain search.
func allSolutions(n int, visit func(q []int)) {
	q := make([]int, n)
	var rec func(r int, cols, dl, dr uint64)
	rec = func(r int, cols, dl, dr uint64) {
		if r == n {
			visit(q)
			return
		}
		for c := 0; c < n; c++ {
			if cols>>uint(c)&1 != 0 || dl>>uint(r-c+n)&1 != 0 || dr>>uint(r+c)&1 != 0 {
				continue
			}
			q[r] = c
			rec(r+1, cols|1<<uint(c), dl|1<<uint(r-c+n), dr|1<<uint(r+c))
		}
	}
	rec(0, 0, 0, 0)
}

// TestRowSets checks each row-set sub-problem on its own against the
// weights of doc.go applied to every solution, with either half
// restricted: a solution whose East half holds rows R counts in R (or in
// reverse(R), mirrored) when the restricted half has no queen on a long
// diagonal (a = d = 0 in the West, or b = c = 0 in the East), with weight
// 2 to the number of the flagged half's queens there, times the east–west
// weight when no long diagonal holds a queen (even n).
func TestRowSets(t *testing.T) {
	for n := 5; n <= 11; n++ {
		for _, westRestricted := range []bool{true, false} {
			h := n / 2
			o := defaultOptions(n)
			o.forceCut, o.slices, o.westRestricted = n%4, n%2 == 1, westRestricted
			o.pieces = 1 + n%3
			p, err := newPlan(context.Background(), n, o)
			if err != nil {
				t.Fatal(err)
			}
			p.buildTables(1, nil)
			s := newSolver(p, KernelGo)
			want := map[uint32]uint64{}
			allSolutions(n, func(q []int) {
				var R uint32
				a, b, c, d := 0, 0, 0, 0
				for r, col := range q {
					if col >= h {
						R |= 1 << uint(r)
					}
					centre := n%2 == 1 && r == h && col == h
					switch {
					case r == col && r < h:
						a = 1
					case r == col && !centre:
						b = 1
					}
					switch {
					case r+col == n-1 && r < h && col >= h:
						c = 1
					case r+col == n-1 && col < h:
						d = 1
					}
				}
				restricted, flagged := a+d, b+c
				if !westRestricted {
					restricted, flagged = b+c, a+d
				}
				if restricted > 0 {
					return
				}
				w := uint64(1) << uint(flagged)
				canon := min(R, reverse(R, n))
				if flagged == 0 { // no queen on a long diagonal
					w *= eastWestWeight(canon, n)
				}
				want[canon] += w
			})
			var sum uint64
			for _, w := range want {
				sum += w
			}
			if sum != oeis.Total(n) {
				t.Errorf("n=%d: the weights add up to %d, not T = %d", n, sum, oeis.Total(n))
			}
			// The pieces of a row set add up to it.
			got := map[uint32]uint64{}
			for i := 0; i < p.Len(); i++ {
				sub := p.Sub(i)
				if sub.Kind != KindRows {
					continue
				}
				c, _, ok := s.solveRows(sub.Rows, sub.Piece, nil)
				if !ok {
					t.Fatal("stopped")
				}
				got[sub.Rows] += c
			}
			if !maps.Equal(got, want) {
				for R, w := range want {
					if got[R] != w {
						t.Errorf("n=%d West restricted %v pieces %d R=%0*b: got %d, want %d", n, westRestricted, o.pieces, n, R, got[R], w)
					}
				}
			}
		}
	}
}

// fixedByRotation counts the solutions fixed by the rotation by turns
// quarter turns, by testing every solution.
func fixedByRotation(n, turns int) uint64 {
	var c uint64
	allSolutions(n, func(q []int) {
		for r, col := range q {
			x, y := r, col
			for range turns {
				x, y = rotate(n, x, y)
			}
			if q[x] != y {
				return
			}
		}
		c++
	})
	return c
}

// TestBurnsideEntries: the two searches against a test of every solution,
// and the Burnside sum against the known unique counts.
func TestBurnsideEntries(t *testing.T) {
	for n := MinN; n <= 12; n++ {
		s180, _, _ := countFixed(n, 2, nil)
		s90, _, _ := countFixed(n, 1, nil)
		if w := fixedByRotation(n, 2); s180 != w {
			t.Errorf("n=%d: S180 %d, want %d", n, s180, w)
		}
		if w := fixedByRotation(n, 1); s90 != w {
			t.Errorf("n=%d: S90 %d, want %d", n, s90, w)
		}
		if sum := oeis.Total(n) + s180 + 2*s90; sum%8 != 0 || sum/8 != oeis.Unique(n) {
			t.Errorf("n=%d: (T + S180 + 2·S90)/8 = %d/8, want %d", n, sum, oeis.Unique(n))
		}
	}
}

// TestFixedShared: the Burnside searches on several goroutines count what
// they count on one, and stop when told.
func TestFixedShared(t *testing.T) {
	for n := 4; n <= 14; n++ {
		for _, turns := range []int{1, 2} {
			want, wantNodes, _ := countFixed(n, turns, nil)
			for _, w := range []int{1, 2, 3} {
				got, nodes, ok := countFixedShared(n, turns, w, func() bool { return false })
				if !ok || got != want || nodes != wantNodes {
					t.Errorf("n=%d turns=%d workers=%d: %d (%d nodes), want %d (%d)", n, turns, w, got, nodes, want, wantNodes)
				}
			}
		}
	}
	if _, _, ok := countFixedShared(20, 2, 2, func() bool { return true }); ok {
		t.Error("a stopped search reports ok")
	}
}

// TestPlan: plans are deterministic, canonical, and their costs add up.
func TestPlan(t *testing.T) {
	if _, err := NewPlan(MinN - 1); err == nil {
		t.Error("n below MinN accepted")
	}
	if _, err := NewPlan(MaxN + 1); err == nil {
		t.Error("n above MaxN accepted")
	}
	for n := MinN; n <= 16; n++ {
		p, _ := NewPlan(n)
		q, _ := NewPlan(n)
		var cost uint64
		seen := map[uint32]bool{}
		if p.Len() != q.Len() {
			t.Fatalf("n=%d: two plans of %d and %d sub-problems", n, p.Len(), q.Len())
		}
		for i := 0; i < p.Len(); i++ {
			s := p.Sub(i)
			if s != q.Sub(i) {
				t.Fatalf("n=%d: sub %d differs between two plans", n, i)
			}
			cost += uint64(s.Cost)
			if s.Cost == 0 {
				t.Errorf("n=%d: sub %d has no cost", n, i)
			}
			if s.Kind != KindRows {
				continue
			}
			if bits.OnesCount32(s.Rows) != n-n/2 || reverse(s.Rows, n) < s.Rows || seen[s.Rows] {
				t.Errorf("n=%d: row set %b", n, s.Rows)
			}
			seen[s.Rows] = true
		}
		if cost != p.TotalCost {
			t.Errorf("n=%d: TotalCost %d, sum %d", n, p.TotalCost, cost)
		}
		// Every row set of size n-h is in the plan or mirrors one.
		all := combinations(n, n-n/2)
		if got := 2*uint64(len(seen)) - uint64(countSymmetric(n)); got != all {
			t.Errorf("n=%d: plan covers %d row sets of %d", n, got, all)
		}
	}
}

// countSymmetric is the number of row sets of size n-n/2 equal to their
// mirror image.
func countSymmetric(n int) int {
	k := n - n/2
	c := 0
	forCombs(uint32(n), k, func(R uint32) {
		if reverse(R, n) == R {
			c++
		}
	})
	return c
}

// randomWords returns m words of L random bits each: about a quarter of
// the bits set, or half if dense.
func randomWords(rng *rand.Rand, m, L int, dense bool) []uint64 {
	if !dense {
		return randomLineWords(rng, m, L)
	}
	ws := make([]uint64, m, m+pairSlack)
	for i := range ws {
		ws[i] = rng.Uint64() & (1<<uint(L) - 1)
	}
	return ws
}

// naiveCount is what the matcher counts: the weighted number of pairs of
// an East word and a West word with no line in common, an East word
// weighing 2^shift0 without flags, 2 with one, 4 with both.
func naiveCount(east, q []uint64, L int, shift0 uint) uint64 {
	mask := uint64(1)<<uint(L) - 1
	var want uint64
	for _, e := range east {
		shift := uint(e>>flagN&1 + e>>flagS)
		if shift == 0 {
			shift = shift0
		}
		for _, w := range q {
			if e&w&mask == 0 {
				want += 1 << shift
			}
		}
	}
	return want
}

// randomEast returns m random East words of L bits with random flags.
func randomEast(rng *rand.Rand, m, L int, dense bool) []uint64 {
	ws := randomWords(rng, m, L, dense)
	for i := range ws {
		ws[i] |= uint64(rng.IntN(4)) << flagN
	}
	return ws
}

// TestKernels: the matcher with every kernel against a naive pairwise AND,
// on random words, the East words with random classes, for line counts
// that give every number of chunks, with every number of cut lines, the
// East words as the table and as the queries, the chunk tables built up
// front (build) and group by group as the count comes to them (buildOnce).
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, L := range []int{12, 20, 23, 30, 36, 40, 44, 51, 54} {
		for _, m := range []int{0, 1, linearMax, linearMax + 1, 255, 256, 257, 513, 700, 3000} {
			east := randomEast(rng, m, L, false)
			west := randomWords(rng, 1+rng.IntN(600), L, rng.IntN(2) == 0)
			shift0 := uint(rng.IntN(2))
			want := naiveCount(east, west, L, shift0)
			for _, kern := range kernels() {
				for _, cut := range append([]int{-1}, 0, 1, 2, 5, 11, maxCut) {
					for _, tc := range []struct{ eastTable, once bool }{{true, false}, {false, false}, {true, true}, {false, true}} {
						eastTable := tc.eastTable
						tab, qs := east, west
						if !eastTable {
							tab, qs = qs, tab
						}
						mt := newMatcher(L, kern.impl())
						mt.forceCut = cut
						mt.setWeights(shift0)
						if tc.once {
							mt.buildOnce(tab, qs, eastTable, -1)
							if !mt.linear && mt.c > 0 && (!mt.lazy || len(mt.tab) != 0) {
								t.Fatalf("L=%d, %d cut lines: buildOnce built the chunk tables up front", L, mt.c)
							}
						} else {
							mt.build(tab, qs, eastTable, -1)
						}
						if !mt.linear && (mt.c < max(0, L-maxMatched) || mt.c > maxCut) {
							t.Fatalf("L=%d: %d cut lines", L, mt.c)
						}
						if got, ok := mt.countQueries(qs, nil); !ok || got != want {
							t.Errorf("L=%d cut=%d (%d) %d East words, %d West, East table %v, once %v, %v: %d, want %d",
								L, cut, mt.c, m, len(west), eastTable, tc.once, kern, got, want)
						}
						// The same in kernel calls of a few pairs, polling stop.
						mt.stepPairs = 7
						polls := 0
						if got, ok := mt.countQueries(qs, func() bool { polls++; return false }); !ok || got != want {
							t.Errorf("L=%d cut=%d, in steps: %d, want %d", L, cut, got, want)
						}
						if len(tab)*len(qs) > 300*300 && !mt.linear && polls == 0 {
							t.Errorf("L=%d cut=%d: stop never polled", L, cut)
						}
						if _, ok := mt.countQueries(qs, func() bool { return true }); len(tab)*len(qs) > 300*300 && !mt.linear && ok {
							t.Errorf("L=%d cut=%d: stop not heeded", L, cut)
						}
					}
				}
			}
		}
	}
}

// TestJoinPairs: the AVX2 pair join against the Go one.
func TestJoinPairs(t *testing.T) {
	if !KernelAVX2.Available() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 200; i++ {
		xs := randomWords(rng, rng.IntN(9), 64, false)
		ys := randomWords(rng, rng.IntN(40), 64, false)
		mask := rng.Uint64() & (1<<maxLines - 1) // line bits only
		q := make([]uint64, rng.IntN(5), 1000)
		want := joinPairs(append(make([]uint64, 0, 1000), q...), xs, ys, mask)
		if got := KernelAVX2.impl().join(q, xs, ys, mask); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("join %v × %v: %v, want %v", xs, ys, got, want)
		}
	}
}

// TestTranspose64 against the definition.
func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x, y [64]uint64
	for i := range x {
		x[i] = rng.Uint64()
	}
	y = x
	transpose64(&y)
	for i := 0; i < 64; i++ {
		for j := 0; j < 64; j++ {
			if y[j]>>uint(i)&1 != x[i]>>uint(j)&1 {
				t.Fatalf("bit %d,%d", i, j)
			}
		}
	}
}

// TestBuildGo: the Go kernel's chunk tables against their definition: bit
// i of entry s of chunk j (lane i/64 of the block) is set when half i is
// no padding and uses none of the lines j·5+b for the bits b of s.
func TestBuildGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const halves, lanes = 256, 4
	for _, k := range []int{minChunks, 6, maxChunks} {
		nb := 3
		words := randomWords(rng, nb*halves, k*chunkBits, k == 6)
		for i := range words {
			if rng.IntN(9) == 0 {
				words[i] = pad
			}
		}
		bw := k * chunkSize * lanes
		tab := make([]uint64, nb*bw)
		buildGo(words, nb, tab, k)
		for b := 0; b < nb; b++ {
			for j := 0; j < k; j++ {
				for s := 0; s < chunkSize; s++ {
					lines := uint64(s) << uint(j*chunkBits)
					for i := 0; i < halves; i++ {
						w := words[b*halves+i]
						want := w != pad && w&lines == 0
						got := tab[b*bw+j*chunkSize*lanes+s*lanes+i/64]>>uint(i%64)&1 == 1
						if got != want {
							t.Fatalf("%d chunks: block %d chunk %d subset %05b half %d (%#x): %v, want %v",
								k, b, j, s, i, w, got, want)
						}
					}
				}
			}
		}
	}
}

// TestCancel: a count stops within a second of its context's end, in the
// table build and in the join, and reports only finished sub-problems.
func TestCancel(t *testing.T) {
	p, err := NewPlan(20)
	if err != nil {
		t.Fatal(err)
	}
	for _, after := range []time.Duration{0, 30 * time.Millisecond, 300 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		start := time.Now()
		r, err := p.Count(ctx, Options{Workers: 2})
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("after %v: err %v", after, err)
		}
		if took > after+time.Second {
			t.Errorf("cancelled after %v, returned after %v", after, took)
		}
		if r.Complete || r.Total.Cmp(u128.From(oeis.Total(20))) > 0 {
			t.Errorf("dishonest partial result %+v", r)
		}
	}
	// Slices: the heaviest row set of n = 25 (minutes of work) and the
	// Burnside search S180 (a minute) stop as well.
	p25, err := NewPlan(25)
	if err != nil {
		t.Fatal(err)
	}
	var heavy []int // the costliest class
	for i := 2; i < p25.Len(); i++ {
		switch c := p25.Cost(i); {
		case len(heavy) == 0 || c > p25.Cost(heavy[0]):
			heavy = []int{i}
		case c == p25.Cost(heavy[0]):
			heavy = append(heavy, i)
		}
	}
	for _, id := range []int{0, heavy[len(heavy)/2]} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := p25.SolveSub(ctx, id, KernelAuto)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 1100*time.Millisecond {
			t.Errorf("n=25 sub-problem %d: %v after %v", id, err, time.Since(start))
		}
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewPlanContext(done, 20); !errors.Is(err, context.Canceled) {
		t.Errorf("NewPlanContext on a cancelled context: %v", err)
	}
	p, _ = NewPlan(12)
	if _, err := p.SolveSub(done, 0, KernelAuto); !errors.Is(err, context.Canceled) {
		t.Errorf("SolveSub on a cancelled context: %v", err)
	}
}

// TestKernelChoice: names, ResolveName, unavailable kernels.
func TestKernelChoice(t *testing.T) {
	for _, k := range []Kernel{KernelAuto, KernelGo, KernelAVX2, KernelAVX512} {
		if p, err := ParseKernel(k.String()); err != nil || p != k {
			t.Errorf("%v: %v %v", k, p, err)
		}
	}
	if _, err := ParseKernel("sse"); !errors.Is(err, ErrKernel) {
		t.Errorf("sse: %v", err)
	}
	if k, err := ResolveName("go"); err != nil || k != KernelGo {
		t.Errorf("go: %v %v", k, err)
	}
	if _, err := ResolveName("nope"); !errors.Is(err, ErrKernel) {
		t.Errorf("nope: %v", err)
	}
	for _, s := range []string{"", "auto", "AUTO"} {
		if k, err := ResolveName(s); err != nil || k != AutoKernel() {
			t.Errorf("%q: %v %v (AutoKernel %v)", s, k, err, AutoKernel())
		}
	}
	for _, k := range []Kernel{KernelAVX2, KernelAVX512} {
		if !k.Available() {
			if _, err := k.Resolve(); err == nil {
				t.Errorf("unavailable %v kernel resolved", k)
			}
		}
	}
}

// TestEstimateMemory: a shard of a million (a few sub-problems each) stays
// under 2 GiB up to n = 28 with 2 workers, 4 GiB at n = 29, and so does a
// whole count up to 28; a shard of one sub-problem takes less than the
// whole count from n = 22 on (the ids of every sub-problem), more with
// more shards (the split), and the estimate grows with the workers.
func TestEstimateMemory(t *testing.T) {
	for n := MinN; n <= MaxN; n++ {
		limit := uint64(2 << 30)
		if n == 29 {
			limit = 4 << 30
		}
		shard := EstimateShardMemory(n, 2, 200, 1_000_000)
		if shard > limit {
			t.Errorf("n=%d: a shard of 10^6 takes %d bytes", n, shard)
		}
		if m := EstimateMemory(n, 2); n < 29 && m > limit {
			t.Errorf("n=%d: the whole count takes %d bytes", n, m)
		}
		if n >= 22 && EstimateShardMemory(n, 2, 1, 1000) >= EstimateMemory(n, 2) {
			t.Errorf("n=%d: a shard of one sub-problem takes %d bytes, the whole count %d", n, EstimateShardMemory(n, 2, 1, 1000), EstimateMemory(n, 2))
		}
		if EstimateShardMemory(n, 2, 1, 1<<26) <= EstimateShardMemory(n, 2, 1, 1) {
			t.Errorf("n=%d: the split's memory is not counted", n)
		}
	}
	if EstimateMemory(20, 8) <= EstimateMemory(20, 1) {
		t.Error("the estimate does not grow with the workers")
	}
}

// TestMemoryWithinEstimate: a count without shared tables (slices forced
// at n = 18, with private row sets and with shared ones split in small
// parts and batches, the settings of n = 28 and 29 in small; a shard of
// n = 22 in the long tests) keeps its heap under the estimate, sampled
// every few milliseconds.
func TestMemoryWithinEstimate(t *testing.T) {
	type run struct {
		n, shard, shards int
		shared           bool
	}
	runs := []run{{18, 0, 1, false}, {18, 0, 1, true}}
	if !testing.Short() {
		runs = append(runs, run{22, 7, 4096, false})
	}
	for _, r := range runs {
		o := defaultOptions(r.n)
		o.slices, o.shared = true, r.shared
		if r.shared {
			o.eastCap, o.westCap = 1<<12, 1<<12
		}
		p, err := newPlan(context.Background(), r.n, o)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		for i := 0; i < p.Len(); i++ {
			if i%r.shards == r.shard {
				ids = append(ids, i)
			}
		}
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		done := make(chan struct{})
		peak := make(chan uint64)
		go func() {
			var most uint64
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				most = max(most, m.HeapInuse+m.StackInuse)
				select {
				case <-done:
					peak <- most
					return
				case <-tick.C:
				}
			}
		}()
		if _, err := p.CountSubs(context.Background(), ids, Options{Workers: 2}, nil); err != nil {
			t.Fatal(err)
		}
		close(done)
		most := <-peak
		est := estimateMemory(r.n, 2, len(ids), r.shards, o)
		t.Logf("n=%d shard %d/%d shared %v: heap peak %d MB (%d MB before), estimate %d MB", r.n, r.shard, r.shards, r.shared, most>>20, (base.HeapInuse+base.StackInuse)>>20, est>>20)
		if most > est {
			t.Errorf("n=%d: heap peak %d bytes over the estimate %d", r.n, most, est)
		}
	}
}

var sink uint64

func BenchmarkCount(b *testing.B) {
	for _, k := range kernels() {
		for _, n := range []int{12, 14, 16} {
			b.Run(fmt.Sprintf("kernel=%v/n=%d", k, n), func(b *testing.B) {
				p, err := NewPlan(n)
				if err != nil {
					b.Fatal(err)
				}
				p.buildTables(1, nil)
				var nodes uint64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					r, err := p.Count(context.Background(), Options{Workers: 1, Kernel: k})
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

// BenchmarkMatcher measures the kernels alone on random words of 40 lines,
// no cut: ns/qb is the time per query and 256 East halves.
func BenchmarkMatcher(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const L = 40
	for _, kern := range kernels() {
		for _, nb := range []int{2, 4, 8, 32} {
			b.Run(fmt.Sprintf("kernel=%v/halves=%d", kern, nb*256), func(b *testing.B) {
				m := newMatcher(L, kern.impl())
				m.forceCut = 0
				m.setWeights(0)
				qs := randomWords(rng, 4096, L, false)
				m.build(randomWords(rng, nb*256, L, false), qs, true, -1)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c, _ := m.countQueries(qs, nil)
					sink += c
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(4096*nb), "ns/qb")
			})
		}
	}
}

// TestConformance runs the suite every counter runs, with each kernel this CPU has.
func TestConformance(t *testing.T) {
	for _, k := range kernels() {
		t.Run(k.String(), func(t *testing.T) {
			conformance.Counter(t, conformance.CounterSpec{MinN: MinN, MaxN: 14, Limit: MaxN, SlowN: 20,
				Count: func(ctx context.Context, n int) (uint64, uint64, error) {
					p, err := NewPlanContext(ctx, n)
					if err != nil {
						return 0, 0, err
					}
					r, err := p.Count(ctx, Options{Workers: 2, Kernel: k})
					return r.Total.Lo, r.Unique.Lo, err
				}})
		})
	}
}

// TestEastSplit: the parts of a split row set hold every East half exactly
// once, no part holds more than eastCap unless it is one v of one cell,
// and every half of a part has the bits common() says all of them share.
// TestParts checks the counts of split row sets.
func TestEastSplit(t *testing.T) {
	for _, n := range []int{11, 14, 16} {
		for _, capE := range []int{1, 7, 100, 5000} {
			o := defaultOptions(n)
			o.slices, o.eastCap, o.pieces = true, capE, 1+capE%3
			p, err := newPlan(context.Background(), n, o)
			if err != nil {
				t.Fatal(err)
			}
			s := newSolver(p, KernelGo)
			for id := 2; id < p.Len(); id += p.Len()/40 + 1 {
				sub := p.Sub(id)
				R := sub.Rows
				h := p.g.h
				s.eastRows = R & (1<<uint(h) - 1)
				s.cells = p.piece(s.eastRows, sub.Piece)
				s.ewf = 1
				s.NE, s.SE = s.quarter(qNE, s.eastRows), s.quarter(qSE, R>>uint(h))
				want := map[uint64]int{}
				s.eastScan(&s.NE, s.piecesScope(), nil, func(xs []uint64) bool {
					for _, x := range xs {
						want[x]++
					}
					return true
				})
				var sp eastSplit
				if _, ok := s.eastCount(&sp, nil); !ok {
					t.Fatal("stopped")
				}
				got := map[uint64]int{}
				for _, pt := range sp.parts {
					var e []uint64
					s.eastScan(&sp.ne, pt.scope, nil, func(xs []uint64) bool {
						e = append(e, xs...)
						return true
					})
					if len(e) > capE && pt.scope.v0 == pt.scope.v1 {
						cells, _ := s.cellCounts(&sp, pt.scope.v0, nil)
						full := 0
						for r, k := range cells {
							if k > 0 && uint32(r) >= pt.scope.r0 && uint32(r) < pt.scope.r1 {
								full++
							}
						}
						if full > 1 {
							t.Errorf("n=%d sub %d cap %d: a part of one v over %d cells holds %d halves", n, id, capE, full, len(e))
						}
					}
					if len(e) > capE && pt.scope.v0 != pt.scope.v1 {
						t.Errorf("n=%d sub %d cap %d: a part of v %d..%d holds %d halves", n, id, capE, pt.scope.v0, pt.scope.v1, len(e))
					}
					if len(e) == 0 {
						t.Errorf("n=%d sub %d cap %d: empty part %+v", n, id, capE, pt)
					}
					for _, x := range e {
						got[x]++
						if x&pt.common != pt.common {
							t.Fatalf("n=%d sub %d: half %x of part %+v lacks common bits %x", n, id, x, pt.scope, pt.common)
						}
					}
				}
				if !maps.Equal(got, want) {
					t.Fatalf("n=%d sub %d (piece %d of %d) cap %d: the parts hold other halves than the scan (%d, %d)", n, id, sub.Piece, o.pieces, capE, len(got), len(want))
				}
			}
		}
	}
}
