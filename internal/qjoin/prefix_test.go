package qjoin

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPrefixQueriesBound: past preMax distinct first-two-chunk values the queries
// are left as they are (the plain kernels count them).
func TestPrefixQueriesBound(t *testing.T) {
	q := make([]uint64, preMax+1)
	for i := range q {
		q[i] = uint64(i) | 1<<62
	}
	qs := &[4][]uint64{q}
	if got, d := (&matcher{}).prefixQueries(qs, &queryScratch{}); d.a != 0 || got != qs {
		t.Errorf("%d distinct values: %d slots", len(q), d.a)
	}
	q = q[:preMax]
	got, d := (&matcher{}).prefixQueries(&[4][]uint64{q}, &queryScratch{})
	if d.a != preMax || d.b != 0 {
		t.Fatalf("%d distinct values: %v slots", len(q), d)
	}
	for i, w := range got[0] {
		if w>>10 != q[i]>>10 || w&1023 != uint64(i) {
			t.Errorf("query %d: %#x rewritten as %#x", i, q[i], w)
		}
	}
}

// TestPrefixSecondField: a list takes the second field only with preSecondPer
// queries or more per value of its chunks 2 and 3, and then both fields' slots.
func TestPrefixSecondField(t *testing.T) {
	im := KernelAVX512.impl()
	if !KernelAVX512.Available() || im.countsP[2][8] == nil {
		t.Skip("no prefix kernels of two fields on this CPU")
	}
	for _, per := range []int{preSecondPer - 1, preSecondPer} {
		const values = 50
		q := make([]uint64, values*per)
		for i := range q {
			q[i] = uint64(i%values)*37%1024<<10 | uint64(i%3)<<1 | 1<<40
		}
		sc := &queryScratch{}
		got, d := (&matcher{im: im, k: 8, preFields: 2}).prefixQueries(&[4][]uint64{q}, sc)
		want := preSlots{a: 3}
		if per >= preSecondPer {
			want.b = values
		}
		if d != want {
			t.Fatalf("%d queries a value: slots %v, want %v", per, d, want)
		}
		for i, w := range got[0] {
			a, b := w&1023, w>>10&1023
			if sc.preVals[a] != uint16(q[i]&1023) || d.b > 0 && sc.preValsB[b] != uint16(q[i]>>10&1023) || w>>20 != q[i]>>20 {
				t.Fatalf("query %#x rewritten as %#x", q[i], w)
			}
		}
	}
}

// TestPrefixMatcher: the matcher counts what a naive pairwise AND does where its
// queries take few values of their first two chunks and its table is large, the case
// of the prefix kernels, which the kernels that have them must have counted: East and
// West words as the table, with and without cut lines, tables built up front and as the
// count comes to them, in one call, in steps and with the prefix tables of one block
// at a time.
func TestPrefixMatcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for _, L := range []int{20, 30, 40, 44} {
		for _, eastTable := range []bool{true, false} {
			ne, nw := 6000, 1500
			if !eastTable {
				ne, nw = nw, ne
			}
			east := randomEast(rng, ne, L, false)
			west := randomWords(rng, nw, L, false)
			qs := west
			if !eastTable {
				qs = east
			}
			// The first two chunks take 60 values, the next two 40 (few
			// enough for the second field: preSecondPer queries a value).
			lows := randomWords(rng, 60, min(L, 10), true)
			mids := randomWords(rng, 40, min(max(L-10, 1), 10), true)
			for i := range qs {
				qs[i] = qs[i]&^(1<<20-1) | mids[rng.IntN(len(mids))]<<10 | lows[rng.IntN(len(lows))]
			}
			shift0 := uint(rng.IntN(2))
			want := naiveCount(east, west, L, shift0)
			tab := east
			if !eastTable {
				tab = west
			}
			for _, kern := range kernels() {
				im := kern.impl()
				for _, cut := range []int{-1, 0, 2, 5} {
					for _, opt := range []struct {
						once   bool
						fields int
					}{{false, 1}, {true, 1}, {false, 2}, {true, 2}} {
						once := opt.once
						mt := newMatcher(L, im)
						mt.forceCut = cut
						mt.preFields = opt.fields
						mt.setWeights(shift0)
						prefixed := 0
						mt.probe = func(c *kernelCall) {
							if c.pw() > 0 && c.slots.fields() == opt.fields {
								prefixed++
							}
						}
						if once {
							mt.buildOnce(tab, qs, eastTable, -1)
						} else {
							mt.build(tab, qs, eastTable, -1)
						}
						name := fmt.Sprintf("L=%d East table %v, %v, cut %d (%d), once %v, %d fields", L, eastTable, kern, cut, mt.c, once, opt.fields)
						if got, ok := mt.countQueries(qs, nil); !ok || got != want {
							t.Errorf("%s: %d, want %d", name, got, want)
						}
						mt.stepPairs = 7
						if got, ok := mt.countQueries(qs, func() bool { return false }); !ok || got != want {
							t.Errorf("%s, in steps: %d, want %d", name, got, want)
						}
						// Prefix tables of one block at a time.
						mt.stepPairs, mt.preBytes = defaultStepPairs, 1
						if got, ok := mt.countQueries(qs, nil); !ok || got != want {
							t.Errorf("%s, a block's prefix tables at a time: %d, want %d", name, got, want)
						}
						if im.countsP[opt.fields][mt.k] != nil && mt.nb() >= preMinBlocks && prefixed == 0 {
							t.Errorf("%s: %d blocks, the prefix kernels of %d fields not used", name, mt.nb(), opt.fields)
						}
					}
				}
			}
		}
	}
}
