package qjoin

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// TestLaneSplit: laneSplit gives each class room for its words in lanes of
// its own, no more lanes than a block has, and the fewest blocks that
// allow it; a class alone takes every lane.
func TestLaneSplit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lanes := rapid.SampledFrom([]int{4, 8}).Draw(t, "lanes")
		var cnt [classes]int
		for cl := range cnt {
			// Mostly small counts, where tails and lanes matter.
			cnt[cl] = rapid.OneOf(rapid.IntRange(0, 200), rapid.IntRange(0, 5000)).Draw(t, "cnt")
		}
		nb, a := laneSplit(cnt, lanes)
		total, present, used := 0, 0, 0
		for cl, c := range cnt {
			total += c
			if c > 0 {
				present++
			}
			if a[cl]*64*nb < c {
				t.Fatalf("class %d: %d words in %d lanes of %d blocks", cl, c, a[cl], nb)
			}
			if c == 0 && a[cl] != 0 {
				t.Fatalf("class %d has no words but %d lanes", cl, a[cl])
			}
			used += a[cl]
		}
		if total == 0 {
			if nb != 0 {
				t.Fatalf("no words in %d blocks", nb)
			}
			return
		}
		if used > lanes {
			t.Fatalf("%d lanes used of %d", used, lanes)
		}
		if present == 1 && used != lanes {
			t.Fatalf("one class in %d lanes of %d", used, lanes)
		}
		// One block fewer cannot hold them.
		if nb > 1 {
			fewer := 0
			for _, c := range cnt {
				fewer += (c + 64*(nb-1) - 1) / (64 * (nb - 1))
			}
			if fewer <= lanes {
				t.Fatalf("%v in %d blocks of %d lanes; %d would do", cnt, nb, lanes, nb-1)
			}
		}
	})
}

// TestGroupLayout: after build, on flagged and unflagged tables with every
// number of cut lines, each table word stands once in the words of its
// group, in a lane of its class (laneCls), and every other slot is padding;
// and the kernels' shifts are 64-byte aligned.
func TestGroupLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 64))
	for _, L := range []int{20, 36, 44} {
		for _, m := range []int{1, 63, 65, 300, 2000} {
			for _, flagged := range []bool{true, false} {
				for _, cut := range []int{0, 1, 3, 6} {
					for _, kern := range kernels() {
						table := randomWords(rng, m, L, false)
						if flagged {
							for i := range table {
								// Skewed classes, so that some groups hold one.
								table[i] |= uint64(rng.IntN(4)&rng.IntN(4)) << flagN
							}
						}
						mt := newMatcher(L, kern.impl())
						mt.forceCut = cut
						mt.setWeights(1)
						mt.build(table, table[:min(len(table), 50)], flagged, -1)
						if mt.linear {
							continue
						}
						checkLayout(t, mt, table, flagged)
						if _, ok := mt.countQueries(table[:1], nil); !ok {
							t.Fatal("count failed")
						}
						if p := uintptr(unsafe.Pointer(mt.qs.shifts)); p%64 != 0 {
							t.Fatalf("shifts at %#x, not 64-byte aligned", p)
						}
					}
				}
			}
		}
	}
}

// checkLayout checks mt.words against the table it was built from.
func checkLayout(t *testing.T, mt *matcher, table []uint64, flagged bool) {
	t.Helper()
	bh := mt.im.halves
	c := uint(mt.c)
	sh := uint(mt.lines) - c
	want := map[[2]uint64]int{} // (group, word without flags) -> count
	for _, x := range table {
		g := x >> sh & (1<<c - 1)
		cl := uint64(0)
		if flagged {
			cl = x>>flagN&1 + x>>flagS
		}
		want[[2]uint64{g, x&^flagMask | cl<<flagN}]++
	}
	for g := range 1 << c {
		cls := mt.laneCls[g]
		for b := mt.first[g]; b < mt.first[g+1]; b++ {
			for i, x := range mt.words[int(b)*bh : int(b+1)*bh] {
				if x == pad {
					continue
				}
				cl := uint64(cls >> (2 * (i / 64)) & 3)
				if cl == laneFree {
					t.Fatalf("L=%d c=%d: word %#x in a free lane", mt.lines, c, x)
				}
				if !flagged && cl != 0 {
					t.Fatalf("L=%d c=%d: an unflagged table's lane of class %d", mt.lines, c, cl)
				}
				key := [2]uint64{uint64(g), x | cl<<flagN}
				if want[key] == 0 {
					t.Fatalf("L=%d c=%d: word %#x of group %d in a lane of class %d: not in the table", mt.lines, c, x, g, cl)
				}
				want[key]--
			}
		}
	}
	for k, n := range want {
		if n != 0 {
			t.Fatalf("L=%d c=%d: word %#x of group %d missing %d times", mt.lines, c, k[1], k[0], n)
		}
	}
}

