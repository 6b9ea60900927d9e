package nqueens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// smallBuckets are the settings that make verifyInPlace take the bucketed path from n = 1
// with regions of 2^shift bits, so that small boards cross many buckets and flushes.
func smallBuckets(shift int) verifyOptions {
	return verifyOptions{bucketShift: shift, minN: 1, pollRows: 100}
}

// TestVerifyBucketedAgainstVerify: with the bucketed path forced on, every answer of
// verifyBucketed agrees with Verify (valid or not) on solutions and on damaged ones of
// each kind, and VerifyInPlace still returns Verify's exact error.
func TestVerifyBucketedAgainstVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	for _, shift := range []int{6, 7, 10} {
		small := smallBuckets(shift)
		for _, n := range []int{1, 4, 5, 64, 65, 1000, 4099, 1 << 14} {
			var sol Placement
			if n == 1 {
				sol = Placement{0}
			} else {
				res, err := Solve(context.Background(), n, SolveOptions{Algorithm: Construct})
				if err != nil {
					continue // n = 2, 3
				}
				sol = res.Placement
			}
			for trial := range 40 {
				p := slices.Clone(sol)
				switch trial % 4 {
				case 0:
					p[rng.IntN(n)] = int32(rng.IntN(n)) // a column clash, or none
				case 1:
					i, j := rng.IntN(n), rng.IntN(n)
					p[i], p[j] = p[j], p[i] // diagonal clashes, or none
				case 2:
					// A row's queen moved along its anti-diagonal onto a free column
					// is a column clash; shifting every row by one keeps columns
					// distinct and makes anti- and diagonal clashes at the wrap.
					for r := range p {
						p[r] = (p[r] + 1) % int32(n)
					}
				}
				want := Verify(p)
				ok, err := verifyBucketed(context.Background(), p, make([]uint64, verifyWords(n)), nil, small)
				if err != nil {
					t.Fatal(err)
				}
				if ok != (want == nil) {
					t.Fatalf("shift %d n=%d trial %d: bucketed says valid=%v, Verify says %v", shift, n, trial, ok, want)
				}
				if got := verifyInPlace(context.Background(), p, make([]uint64, verifyWords(n)), nil, small); !sameError(want, got) {
					t.Fatalf("shift %d n=%d trial %d: Verify %v, VerifyInPlace %v", shift, n, trial, want, got)
				}
			}
		}
	}
}

// TestDistinctLinesEachFamily compares each family's pass with a map of the line indices
// on random placements (most with a few clashes, some with one or none), crossing many
// small buckets: with 2^6-bit regions a bucket holds less than a cache line (the staged
// lines are applied directly), with 2^10 and 2^12 bits it holds whole lines that go to
// memory with non-temporal stores and are applied when the bucket is full.
func TestDistinctLinesEachFamily(t *testing.T) {
	for _, shift := range []int{6, 10, 12} {
		t.Run(fmt.Sprint("shift", shift), func(t *testing.T) { testDistinctLines(t, shift) })
	}
}

func testDistinctLines(t *testing.T, shift int) {
	small := smallBuckets(shift)
	rng := rand.New(rand.NewPCG(5, uint64(shift)))
	for trial := range 300 {
		n := 1 + rng.IntN(3000)
		p := make(Placement, n)
		for r := range p {
			p[r] = int32(r)
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		for range rng.IntN(3) {
			p[rng.IntN(n)] = int32(rng.IntN(n))
		}
		scratch := make([]uint64, verifyWords(n))
		for _, kind := range []int{lineColumn, lineAnti, lineDiag} {
			seen := map[int]bool{}
			want := true
			for r, c := range p {
				line := [...]int{int(c), r + int(c), r - int(c) + n - 1}[kind]
				if seen[line] {
					want = false
				}
				seen[line] = true
			}
			bits := (2*n - 1 + 63) / 64
			if kind == lineColumn {
				bits = (n + 63) / 64
			}
			free := scratch[bits:]
			buf := make([]uint32, 2*len(free))
			got, err := distinctLines(context.Background(), p, kind, scratch[:bits], buf, func(int) {}, small)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("trial %d n=%d family %d: distinct=%v, want %v", trial, n, kind, got, want)
			}
		}
	}
}

// TestVerifyBucketedCancel: a cancelled bucketed check stops and says so.
func TestVerifyBucketedCancel(t *testing.T) {
	small := smallBuckets(8)
	n := 1 << 16
	res, err := Solve(context.Background(), n, SolveOptions{Algorithm: Construct})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := verifyBucketed(ctx, res.Placement, make([]uint64, verifyWords(n)), nil, small); err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	ok, err := verifyBucketed(context.Background(), res.Placement, make([]uint64, verifyWords(n)), nil, small)
	if !ok || err != nil {
		t.Fatalf("a solution: got %v, %v", ok, err)
	}
}

// TestVerifyBucketedOffBoard: the bucketed pass meets a column off the board (verifyInPlace
// no longer checks the range first on large boards) and says "not valid" without
// indexing out of its bitset; VerifyInPlace then names the column as Verify does.
func TestVerifyBucketedOffBoard(t *testing.T) {
	small := smallBuckets(10)
	n := 5000
	res, err := Solve(context.Background(), n, SolveOptions{Algorithm: Construct})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []int32{int32(n), -1, 1 << 30, -1 << 31} {
		for _, r := range []int{0, n / 2, n - 1} {
			p := slices.Clone(res.Placement)
			p[r] = bad
			ok, err := verifyBucketed(context.Background(), p, make([]uint64, verifyWords(n)), nil, small)
			if ok || err != nil {
				t.Fatalf("column %d in row %d: bucketed says %v, %v", bad, r, ok, err)
			}
			// The column pass alone rejects it, whatever the diagonals.
			set, buf := splitScratch(n, lineColumn, make([]uint64, verifyWords(n)))
			if ok, _ := distinctLines(context.Background(), p, lineColumn, set, buf, func(int) {}, small); ok {
				t.Fatalf("column %d in row %d: the column pass says distinct", bad, r)
			}
			want := Verify(p)
			var ce *ConflictError
			if !errors.As(want, &ce) || ce.Kind != OffBoard {
				t.Fatalf("Verify: %v", want)
			}
			if got := verifyInPlace(context.Background(), p, make([]uint64, verifyWords(n)), nil, small); !sameError(want, got) {
				t.Fatalf("column %d in row %d: Verify %v, VerifyInPlace %v", bad, r, want, got)
			}
		}
	}
}
