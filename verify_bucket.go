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
// 2^22 bits verify fastest (15.5 s); 2^20, 2^21 and 2^23 bits take 0.4–3.7 s longer, 2^24
// bits much longer.
const bucketShift = 22

// bucketMinN is the smallest n verifyInPlace checks with buckets: below it the bitsets
// fit in the caches and probing them directly is as fast.
const bucketMinN = 1 << 24

// bucketPollRows is the number of rows between two looks at the context.
const bucketPollRows = 1 << 20

// verifyOptions are the settings of the bucketed check, each 0 for the package's
// constant (bucketShift, bucketMinN, bucketPollRows): the tests use small regions, take
// the bucketed path from n = 1 and cross the polls on small boards.
type verifyOptions struct {
	bucketShift int // log2 of the bits per region
	minN        int // the smallest n verifyInPlace checks with buckets
	pollRows    int // the rows between two looks at the context
}

// withDefaults is o with its zero settings replaced by the package's constants.
func (o verifyOptions) withDefaults() verifyOptions {
	if o.bucketShift == 0 {
		o.bucketShift = bucketShift
	}
	if o.minN == 0 {
		o.minN = bucketMinN
	}
	if o.pollRows == 0 {
		o.pollRows = bucketPollRows
	}
	return o
}

// Line families of the bucketed passes: the line index of the queen of row r in column c.
const (
	lineColumn = iota // c
	lineAnti          // r + c
	lineDiag          // r − c + n − 1
)

// verifyBucketed reports whether p has no two queens on a line and every column on the
// board. scratch holds at least verifyWords(n) words. It stops with ctx.Err() when ctx
// is done, and calls progress with the rows checked over its three passes (3n in all).
func verifyBucketed(ctx context.Context, p Placement, scratch []uint64, progress func(done int), opt verifyOptions) (bool, error) {
	n := len(p)
	for pass, kind := range []int{lineColumn, lineAnti, lineDiag} {
		set, buf := splitScratch(n, kind, scratch)
		ok, err := distinctLines(ctx, p, kind, set, buf, func(rows int) {
			if progress != nil {
				progress(pass*n + rows)
			}
		}, opt)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// splitScratch divides scratch into the bitset of family kind's lines and the space
// for the buckets.
func splitScratch(n, kind int, scratch []uint64) (set []uint64, buf []uint32) {
	bits := verifyWords(n) / 2 // the 2n−1 lines of a diagonal family
	if kind == lineColumn {
		bits = (n + 63) / 64
	}
	set, free := scratch[:bits], scratch[bits:]
	return set, unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(free))), 2*len(free))
}

// distinctLines reports whether the line indices of family kind of all the rows of p are
// distinct, using set (cleared here) as the bitset and buf as the buckets.
//
// Each bucket stages its next 16 entries (one cache line) in a small array that stays in
// the L1 cache, and writes the line to its part of buf in one go with non-temporal stores
// (internal/ntstore): with ordinary stores to some hundred buckets, every new line is
// read from memory first and the stores behind it wait. Boards so small that a bucket
// holds less than a line apply the staged entries directly.
func distinctLines(ctx context.Context, p Placement, kind int, set []uint64, buf []uint32, progress func(rows int), opt verifyOptions) (bool, error) {
	clear(set)
	n := len(p)
	sc := newScatter(set, buf, opt.withDefaults().bucketShift)
	// The line of the queen of row r in column c is r·step + c·sign + off, below limit;
	// for columns the bound is the board's, so a column off the board stops the pass.
	step, sign, off, limit := 1, 1, 0, 2*n-1
	switch kind {
	case lineColumn:
		step, limit = 0, n
	case lineDiag:
		sign, off = -1, n-1
	}
	pollRows := opt.withDefaults().pollRows
	for lo := 0; lo < n; lo += pollRows {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if lo > 0 {
			progress(lo)
		}
		// A line met twice, or a column off the board: for the exact check to name.
		if seen, ok := sc.scan(p[lo:min(lo+pollRows, n)], lo*step+off, step, sign, limit); seen != 0 || !ok {
			return false, nil
		}
	}
	return sc.finish() == 0, nil
}

