package nqueens

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/conformance"
	"github.com/nqueens/nqueens/internal/oeis"
)

// naiveFirstConflict is the O(n²) definition of the first attacking pair: the first row
// that attacks an earlier row, on the first shared line in the order column, diagonal,
// anti-diagonal; an off-board column is reported at its row.
func naiveFirstConflict(p Placement) (kind ConflictKind, r1, r2 int) {
	n := len(p)
	for r := range n {
		c := int(p[r])
		if c < 0 || c >= n {
			return OffBoard, -1, r
		}
		for _, k := range []ConflictKind{SameColumn, SameDiagonal, SameAnti} {
			for e := range r {
				d := int(p[e])
				if (k == SameColumn && d == c) || (k == SameDiagonal && e-d == r-c) || (k == SameAnti && e+d == r+c) {
					return k, e, r
				}
			}
		}
	}
	return 0, -1, -1
}

// TestVerifyExhaustive compares Verify with the naive checker on every placement of every
// board up to n = 7 (one column per row, columns 0..n-1: n^n placements).
func TestVerifyExhaustive(t *testing.T) {
	for n := 1; n <= 7; n++ {
		p := make(Placement, n)
		valid := 0
		for {
			kind, r1, r2 := naiveFirstConflict(p)
			err := Verify(p)
			before := slices.Clone(p)
			if err2 := VerifyInPlace(p); !sameError(err, err2) || !slices.Equal(p, before) {
				t.Fatalf("%v: Verify %v, VerifyInPlace %v (placement now %v)", p, err, err2, before)
			}
			if kind == 0 {
				valid++
				if err != nil {
					t.Fatalf("%v: naive says valid, Verify says %v", p, err)
				}
			} else {
				var ce *ConflictError
				if !errors.As(err, &ce) || ce.Kind != kind || ce.Row1 != r1 || ce.Row2 != r2 {
					t.Fatalf("%v: naive says %v rows %d,%d; Verify says %v", p, kind, r1, r2, err)
				}
				if ce.Col2 != int(p[r2]) || (r1 >= 0 && ce.Col1 != int(p[r1])) {
					t.Fatalf("%v: wrong columns in %+v", p, ce)
				}
			}
			// next placement in base n
			i := 0
			for i < n {
				p[i]++
				if int(p[i]) < n {
					break
				}
				p[i] = 0
				i++
			}
			if i == n {
				break
			}
		}
		if uint64(valid) != oeis.Total(n) {
			t.Errorf("n=%d: %d valid placements, want %d", n, valid, oeis.Total(n))
		}
	}
}

func TestVerifyMessages(t *testing.T) {
	cases := map[string]Placement{
		"queens at row 1, column 2 and row 3, column 2 share a column":         {1, 3, 1, 0},
		"queens at row 1, column 1 and row 2, column 2 share a diagonal":       {0, 1, 3, 2},
		"queens at row 1, column 2 and row 2, column 1 share an anti-diagonal": {1, 0, 3, 2},
		"row 2: column 5 is off the board (n = 4)":                             {1, 4, 0, 2},
	}
	for want, p := range cases {
		if err := Verify(p); err == nil || err.Error() != want {
			t.Errorf("%v: got %v, want %q", p, err, want)
		}
	}
	v := NewVerifier(4)
	v.Add(1)
	if err := v.Finish(); err == nil || err.Error() != "expected 4 rows, got 1" {
		t.Errorf("short: got %v", err)
	}
}

// TestVerifyInPlaceLarge compares VerifyInPlace with Verify on damaged solutions of
// boards large enough for many prefetch blocks: one row moved to another column (a
// column clash, often a diagonal one first), two rows' columns swapped (diagonal clashes
// only), and untouched solutions. Both must name the same pair.
func TestVerifyInPlaceLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{33, 64, 65, 1000, 4099, 1 << 14} {
		cols, err := Construction(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		var sol Placement
		for c := range cols {
			sol = append(sol, int32(c))
		}
		for trial := range 60 {
			p := slices.Clone(sol)
			switch trial % 3 {
			case 0:
				p[rng.IntN(n)] = int32(rng.IntN(n))
			case 1:
				i, j := rng.IntN(n), rng.IntN(n)
				p[i], p[j] = p[j], p[i]
			}
			want := Verify(p)
			if trial%3 == 2 && want != nil {
				t.Fatalf("n=%d: the construction is not a solution: %v", n, want)
			}
			before := slices.Clone(p)
			got := VerifyInPlace(p)
			if !sameError(want, got) || !slices.Equal(p, before) {
				t.Fatalf("n=%d trial %d: Verify %v, VerifyInPlace %v", n, trial, want, got)
			}
		}
	}
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// TestVerifyInPlaceCancel: a cancelled check stops, says so, and leaves the placement as
// it was.
func TestVerifyInPlaceCancel(t *testing.T) {
	n := 3 << 20
	p := make(Placement, n)
	for r := range p {
		p[r] = int32((2*r + 1) % n) // not a solution, but every column in range
	}
	before := slices.Clone(p)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls int
	err := verifyInPlace(ctx, p, make([]uint64, verifyWords(n)), func(string, uint64, uint64) { calls++ }, verifyOptions{})
	if !errors.Is(err, context.Canceled) || !slices.Equal(p, before) {
		t.Fatalf("got %v; placement restored: %v", err, slices.Equal(p, before))
	}
	if err := verifyInPlace(context.Background(), p, make([]uint64, verifyWords(n)), func(string, uint64, uint64) { calls++ }, verifyOptions{}); err == nil || calls == 0 {
		t.Errorf("want a conflict and progress calls, got %v after %d calls", err, calls)
	}
}

// TestVerifierConformance runs the verifier suite on every verifier of the package.
func TestVerifierConformance(t *testing.T) {
	ctx := context.Background()
	cols := func(q []int32) iter.Seq[int] { return Placement(q).Columns() }
	for name, spec := range map[string]conformance.VerifierSpec{
		"Verify":        {Valid: func(q []int32) bool { return Verify(q) == nil }},
		"VerifyColumns": {Valid: func(q []int32) bool { return VerifyColumns(len(q), cols(q)) == nil }},
		"VerifyInPlace": {Valid: func(q []int32) bool { return VerifyInPlace(q) == nil }},
		"Verifier": {Valid: func(q []int32) bool {
			v := NewVerifier(len(q))
			for _, c := range q {
				if v.Add(int(c)) != nil {
					return false
				}
			}
			return v.Finish() == nil
		}},
		"verifyBucketed": {Valid: func(q []int32) bool {
			ok, err := verifyBucketed(ctx, q, make([]uint64, verifyWords(len(q))), nil, verifyOptions{})
			return ok && err == nil
		}},
		"VerifyBinary": {NoNegative: true, NoEmpty: true, Valid: func(q []int32) bool {
			_, err := VerifyBinary(ctx, bytes.NewReader(binaryOf(q)), VerifyOptions{})
			return err == nil
		}},
		"smallChecker": {MaxN: 32, Valid: func(q []int32) bool { return newSmallChecker(len(q)).valid(q) }},
		"Placements": {NoEmpty: true, Valid: func(q []int32) bool {
			var text strings.Builder
			WritePlacement(context.Background(), &text, Text, q)
			for p, err := range Placements(ctx, strings.NewReader(text.String()), 0) {
				return err == nil && Verify(p) == nil
			}
			return false
		}},
	} {
		t.Run(name, func(t *testing.T) { conformance.Verifier(t, spec) })
	}
}
