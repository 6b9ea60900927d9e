package qjoin

import (
	"context"
	"math/bits"
	"testing"
)

// subsetCounts returns, for every row subset r of quadrant qg, the number
// of its placements with a queen in each row of r and none elsewhere: the
// entries of r's slice, by a search of its own (each row in turn empty or
// holding a queen; the last row's placements counted at once).
func subsetCounts(qg *quadGeom) []uint64 {
	cnt := make([]uint64, 1<<uint(qg.rows))
	full := uint32(1)<<uint(qg.cols) - 1
	last := qg.rows - 1
	var rec func(i int, cols, dl, dr, r uint32)
	rec = func(i int, cols, dl, dr, r uint32) {
		free := ^(cols | dl | dr) & qg.allowed[i] & full
		if i == last {
			cnt[r]++
			cnt[r|1<<uint(i)] += uint64(bits.OnesCount32(free))
			return
		}
		rec(i+1, cols, dl<<1&full, dr>>1, r)
		for ; free != 0; free &= free - 1 {
			b := free & -free
			rec(i+1, cols|b, (dl|b)<<1&full, (dr|b)>>1, r|1<<uint(i))
		}
	}
	rec(0, 0, 0, 0, 0)
	return cnt
}

// sliceSizes returns rowSetSlices and quadSlices of n, counted over the
// row sets of the plan: the most entries of the four slices of one row
// set, and the sum over the quadrants of the most entries of one slice.
func sliceSizes(n int) (rowSet, quads uint64) {
	g := newGeom(n, defaultOptions(n).westRestricted)
	var cnt [4][]uint64
	for q := range g.quads {
		cnt[q] = subsetCounts(&g.quads[q])
	}
	h := g.h
	nMask := uint32(1)<<uint(h) - 1
	var most [4]uint64
	for R := uint32(1)<<uint(n-h) - 1; R < 1<<uint(n); R = nextComb(R) {
		if reverse(R, n) < R {
			continue
		}
		W := ^R & (1<<uint(n) - 1)
		e := [4]uint64{qNE: cnt[qNE][R&nMask], qSE: cnt[qSE][R>>uint(h)], qNW: cnt[qNW][W&nMask], qSW: cnt[qSW][W>>uint(h)]}
		rowSet = max(rowSet, e[0]+e[1]+e[2]+e[3])
		for q := range most {
			most[q] = max(most[q], e[q])
		}
	}
	return rowSet, most[0] + most[1] + most[2] + most[3]
}

// TestSliceSizes: the slice sizes of the memory estimate are what a search
// of every row subset of each quadrant counts (up to n = 20, 22 in the
// long tests), and that search counts what the slicer builds (n ≤ 14).
func TestSliceSizes(t *testing.T) {
	top := 20
	if !testing.Short() {
		top = 22
	}
	for n := 10; n <= top; n++ {
		rowSet, quads := sliceSizes(n)
		if rowSet != rowSetSlices[n] || quads != quadSlices[n] {
			t.Errorf("n=%d: counted %d entries of one row set at most and %d of the largest slices, the tables say %d and %d",
				n, rowSet, quads, rowSetSlices[n], quadSlices[n])
		}
	}
	for _, n := range []int{11, 14} {
		p, err := newPlan(context.Background(), n, defaultOptions(n))
		if err != nil {
			t.Fatal(err)
		}
		sl := newSlicers(p.g, p.t, true, false)
		for q := range p.g.quads {
			cnt := subsetCounts(&p.g.quads[q])
			for r := range cnt {
				v := sl[q].get(uint32(r))
				if got := uint64(v.idx[len(v.idx)-1]); got != cnt[r] {
					t.Fatalf("n=%d quadrant %d rows %b: the slicer has %d entries, the search %d", n, q, r, got, cnt[r])
				}
			}
		}
	}
}
