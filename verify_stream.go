package nqueens

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"
	"sync"

	"github.com/nqueens/nqueens/internal/sysmem"
)

// Verifying text while it is read (VerifyPlacements). The board size of a line of columns
// is known only at its end, so the rows are held until then, 4 bytes per queen in blocks
// that are never copied. While they are read, every row is checked against the rows before
// it, in 5 bits per queen: a column, diagonal or anti-diagonal seen twice is a conflict
// whatever n turns out to be, and from it on nothing more is held (the rest of the placement
// is only counted). When the placement ends without such a conflict, the same bits have
// checked every line, and it is valid when its largest column is on the board: no second
// pass. Peak: 4.625 bytes per queen plus a constant, against 9 to 18 for a growing slice
// and a Verify after it.

// verifyBytesPerQueen bounds the memory VerifyPlacements holds per queen: 4 for the
// columns, 5 bits for the lines, and the pages' rounding.
const verifyBytesPerQueen = 5

// defaultVerifyQueens is VerifyPlacements' maxQueens when given 0: MaxN, or fewer when the
// memory of this process holds fewer at verifyBytesPerQueen.
var defaultVerifyQueens = sync.OnceValue(func() int {
	if limit := sysmem.Limit(); limit > 0 && limit/verifyBytesPerQueen < MaxN {
		return int(limit / verifyBytesPerQueen)
	}
	return MaxN
})

// VerifyOptions configures VerifyPlacements and VerifyBinary. The zero value holds as many
// queens as the memory allows and reports nothing.
type VerifyOptions struct {
	// MaxQueens bounds the queens of a placement held in memory, 4 bytes each; a longer
	// one is a *ParseError. 0: as many as this process's memory holds at 5 bytes per queen.
	MaxQueens int
	// Progress, when not nil, is called now and then (see [Progress]): for
	// VerifyPlacements phase "verify" in placements verified (Total 0); for VerifyBinary
	// see there.
	Progress func(Progress)
}

// Verdict is VerifyPlacements' answer for one placement: its number of rows N, and Err,
// Verify's error for it (a *ConflictError), nil when it is valid.
type Verdict struct {
	N   int
	Err error
}

// VerifyPlacements reads the placements of a text stream (the forms of Placements) and
// verifies each one while it is read, yielding one Verdict per placement: the same answer
// as Verify on the whole placement, the named pair included. It holds at most
// opt.MaxQueens queens (0: as many as the memory allows at 5 bytes per queen; more is a
// *ParseError), 4 bytes per queen and 5 bits for the check, and nothing after the first conflict that is
// certain whatever the board size (a column, diagonal or anti-diagonal seen twice, a
// column below 1): the rest of the placement is only read and counted. Errors that end
// the sequence are the second value: *ParseError naming the line, the reader's or ctx's.
// Two lines of columns are a *ParseError rather than a verdict: an invalid one that ends
// the input without a newline (cut short, most likely: its first rows are no board of
// their own), and a valid one whose mark "class_size=K" is not the size of its class
// under the 8 symmetries.
func VerifyPlacements(ctx context.Context, r io.Reader, opt VerifyOptions) iter.Seq2[Verdict, error] {
	maxQueens := opt.MaxQueens
	if maxQueens <= 0 {
		maxQueens = defaultVerifyQueens()
	}
	return func(yield func(Verdict, error) bool) {
		rep := newReporter(opt.Progress)
		defer rep.Close()
		var verified uint64
		br, ok := r.(*bufio.Reader)
		if !ok || br.Size() < 1<<16 {
			br = bufio.NewReaderSize(r, 1<<16)
		}
		chk := newLineCheck(maxQueens)
		t := &textReader{ctx: ctx, br: br, line: 1, sink: chk}
		for {
			err := t.next()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(Verdict{}, err)
				return
			}
			v := Verdict{N: chk.read, Err: chk.verdict()}
			if err := t.judgeLine(v, chk); err != nil {
				yield(Verdict{}, err)
				return
			}
			if !yield(v, nil) {
				return
			}
			verified++
			rep.Report("verify", verified, 0)
		}
	}
}

