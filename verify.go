package nqueens

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens/internal/prefetch"
)

// Verifier checks a placement streamed row by row in O(1) per row and 5 bits per queen:
// one bit per column, per diagonal (row − column) and per anti-diagonal (row + column).
// It knows which line is shared, but not which earlier row holds it: [VerifyColumns] and
// [Verify] find that row with a second pass over the rows before the conflict.
type Verifier struct {
	n, row          int
	cols, dia, anti bitset
}

// NewVerifier returns a Verifier for an n×n board.
func NewVerifier(n int) *Verifier {
	return &Verifier{n: n, cols: newBitset(n), dia: newBitset(2 * n), anti: newBitset(2 * n)}
}

// Add checks the 0-based column of the next row. At the first conflict it returns a
// *ConflictError whose Row1 is -1 (unknown); later calls are not meaningful.
func (v *Verifier) Add(col int) error {
	r := v.row
	v.row++
	switch {
	case r >= v.n:
		return &ConflictError{Kind: WrongLength, N: v.n, Row1: -1, Row2: r + 1, Col2: col}
	case col < 0 || col >= v.n:
		return &ConflictError{Kind: OffBoard, N: v.n, Row1: -1, Row2: r, Col2: col}
	case v.cols.testAndSet(col):
		return &ConflictError{Kind: SameColumn, N: v.n, Row1: -1, Row2: r, Col2: col}
	case v.dia.testAndSet(r - col + v.n - 1):
		return &ConflictError{Kind: SameDiagonal, N: v.n, Row1: -1, Row2: r, Col2: col}
	case v.anti.testAndSet(r + col):
		return &ConflictError{Kind: SameAnti, N: v.n, Row1: -1, Row2: r, Col2: col}
	}
	return nil
}

// Finish reports a WrongLength error when fewer than n rows were added.
func (v *Verifier) Finish() error {
	if v.row < v.n {
		return &ConflictError{Kind: WrongLength, N: v.n, Row1: -1, Row2: v.row}
	}
	return nil
}

// Verify checks that p is a solution: every column on the board and used once, every
// diagonal and anti-diagonal used at most once. It runs in O(n) time and 5 bits of memory
// per queen. On failure it returns a *ConflictError naming the first attacking pair.
func Verify(p Placement) error {
	return VerifyColumns(len(p), p.Columns())
}

// VerifyColumns is Verify for a placement of n rows given as a stream of 0-based columns.
// On a conflict it ranges over cols a second time to name the earlier queen, so cols must
// yield the same columns each time it is ranged over.
func VerifyColumns(n int, cols iter.Seq[int]) error {
	v := NewVerifier(n)
	var err error
	for c := range cols {
		if err = v.Add(c); err != nil {
			break
		}
	}
	if err == nil {
		return v.Finish()
	}
	var ce *ConflictError
	if errors.As(err, &ce) && ce.Kind >= SameColumn && ce.Kind <= SameAnti {
		locatePartner(ce, cols)
	}
	return err
}

// locatePartner fills in Row1 and Col1 of a conflict found by a Verifier, by ranging over
// the rows before Row2 again.
func locatePartner(ce *ConflictError, cols iter.Seq[int]) {
	r := 0
	for c := range cols {
		if r >= ce.Row2 {
			return
		}
		var same bool
		switch ce.Kind {
		case SameColumn:
			same = c == ce.Col2
		case SameDiagonal:
			same = r-c == ce.Row2-ce.Col2
		case SameAnti:
			same = r+c == ce.Row2+ce.Col2
		}
		if same {
			ce.Row1, ce.Col1 = r, c
			return
		}
		r++
	}
}

// verifyWords is the number of 64-bit words of scratch VerifyInPlace needs for n queens:
// two bitsets of 2n−1 bits (room for the columns and the anti-diagonals in a first pass,
// then for the diagonals in a second).
func verifyWords(n int) int { return 2 * ((2*n - 1 + 63) / 64) }

// VerifyInPlace is Verify for large placements: 4 bits of memory per queen rather than 5
// (two bitsets of 2n−1 bits, used in two passes), its probes prefetched, and from 2^24
// queens on a faster check that only says valid or not first. p is only read. It returns
// the same errors as Verify; a placement with a column off the board is handed to Verify.
func VerifyInPlace(p Placement) error {
	return verifyInPlace(context.Background(), p, make([]uint64, verifyWords(len(p))), nil, verifyOptions{})
}

// verifyBlock is the number of rows whose bitset words are prefetched together, one block
// ahead of the rows being checked: at n = 10^9 every probe is a cache miss, and the rows
// are read in order, so the words they will probe are known early.
const verifyBlock = 32