// scan stages the lines r + i·step + rows[i]·sign of rows in their buckets. It returns
// setBits' answers or'ed, and false at the first line at or above limit.
func (sc *scatter) scan(rows []int32, r, step, sign, limit int) (uint64, bool) {
	shift := sc.shift & 63
	stage, count := sc.stage, sc.count
	var seen uint64
	for _, c := range rows {
		line := r + int(c)*sign
		r += step
		if uint(line) >= uint(limit) {
			return seen, false
		}
		b := line >> shift
		k := count[b]
		stage[b<<4|int(k&15)] = uint32(line)
		k++
		count[b] = k
		if k&15 == 0 {
			seen |= sc.staged(b)
		}
	}
	return seen, true
}

// scatter is the state of the buckets of one distinctLines pass: the hot loop above
// stages entries and counts them, and calls staged when a bucket's staged line is full.
// Kept apart, the loop computes every family's line with one formula and holds its
// state in registers (the loop with the flushes inline spilled to the stack on every
// row): at n = 10^9 the three passes took 15.0–18.5 s instead of 18.1–20.7 s (one file,
// alternating, 3 runs each; medians 15.5 and 19.0 s).
type scatter struct {
	set   []uint64
	buf   []uint32 // bucket b owns buf[b*size : (b+1)*size], whole lines
	size  int      // entries per bucket in buf, a multiple of 16; 0: apply each staged line
	shift uint     // log2 of the bits per region
	stage []uint32 // bucket b stages stage[16b : 16b+16]
	count []uint32 // entries of bucket b not applied yet, staged ones included
}

// newScatter sets up the buckets of regions of 2^shift bits.
func newScatter(set []uint64, buf []uint32, shift int) *scatter {
	sc := &scatter{set: set, shift: uint(shift)}
	regionWords := 1 << (shift - 6)
	buckets := (len(set) + regionWords - 1) / regionWords
	// The buckets start on a line boundary, so that each line is written whole.
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63 / 4)
	if skip < len(buf) {
		sc.buf = buf[skip:]
		sc.size = len(sc.buf) / buckets &^ 15
	}
	sc.stage = make([]uint32, 16*buckets)
	sc.count = make([]uint32, buckets)
	return sc
}

// apply sets the bits of lines in bucket b's region (see setBits).
func (sc *scatter) apply(b int, lines []uint32) uint64 {
	words := 1 << (sc.shift - 6)
	region := sc.set[b*words : min((b+1)*words, len(sc.set))]
	return setBits(region, lines, uint32(1)<<sc.shift-1)
}

// staged handles bucket b's full staged line: to buf, or to the bitset when buf has no
// room or the bucket is full. It returns setBits' answer, or 0.
func (sc *scatter) staged(b int) uint64 {
	k := int(sc.count[b])
	line := (*[16]uint32)(sc.stage[16*b : 16*b+16])
	if sc.size == 0 {
		sc.count[b] = 0
		return sc.apply(b, line[:])
	}
	at := b*sc.size + k - 16
	ntstore.Line((*[16]uint32)(sc.buf[at:at+16]), line)
	if k < sc.size {
		return 0
	}
	ntstore.Fence()
	sc.count[b] = 0
	return sc.apply(b, sc.buf[b*sc.size:(b+1)*sc.size])
}

// finish applies what every bucket still holds and returns setBits' answers or'ed.
func (sc *scatter) finish() uint64 {
	ntstore.Fence()
	var seen uint64
	for b, k := range sc.count {
		if sc.size > 0 {
			seen |= sc.apply(b, sc.buf[b*sc.size:b*sc.size+int(k)&^15])
		}
		seen |= sc.apply(b, sc.stage[16*b:16*b+int(k&15)])
	}
	return seen
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