// judgeLine refuses, as a *ParseError, what the verdict v on a line of columns cannot
// stand for: an invalid placement on a last line without a newline (the input was cut
// short, most likely, and its first rows are no board of their own), and a mark
// "class_size=K" that is not the size of the valid placement's class under the 8
// symmetries of the board.
func (t *textReader) judgeLine(v Verdict, chk *lineCheck) error {
	switch {
	case v.Err != nil && t.unterminated:
		return &ParseError{Line: t.startLine, Msg: fmt.Sprintf("the input ends inside this line (no newline after it), and its %d entries are not a valid placement (%v): cut short?", v.N, v.Err)}
	case v.Err == nil && t.mark > 0:
		p := make(Placement, 0, v.N)
		for c := range chk.columns {
			p = append(p, int32(c))
		}
		if _, size := Canonical(p); size != t.mark {
			return &ParseError{Line: t.startLine, Msg: fmt.Sprintf("class_size=%d, but this placement's class under the 8 symmetries of the board has %d placements", t.mark, size)}
		}
	}
	return nil
}

// lineCheck holds and checks the placement being read (see the top of this file).
type lineCheck struct {
	max    int // rows held at most
	read   int // rows read
	stop   int // the row of the first certain conflict, -1 before one is found
	blocks [][]int32
	nb     int // blocks in use
	held   int // rows held: all of them before stop, rows 0..stop after it
	// The rows are checked a batch at a time, in a tight loop whose random probes of the
	// bits the processor overlaps (probed between the parsing of one row and the next,
	// each would wait for memory alone: 3× slower at 5·10^7 queens). The next row to
	// check is row checked, in block cb at offset co.
	checked, cb, co int
	// The lines seen, each a set of non-negative integers: the columns c, the
	// anti-diagonals r+c, the diagonals r−c ≥ 0 and, as c−r−1, those below zero.
	seen    [4]bitset
	words   int  // words of the four sets
	partial bool // a line was not recorded (off the range or over the budget): the bits do not decide
	maxCol  int32
}

// checkBatch is the number of rows held before they are checked.
const checkBatch = 4096

func newLineCheck(max int) *lineCheck { return &lineCheck{max: max, stop: -1} }

// begin starts a new placement: the bits of the rows checked are cleared one by one (the
// sets stay, so a stream of small placements costs no allocation).
func (k *lineCheck) begin() {
	r := 0
	for _, blk := range k.blocks[:k.nb] {
		for _, c := range blk {
			if r >= k.checked {
				break
			}
			if c >= 0 {
				k.seen[0].clear(int(c))
				k.seen[1].clear(r + int(c))
				if r >= int(c) {
					k.seen[2].clear(r - int(c))
				} else {
					k.seen[3].clear(int(c) - r - 1)
				}
			}
			r++
		}
		if r >= k.checked {
			break
		}
	}
	for b := range k.blocks[:k.nb] {
		k.blocks[b] = k.blocks[b][:0]
	}
	k.nb, k.held, k.read, k.stop, k.partial, k.maxCol = 0, 0, 0, -1, false, 0
	k.checked, k.cb, k.co = 0, 0, 0
}

// rows is the number of rows read since begin.
func (k *lineCheck) rows() int { return k.read }

// wordBudget bounds the words of the sets: the lines of a valid placement of max queens
// take 5/8 byte per queen, and any input no more than that (and a constant), so that the
// check never needs more than the memory that max was sized on.
func (k *lineCheck) wordBudget() int { return 1<<17 + 5*(k.max/512+1) }