// verifyInPlace is VerifyInPlace that stops with ctx.Err() when ctx is cancelled and
// reports progress now and then (nil: no reports): at n = 10^9 the random accesses of
// the check take tens of seconds. The phase is "verify", in rows checked: 3n rows for
// the bucketed check (three passes), 2n for the exact passes; the exact passes that
// follow a conflict found by the bucketed check report as "locate the conflict".
//
// The five bits per queen of Verify do not fit in the four of scratch, so it makes two
// passes over p: columns and anti-diagonals first, then diagonals over the rows up to the
// first conflict of the first pass. Between them they find the conflict Verify finds: the
// first row that clashes with an earlier one, and for that row the first of column,
// diagonal, anti-diagonal. From bucketMinN rows on, a faster check that only says valid
// or not runs first (verify_bucket.go); the exact passes run only after it finds a
// conflict. opt holds the settings of the bucketed check (the zero value: the package's).
func verifyInPlace(ctx context.Context, p Placement, scratch []uint64, progress func(phase string, done, total uint64), opt verifyOptions) error {
	n := len(p)
	opt = opt.withDefaults()
	half := verifyWords(n) / 2
	if len(scratch) < 2*half {
		return fmt.Errorf("VerifyInPlace: scratch has %d words, need %d", len(scratch), 2*half)
	}
	if n >= opt.minN {
		ok, err := verifyBucketed(ctx, p, scratch, func(done int) {
			if progress != nil {
				progress("verify", uint64(done), 3*uint64(n))
			}
		}, opt)
		if ok || err != nil {
			return err
		}
		// A conflict or a column off the board: the checks below name it as Verify does.
	}
	for _, c := range p {
		if c < 0 || int(c) >= n {
			return Verify(p)
		}
	}
	phase := "verify"
	if n >= opt.minN {
		phase = "locate the conflict"
	}
	prog := func(done int) {
		if progress != nil {
			progress(phase, uint64(done), 2*uint64(n))
		}
	}
	stop, kind, err := firstColumnOrAnti(ctx, p, scratch, prog)
	if err != nil {
		return err
	}
	if stop, kind, err = firstDiagonal(ctx, p, scratch[:half], stop, kind, prog); err != nil {
		return err
	}
	if kind == 0 {
		return nil
	}
	ce := &ConflictError{Kind: kind, N: n, Row1: -1, Row2: stop, Col2: int(p[stop])}
	locatePartner(ce, p.Columns())
	return ce
}

// pollRows is how many rows the exact passes of verifyInPlace check between two looks
// at their context (and two progress reports).
const pollRows = 1 << 20

// firstColumnOrAnti is the first pass of verifyInPlace: the columns (n bits of scratch)
// and the 2n−1 anti-diagonals r+c (the next half of it), in row order with the words of
// the next block prefetched. It returns the first row that repeats either, and which
// (n and 0 when none does); prog is told the rows done.
func firstColumnOrAnti(ctx context.Context, p Placement, scratch []uint64, prog func(done int)) (int, ConflictKind, error) {
	n := len(p)
	cols := bitset(scratch[:(n+63)/64])
	anti := bitset(scratch[len(cols) : len(cols)+verifyWords(n)/2])
	clear(cols)
	clear(anti)
	var idx [2 * verifyBlock]uint32
	for lo := 0; lo < n; lo += verifyBlock {
		if lo%pollRows == 0 && lo > 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
			prog(lo)
		}
		if next := p[min(lo+verifyBlock, n):min(lo+2*verifyBlock, n)]; len(next) > 0 {
			for i, c := range next {
				r := lo + verifyBlock + i
				idx[2*i] = uint32(c) >> 6
				idx[2*i+1] = uint32(len(cols) + (r+int(c))>>6)
			}
			prefetch.Words(&scratch[0], idx[:2*len(next)])
		}
		for r := lo; r < min(lo+verifyBlock, n); r++ {
			c := int(p[r])
			if cols.testAndSet(c) {
				return r, SameColumn, nil
			}
			if anti.testAndSet(r + c) {
				return r, SameAnti, nil
			}
		}
	}
	return n, 0, nil
}

// firstDiagonal is the second pass of verifyInPlace: the diagonals r−c+n−1 (in dia) of
// rows 0..stop, stop included, where the first pass found a conflict of kind at row stop
// (n: none). At one row a diagonal clash is named before an anti-diagonal one and after
// a column one, so the first conflict is the earlier of the two passes' by that order.
func firstDiagonal(ctx context.Context, p Placement, dia bitset, stop int, kind ConflictKind, prog func(done int)) (int, ConflictKind, error) {
	n := len(p)
	last := min(stop, n-1)
	clear(dia)
	var idx [verifyBlock]uint32
	for lo := 0; lo <= last; lo += verifyBlock {
		if lo%pollRows == 0 && lo > 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
			prog(n + lo)
		}
		if next := p[min(lo+verifyBlock, last+1):min(lo+2*verifyBlock, last+1)]; len(next) > 0 {
			for i, c := range next {
				r := lo + verifyBlock + i
				idx[i] = uint32((r - int(c) + n - 1) >> 6)
			}
			prefetch.Words(&dia[0], idx[:len(next)])
		}
		for r := lo; r <= min(lo+verifyBlock-1, last); r++ {
			if dia.testAndSet(r - int(p[r]) + n - 1) {
				if r < stop || kind == SameAnti {
					return r, SameDiagonal, nil
				}
				return stop, kind, nil
			}
		}
	}
	return stop, kind, nil
}