// TestWestTableWithinBudget: a West batch takes the table's place (the cost
// model's choice) only in pieces a table has room for (tableMax, by default
// the memory estimate's tableBudget; westBatch.westPieces): with tables of
// at most 512 West halves and no cut line at n = 18, the model takes West
// batches of more halves in pieces, none of more than 512 halves, and each
// sub-problem's count is that of a plan with the default options.
func TestWestTableWithinBudget(t *testing.T) {
	const n, most = 18, 512
	o := defaultOptions(n)
	o.tableMax, o.orientMin, o.forceCut = most, 0, 0
	var mu sync.Mutex
	largest, split := 0, 0
	o.westTable = func(halves, piece int) {
		mu.Lock()
		largest = max(largest, piece)
		if piece < halves {
			split++
		}
		mu.Unlock()
	}
	p, err := newPlan(context.Background(), n, o)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for i := 0; i < p.Len(); i += 7 {
		ids = append(ids, i)
	}
	counts := func(p *Plan) map[int]Result {
		got := map[int]Result{}
		if _, err := p.CountSubs(context.Background(), ids, Options{Workers: 2}, func(id int, r Result) {
			mu.Lock()
			got[id] = r
			mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	got, want := counts(p), counts(ref)
	if split == 0 {
		t.Error("no West batch was cut into pieces")
	}
	if largest > most {
		t.Errorf("a West table of %d halves; at most %d", largest, most)
	}
	for _, id := range ids {
		if got[id].Total != want[id].Total || got[id].Burnside != want[id].Burnside {
			t.Errorf("sub-problem %d: %+v, want %+v", id, got[id], want[id])
		}
	}
}

// TestPieceSize: the pieces of a West batch are at most the most a table
// holds, as even as may be, and cover the batch.
func TestPieceSize(t *testing.T) {
	for _, c := range []struct{ n, most, want int }{
		{0, 10, 1}, {5, 10, 5}, {10, 10, 10}, {11, 10, 6}, {20, 10, 10}, {21, 10, 7}, {4 << 20, 2 << 20, 2 << 20}, {7, 0, 1},
	} {
		if got := pieceSize(c.n, c.most); got != c.want {
			t.Errorf("pieceSize(%d, %d) = %d, want %d", c.n, c.most, got, c.want)
		}
	}
}

// BenchmarkGroup measures the layout of a flagged table by class and cut
// bits (group) alone: ns/word per table word, on random words of 40 lines
// whose flags fall in the three classes, 2^18 of them (2 MB, beyond a core's
// L2 as a row set's table at n = 22 often is) and 2^14.
func BenchmarkGroup(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 8))
	const L = 40
	for _, size := range []int{1 << 14, 1 << 18} {
		for _, c := range []int{4, 8, 10} {
			b.Run(fmt.Sprintf("words=%d/c=%d", size, c), func(b *testing.B) {
				m := newMatcher(L, KernelGo.impl())
				m.flaggedTable, m.c = true, c
				table := randomWords(rng, size, L, false)
				for i := range table {
					table[i] |= rng.Uint64() & flagMask
				}
				for b.Loop() {
					m.group(table)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size), "ns/word")
			})
		}
	}
}

// TestCutRange: choose weighs no cut up to smallEast words, and up to
// log2 of the blocks plus cutBeyond lines beyond: 2, but 4 at n = 26 and
// 28, so that a part of eastCap East halves of n = 28 (52 lines) may
// cut up to maxCut lines, which the model takes there; the least is what
// the chunk tables cannot match.
func TestCutRange(t *testing.T) {
	for _, kern := range kernels() {
		im := kern.impl()
		for _, n := range []int{22, 26, 27, 28, 29} {
			o := defaultOptions(n)
			p := &Plan{N: n, g: newGeom(n, o.westRestricted), o: o}
			p.o.slices = false // (no slicers: the matcher alone)
			m := newSolver(p, kern).m
			beyond, cmin := 2, max(0, m.lines-maxMatched)
			if n == 26 || n == 28 {
				beyond = 4
			}
			if lo, hi := m.cutRange(defaultSmallEast); lo != cmin || hi != lo {
				t.Errorf("%v, n=%d: %d words weigh %d..%d lines", kern, n, defaultSmallEast, lo, hi)
			}
			for _, words := range []int{defaultSmallEast + 1, 1 << 14, 1 << 18, o.eastCap} {
				want := max(cmin, min(maxCut, bits.Len(uint(words/im.halves))+beyond))
				if lo, hi := m.cutRange(words); lo != cmin || hi != want {
					t.Errorf("%v, n=%d: %d words weigh %d..%d lines, want %d..%d", kern, n, words, lo, hi, cmin, want)
				}
			}
			if _, hi := m.cutRange(o.eastCap); n == 28 && hi != maxCut {
				t.Errorf("%v: a part of n = 28 weighs up to %d lines, want %d", kern, hi, maxCut)
			}
		}
	}
}

// TestSortTop: sortTop permutes the words into the order of their top
// bits and ends marks where each value's words end.
func TestSortTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4242))
	const sh = 30
	for _, size := range []int{0, 1, 7, 1000, 1 << 16} {
		q := make([]uint64, size)
		for i := range q {
			// Few values in the small tests, all of them in the large.
			q[i] = rng.Uint64()>>2 | uint64(rng.IntN(1+size/8))<<sh&(1<<(sh+pieceBits)-1)
		}
		want := slices.Clone(q)
		var ends [1 << pieceBits]int
		sortTop(q, sh, &ends)
		top := func(x uint64) int { return int(x >> sh & (1<<pieceBits - 1)) }
		start := 0
		for v, end := range ends {
			for _, x := range q[start:end] {
				if top(x) != v {
					t.Fatalf("size %d: word %#x among the words of %d", size, x, v)
				}
			}
			start = end
		}
		if start != size {
			t.Fatalf("size %d: the values end at %d", size, start)
		}
		slices.Sort(q)
		slices.Sort(want)
		if !slices.Equal(q, want) {
			t.Fatalf("size %d: not a permutation of the words", size)
		}
	}
}
