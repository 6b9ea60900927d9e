package nqueens

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/nqueens/nqueens/internal/report"
)

// Verifying a binary placement: held while it is read from a stream, streamed twice from
// a regular file.

// streamChunk is the rows of the largest block of a binary placement held by
// VerifyBinary: blocks hold 4 bytes per queen without the copies of a growing slice.
const streamChunk = 1 << 20

// preBits bounds the lines VerifyBinary checks while it reads (columns, diagonals and
// anti-diagonals below 2^26, 8 MiB of bits each at most): enough to stop holding an
// input at its first certain conflict, such as the second zero of /dev/zero.
const preBits = 1 << 26

// VerifyBinary checks a binary placement (one little-endian uint32 per row, 0-based) read
// from r to its end, and returns its n and Verify's answer for it: nil, a *ConflictError
// naming the first attacking pair, or a *ParseError for input that is no binary
// placement (truncated, empty, too long); read errors are returned as they are. ctx is
// looked at every 2^20 rows.
//
// A regular file (an *os.File) is read from its start, whatever its offset, and streamed
// twice at most (the second pass only to name the earlier queen of a conflict): 5 bits
// per queen, 625 MB for 10^9 queens. Any other reader (a pipe, a device) is read once;
// the board size is the number of rows, known only at the end, so the rows are held, 4
// bytes per queen, up to opt.MaxQueens (0: as many as the memory holds at 5 bytes per
// queen; more is a *ParseError) or up to the first conflict that is certain whatever n,
// after which the rest is only counted.
//
// opt.Progress hears phase "verify" in rows read, out of the file's rows (Total 0 for
// other readers), then for a conflict in a file "locate the conflict" in rows read again.
func VerifyBinary(ctx context.Context, r io.Reader, opt VerifyOptions) (int, error) {
	rep := newReporter(opt.Progress)
	defer rep.Close()
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return verifyBinaryFile(ctx, f, st.Size(), rep)
		}
	}
	maxQueens := opt.MaxQueens
	if maxQueens <= 0 {
		maxQueens = defaultVerifyQueens() // 4 bytes per queen, 5 bits for VerifyColumns
	}
	var chunks [][]int32
	held := 0  // rows held
	rows := 0  // rows read
	stop := -1 // the row of the first certain conflict, -1 before it
	var pre [4]bitset
	var readErr error
	cr := &countingReader{r: r}
	for c, err := range BinaryColumns(cr) {
		if err != nil {
			readErr = err
			break
		}
		if rows%streamChunk == 0 && rows > 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			rep.Report("verify", uint64(rows), 0)
		}
		if rows == MaxN {
			return 0, tooManyRows()
		}
		if stop < 0 {
			if held == maxQueens {
				return 0, tooManyHeld(0, maxQueens)
			}
			if len(chunks) == 0 || len(chunks[len(chunks)-1]) == cap(chunks[len(chunks)-1]) {
				// Small inputs get small blocks: 1024 rows, doubling up to streamChunk.
				chunks = append(chunks, make([]int32, 0, min(streamChunk, max(1024, held))))
			}
			chunks[len(chunks)-1] = append(chunks[len(chunks)-1], clampColumn(c))
			held++
			// The diagonals r − c ≥ 0 and those below zero, −(r − c) − 1, in two sets.
			if preMark(&pre[0], c) || preMark(&pre[1], rows+c) || preMark(&pre[2], rows-c) || preMark(&pre[3], c-rows-1) {
				stop = rows
			}
		}
		rows++
	}
	if err := binaryError(readErr, cr.n); err != nil {
		return 0, err
	}
	if rows == 0 {
		return 0, &ParseError{Msg: "empty input: no placement to verify"}
	}
	cols := func(yield func(int) bool) {
		for _, ch := range chunks {
			for _, c := range ch {
				if !yield(int(c)) {
					return
				}
			}
		}
	}
	rep.Report("verify", uint64(rows), 0)
	// With a certain conflict at row stop, Verify on all the rows fails at that row or
	// before: the rows held decide.
	return rows, VerifyColumns(rows, cols)
}

// verifyBinaryFile is VerifyBinary for the regular file f of size bytes: one pass of
// VerifyColumns over its columns, and a second on a conflict to name the earlier queen.
func verifyBinaryFile(ctx context.Context, f *os.File, size int64, rep *report.Reporter) (int, error) {
	name := f.Name()
	if size%4 != 0 {
		return 0, &ParseError{Msg: fmt.Sprintf("%s: binary placement is truncated: %d bytes is not a multiple of 4", name, size)}
	}
	if size/4 > MaxN {
		return 0, &ParseError{Msg: fmt.Sprintf("%s: %d rows is more than the largest board (%d)", name, size/4, MaxN)}
	}
	n := int(size / 4)
	if n == 0 {
		return 0, &ParseError{Msg: "empty input: no placement to verify"}
	}
	var readErr error
	phase := "verify"
	pass := func(yield func(int) bool) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			readErr = err
			return
		}
		r := 0
		for c, err := range BinaryColumns(f) {
			if err != nil {
				readErr = err
				return
			}
			if r++; r%streamChunk == 0 {
				if ctx.Err() != nil {
					return
				}
				rep.Report(phase, uint64(r), uint64(n))
			}
			if !yield(c) {
				break
			}
		}
		rep.Report(phase, uint64(r), uint64(n))
		phase = "locate the conflict" // a second pass names the earlier queen
	}
	verr := VerifyColumns(n, pass)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if readErr != nil {
		return 0, readErr
	}
	return n, verr
}

// preMark adds i to s, grown as needed, if i is in [0, preBits), and reports whether it
// was there already; the integers outside the range are never members.
func preMark(s *bitset, i int) bool {
	if i < 0 || i >= preBits {
		return false
	}
	if w := i >> 6; w >= len(*s) {
		*s = s.grown(min(max(w+1, 2*len(*s)), preBits/64))
	}
	return s.testAndSet(i)
}