// add takes the 0-based column of the next row; line is the input line, for errors.
func (k *lineCheck) add(c int32, line int) error {
	if k.stop < 0 {
		if k.held == k.max {
			// Full: the rows not yet checked may hold a certain conflict, which ends the holding.
			if k.check(); k.stop < 0 {
				return tooManyHeld(line, k.max)
			}
		}
	}
	if k.stop < 0 {
		k.hold(c)
		if k.held-k.checked == checkBatch {
			k.check()
		}
	} else if k.read >= MaxN {
		return &ParseError{Line: line, Msg: fmt.Sprintf("a placement of more than %d queens, the largest board", MaxN)}
	}
	k.read++
	return nil
}

// hold appends c to the rows held.
func (k *lineCheck) hold(c int32) {
	if k.nb == 0 || len(k.blocks[k.nb-1]) == cap(k.blocks[k.nb-1]) {
		if k.nb == len(k.blocks) {
			// Small placements get small blocks: 1024 rows, doubling up to streamChunk.
			k.blocks = append(k.blocks, make([]int32, 0, min(streamChunk, max(1024, k.held))))
		}
		k.nb++
	}
	k.blocks[k.nb-1] = append(k.blocks[k.nb-1], c)
	k.held++
}

// check checks the rows held since the last call, up to the first certain conflict:
// a column below 1 (off the board whatever n) or a line seen twice. From that row on
// nothing more is held.
func (k *lineCheck) check() {
	for k.stop < 0 && k.checked < k.held {
		blk := k.blocks[k.cb]
		r := k.checked
		for _, c := range blk[k.co:] {
			if c < 0 || k.mark(0, int(c)) || k.mark(1, r+int(c)) || k.markDiag(r, int(c)) {
				k.stop = r
				r++
				break
			}
			k.maxCol = max(k.maxCol, c)
			r++
		}
		k.co += r - k.checked
		k.checked = r
		if k.co == len(blk) && k.cb+1 < k.nb {
			k.cb, k.co = k.cb+1, 0
		}
	}
	if k.stop >= 0 {
		// Drop the rows held after the conflict.
		k.blocks[k.cb] = k.blocks[k.cb][:k.co]
		k.nb = k.cb + 1
		k.held = k.stop + 1
	}
}

// markDiag marks the diagonal r−c of (r, c), c ≥ 0.
func (k *lineCheck) markDiag(r, c int) bool {
	if r >= c {
		return k.mark(2, r-c)
	}
	return k.mark(3, c-r-1)
}

// mark records line i of family f and reports whether it was recorded already. A line
// beyond the lines of the largest placement held, or that would take the sets beyond
// their budget, is not recorded (partial).
func (k *lineCheck) mark(f, i int) bool {
	s := &k.seen[f]
	if i>>6 >= len(*s) && !k.grow(s, i) {
		k.partial = true
		return false
	}
	return s.testAndSet(i)
}

// grow makes room for line i in s, and reports false when it may not.
func (k *lineCheck) grow(s *bitset, i int) bool {
	if i >= 2*k.max {
		return false
	}
	words := min(max(i>>6+1, 2*len(*s), 1024), (2*k.max+63)/64)
	if k.words+words-len(*s) > k.wordBudget() {
		return false
	}
	k.words += words - len(*s)
	*s = s.grown(words)
	if words >= 1<<18 {
		sysmem.AdviseHuge(*s) // probed at random: 2 MiB pages spare the TLB
	}
	return true
}

// verdict is Verify's answer for the placement just read.
func (k *lineCheck) verdict() error {
	k.check()
	n := k.read
	if k.stop < 0 && !k.partial && int(k.maxCol) < n {
		return nil // n rows, distinct columns all on the board, every line once
	}
	// A conflict certain at row stop is, with the real n, a conflict at that row or
	// before: the rows held decide, and name the pair as Verify does.
	return VerifyColumns(n, k.columns)
}

// columns yields the rows held.
func (k *lineCheck) columns(yield func(int) bool) {
	for _, blk := range k.blocks[:k.nb] {
		for _, c := range blk {
			if !yield(int(c)) {
				return
			}
		}
	}
}
