package nqueens

import (
	"context"
	"unsafe"

	"github.com/nqueens/nqueens/internal/prefetch"
)

// The bucketed check is the fast path of verifyInPlace for large boards. Probing a bit at
// random in a bitset of hundreds of megabytes costs a cache miss and a TLB miss every
// time (about 11 ns on the test VM at n = 10^9, 33 s for the 3·10^9 probes). Instead,
// each of the three line families (columns, anti-diagonals, diagonals) gets a pass of its
// own: the pass reads the rows in order and appends each row's line index to the bucket of
// its 2 MiB region of the bitset; a full bucket is flushed, its bits set in a region that
// stays in the L2 cache while the bucket is applied. The buckets live in the part of the
// scratch that the pass's bitset does not use, so the memory is the same 4 bits per queen.
// The fast path only answers valid or not: on a conflict verifyInPlace runs its exact
// two-pass check, which names the pair Verify names.

// bucketShift is log2 of the bits per region: 2^24 bits = 2 MiB, the L2 cache of the
// machines this was measured on. A variable so that the tests can use small regions.
var bucketShift = 24

// bucketMinN is the smallest n verifyInPlace checks with buckets: below it the bitsets
// fit in the caches and probing them directly is as fast. A variable for the tests.
var bucketMinN = 1 << 24

// bucketPollRows is the number of rows between two looks at the context (a variable so
// that the tests cross it on small boards).
var bucketPollRows = 1 << 20

// Line families of the bucketed passes: the line index of the queen of row r in column c.
const (
	lineColumn = iota // c
	lineAnti          // r + c
	lineDiag          // r − c + n − 1
)

// verifyBucketed reports whether p, whose columns are all in 0..n−1, has no two queens on
// a line. scratch holds at least VerifyWords(n) words. It stops with ctx.Err() when ctx
// is done, and calls progress with the fraction of the work done.
func verifyBucketed(ctx context.Context, p Placement, scratch []uint64, progress func(float64)) (bool, error) {
	n := len(p)
	for pass, kind := range []int{lineColumn, lineAnti, lineDiag} {
		bits := VerifyWords(n) / 2 // the 2n−1 lines of a diagonal family
		if kind == lineColumn {
			bits = (n + 63) / 64
		}
		set, free := scratch[:bits], scratch[bits:]
		buf := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(free))), 2*len(free))
		ok, err := distinctLines(ctx, p, kind, set, buf, func(f float64) {
			if progress != nil {
				progress((float64(pass) + f) / 3)
			}
		})
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// distinctLines reports whether the line indices of family kind of all the rows of p are
// distinct, using set (cleared here) as the bitset and buf as the buckets.
func distinctLines(ctx context.Context, p Placement, kind int, set []uint64, buf []uint32, progress func(float64)) (bool, error) {
	clear(set)
	n := len(p)
	shift := bucketShift
	regionWords := 1 << (shift - 6)
	buckets := (len(set) + regionWords - 1) / regionWords
	size := len(buf) / buckets  // entries per bucket
	pos := make([]int, buckets) // next free entry of each bucket, an index into buf
	for b := range pos {
		pos[b] = b * size
	}
	var seen uint64 // nonzero once a bit was found set already
	flush := func(b int) {
		region := set[b*regionWords : min((b+1)*regionWords, len(set))]
		seen |= setBits(region, buf[b*size:pos[b]], uint32(1)<<shift-1)
		pos[b] = b * size
	}
	pollRows := bucketPollRows
	for lo := 0; lo < n; lo += pollRows {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if lo > 0 {
			progress(float64(lo) / float64(n))
		}
		rows := p[lo:min(lo+pollRows, n)]
		for i, c := range rows {
			var line int
			switch kind {
			case lineColumn:
				line = int(c)
			case lineAnti:
				line = lo + i + int(c)
			default:
				line = lo + i - int(c) + n - 1
			}
			b := line >> shift
			k := pos[b]
			buf[k] = uint32(line)
			pos[b] = k + 1
			if k+1 == (b+1)*size { // bucket b is full
				flush(b)
			}
		}
		if seen != 0 {
			return false, nil
		}
	}
	for b := range pos {
		flush(b)
	}
	return seen == 0, nil
}

// setBits sets the bits line&mask of region for every line of lines and returns a nonzero
// value if any of them was set already. It asks for the words a few dozen lines ahead: the
// region fits in the L2 cache but starts out of it.
func setBits(region []uint64, lines []uint32, mask uint32) uint64 {
	const ahead = 64
	var idx [ahead]uint32
	var seen uint64
	for lo := 0; lo < len(lines); lo += ahead {
		if next := lines[min(lo+ahead, len(lines)):min(lo+2*ahead, len(lines))]; len(next) > 0 {
			for i, l := range next {
				idx[i] = (l & mask) >> 6
			}
			prefetch.Words(&region[0], idx[:len(next)])
		}
		for _, l := range lines[lo:min(lo+ahead, len(lines))] {
			l &= mask
			w := &region[l>>6]
			bit := uint64(1) << (l & 63)
			seen |= *w & bit
			*w |= bit
		}
	}
	return seen
}
