package nqueens

import (
	"context"
	"runtime"
	"unsafe"

	"github.com/nqueens/nqueens/internal/ntstore"
)

// The bucketed check is the fast path of verifyInPlace for large boards. Probing a bit at
// random in a bitset of hundreds of megabytes costs a cache miss and a TLB miss every
// time (about 11 ns on the test VM at n = 10^9, 33 s for the 3·10^9 probes). Instead,
// each of the three line families (columns, anti-diagonals, diagonals) gets a pass of its
// own: the pass reads the rows in order and appends each row's line index to the bucket of
// its 512 KiB region of the bitset; a full bucket is applied to its region, which is first
// read in order (so it comes in at the memory's streaming speed) and then stays in the L2
// cache while the bucket's bits are set. The buckets live in the part of the scratch that
// the pass's bitset does not use, so the memory is the same 4 bits per queen. The fast
// path only answers valid or not: on a conflict, or a column off the board, verifyInPlace
// runs its exact two-pass check, which names the pair Verify names.

// bucketShift is log2 of the bits per region: 2^22 bits = 512 KiB, a part of the L2 cache
// of any current server core (2 MiB on the test VM). On that VM, at n = 10^9, regions of
// 2^20 to 2^22 bits verify in 19–20 s, those of 2^24 bits in 25 s. A variable so that the
// tests can use small regions.
var bucketShift = 22

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

// verifyBucketed reports whether p has no two queens on a line and every column on the
// board. scratch holds at least VerifyWords(n) words. It stops with ctx.Err() when ctx
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
//
// Each bucket stages its next 16 entries (one cache line) in a small array that stays in
// the L1 cache, and writes the line to its part of buf in one go with non-temporal stores
// (internal/ntstore): with ordinary stores to some hundred buckets, every new line is
// read from memory first and the stores behind it wait. Boards so small that a bucket
// holds less than a line apply the staged entries directly.
func distinctLines(ctx context.Context, p Placement, kind int, set []uint64, buf []uint32, progress func(float64)) (bool, error) {
	clear(set)
	n := len(p)
	shift := bucketShift
	regionWords := 1 << (shift - 6)
	buckets := (len(set) + regionWords - 1) / regionWords
	// Bucket b owns buf[b*size : (b+1)*size], whole lines starting on a line boundary.
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63 / 4)
	size := 0 // entries per bucket in buf, a multiple of 16; 0: apply each staged line
	if skip < len(buf) {
		buf = buf[skip:]
		size = len(buf) / buckets &^ 15
	}
	stage := make([][16]uint32, buckets)
	count := make([]int, buckets) // entries of each bucket not applied yet, staged ones included
	mask := uint32(1)<<shift - 1
	var seen uint64 // nonzero once a bit was found set already
	region := func(b int) []uint64 { return set[b*regionWords : min((b+1)*regionWords, len(set))] }
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
				if uint(c) >= uint(n) {
					return false, nil // off the board: for the exact check to name
				}
				line = int(c)
			case lineAnti:
				line = lo + i + int(c)
			default:
				line = lo + i - int(c) + n - 1
			}
			b := line >> shift
			k := count[b]
			stage[b][k&15] = uint32(line)
			k++
			if k&15 == 0 && size == 0 { // a full staged line, and no room for it in buf
				seen |= setBits(region(b), stage[b][:], mask)
				k = 0
			} else if k&15 == 0 { // a full staged line: to buf
				at := b*size + k - 16
				ntstore.Line((*[16]uint32)(buf[at:at+16]), &stage[b])
				if k == size { // bucket b is full
					ntstore.Fence()
					seen |= setBits(region(b), buf[b*size:(b+1)*size], mask)
					k = 0
				}
			}
			count[b] = k
		}
		if seen != 0 {
			return false, nil
		}
	}
	ntstore.Fence()
	for b, k := range count {
		if size > 0 {
			seen |= setBits(region(b), buf[b*size:b*size+k&^15], mask)
		}
		seen |= setBits(region(b), stage[b][:k&15], mask)
	}
	return seen == 0, nil
}

// setBits sets the bits line&mask of region for every line of lines and returns a nonzero
// value if any of them was set already. When there are at least as many lines as the
// region has cache lines, it first reads the region in order: the random updates that
// follow then hit the L2 cache instead of each waiting for memory.
func setBits(region []uint64, lines []uint32, mask uint32) uint64 {
	if len(lines) >= len(region)/8 {
		var sum uint64
		for w := 0; w < len(region); w += 8 { // one word per 64-byte line
			sum += region[w]
		}
		runtime.KeepAlive(sum) // keeps the loads
	}
	var seen uint64
	for _, l := range lines {
		l &= mask
		w := &region[l>>6]
		bit := uint64(1) << (l & 63)
		seen |= *w & bit
		*w |= bit
	}
	return seen
}
