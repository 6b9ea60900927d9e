package enumerate_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/enumerate"
	"github.com/nqueens/nqueens/internal/oeis"
)

// reference lists every solution by trying every permutation of the columns in
// lexicographic order and keeping those without two queens on a diagonal: nothing in
// common with the bitboard search.
func reference(n int) [][]int32 {
	var out [][]int32
	q := make([]int32, n)
	used := make([]bool, n)
	var rec func(r int)
	rec = func(r int) {
		if r == n {
			for i := range n {
				for j := range i {
					if q[i]-q[j] == int32(i-j) || q[j]-q[i] == int32(i-j) {
						return
					}
				}
			}
			out = append(out, slices.Clone(q))
			return
		}
		for c := range n {
			if !used[c] {
				used[c] = true
				q[r] = int32(c)
				rec(r + 1)
				used[c] = false
			}
		}
	}
	rec(0)
	return out
}

func collect(t *testing.T, n int, uniq bool) ([][]int32, []int, enumerate.Stats) {
	t.Helper()
	var sols [][]int32
	var sizes []int
	st, err := enumerate.Each(context.Background(), n, uniq, func(q []int32, size int) bool {
		sols = append(sols, slices.Clone(q))
		sizes = append(sizes, size)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return sols, sizes, st
}

func TestEachEqualsReference(t *testing.T) {
	for n := 1; n <= 10; n++ {
		got, _, st := collect(t, n, false)
		want := reference(n)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("n=%d: %d solutions, reference %d, or a different order", n, len(got), len(want))
		}
		if uint64(len(got)) != oeis.Total(n) || st.Solutions != oeis.Total(n) || st.Total != oeis.Total(n) {
			t.Errorf("n=%d: %d solutions (stats %+v), want %d", n, len(got), st, oeis.Total(n))
		}
		for i, q := range got {
			if err := nqueens.Verify(nqueens.Placement(q)); err != nil {
				t.Fatalf("n=%d: %v: %v", n, q, err)
			}
			if i > 0 && slices.Compare(nqueens.Placement(got[i-1]), q) >= 0 {
				t.Fatalf("n=%d: not strictly increasing at %d", n, i)
			}
		}
	}
}

// TestUniqueAgainstCanonical checks the unique mode against the root package's Canonical:
// the representatives are exactly the distinct canonical forms of all solutions, with
// their class sizes, and the sizes sum to the total.
func TestUniqueAgainstCanonical(t *testing.T) {
	for n := 1; n <= 10; n++ {
		all, _, _ := collect(t, n, false)
		want := map[string]int{}
		for _, q := range all {
			c, size := nqueens.Canonical(nqueens.Placement(q))
			want[c.String()] = size
		}
		got, sizes, st := collect(t, n, true)
		if uint64(len(got)) != oeis.Unique(n) || len(got) != len(want) {
			t.Fatalf("n=%d: %d classes, want %d", n, len(got), oeis.Unique(n))
		}
		sum := 0
		for i, q := range got {
			p := nqueens.Placement(q)
			if s, ok := want[p.String()]; !ok || s != sizes[i] {
				t.Errorf("n=%d: %v size %d is not a canonical form (want size %d, found %v)", n, p, sizes[i], s, ok)
			}
			if i > 0 && slices.Compare(nqueens.Placement(got[i-1]), p) >= 0 {
				t.Fatalf("n=%d: not strictly increasing at %d", n, i)
			}
			sum += sizes[i]
		}
		if uint64(sum) != oeis.Total(n) || st.Total != oeis.Total(n) {
			t.Errorf("n=%d: class sizes sum to %d (stats %d), want %d", n, sum, st.Total, oeis.Total(n))
		}
	}
}

func TestCounts(t *testing.T) {
	maxN := 13
	if testing.Short() {
		maxN = 12
	}
	for n := 1; n <= maxN; n++ {
		for _, u := range []bool{false, true} {
			st, err := enumerate.Each(context.Background(), n, u, func([]int32, int) bool { return true })
			want := oeis.Unique(n)
			if !u {
				want = oeis.Total(n)
			}
			if err != nil || st.Solutions != want || st.Total != oeis.Total(n) {
				t.Errorf("n=%d unique=%v: %+v %v, want %d solutions, total %d", n, u, st, err, want, oeis.Total(n))
			}
		}
	}
}

func TestStopAndCancel(t *testing.T) {
	k := 0
	st, err := enumerate.Each(context.Background(), 10, false, func([]int32, int) bool { k++; return k < 5 })
	if err != nil || k != 5 || st.Solutions != 5 {
		t.Errorf("limit: %d yields, %+v %v", k, st, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err = enumerate.Each(ctx, 16, false, func([]int32, int) bool { return true })
	if err != context.Canceled || st.Solutions > 100000 {
		t.Errorf("cancel: %+v %v", st, err)
	}
	for _, n := range []int{0, 33} {
		if _, err := enumerate.Each(context.Background(), n, false, nil); err == nil {
			t.Errorf("n=%d accepted", n)
		}
	}
}

var sink uint64

func BenchmarkEach(b *testing.B) {
	for _, u := range []bool{false, true} {
		for _, n := range []int{10, 12, 14} {
			for _, w := range []int{1, 2} {
				b.Run(fmt.Sprintf("unique=%v/n=%d/workers=%d", u, n, w), func(b *testing.B) {
					var st enumerate.Stats
					for b.Loop() {
						st, _ = enumerate.EachParallel(context.Background(), n, u, w, func(q []int32, _ int) bool {
							sink += uint64(q[0])
							return true
						})
					}
					b.ReportMetric(float64(st.Nodes), "nodes/op")
					b.ReportMetric(float64(st.Solutions), "solutions/op")
				})
			}
		}
	}
}
