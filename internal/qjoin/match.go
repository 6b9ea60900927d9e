package qjoin

import "math/bits"

// The matcher counts, for a batch of West words w, the East words e of the
// current row set with e & w == 0 on the crossing-line bits (a "Four
// Russians" bit matrix):
//
//   - the East words are cut into blocks of 256 (blockHalves), and each
//     block is transposed: for each line ℓ, a 256-bit vector V_ℓ of the
//     halves of the block that do not use ℓ;
//   - the lines are cut into chunks of chunkBits (5) consecutive lines; for
//     each chunk j and each subset s of its lines, the chunk table holds
//     T_j[s] = AND of V_ℓ over ℓ in s (T_j[0] = the valid halves);
//   - a West word w picks s_j = its bits in chunk j; the halves of the block
//     compatible with w are AND_j T_j[s_j], counted by a popcount. That is K
//     loads of 32 bytes per 256 East halves, whatever the number of lines w
//     uses.
//
// Layout: tab[((b*K + j)*32 + s)*4 + lane] is word lane (halves 64·lane ..
// 64·lane+63 of block b) of T_j[s]. Both kernels (kernel_amd64.s and
// countGo) read this layout.

const (
	blockHalves = 256
	chunkBits   = 5
	chunkSize   = 1 << chunkBits         // entries of a chunk table
	entryWords  = blockHalves / 64       // uint64 words per entry
	chunkWords  = chunkSize * entryWords // words of a chunk table (1 KB)
	minChunks   = 4                      // fewer lines are padded to 4 chunks
	maxChunks   = maxEW / chunkBits      // 8: bits 0..39
)

// entry is one chunk-table entry: a 256-bit set of East halves.
type entry [entryWords]uint64

// chunkTab is the table T_j of one chunk of one block.
type chunkTab [chunkSize]entry

// chunksFor is the number K of chunks covering L lines.
func chunksFor(lines int) int { return max(minChunks, (lines+chunkBits-1)/chunkBits) }

// matcher holds the chunk tables of one row set's East words.
//
// With cut lines (geom.cut), the East words are first split into four
// groups by the two cut bits g (bits L-2, L-1), each group padded to whole
// blocks, in the order g = 1, 0, 2, 3. A query whose cut bits are u is
// compatible only with the groups g with g&u == 0, which that order makes
// one run of blocks: all for u = 0, groups 0 and 2 for u = 1, 1 and 0 for
// u = 2, group 0 for u = 3. The queries of a batch are split by u and each
// part is counted against its run only; the chunk tables need not cover
// the cut lines.
type matcher struct {
	k      int        // chunks per block
	blocks int        // blocks in tab
	tab    []chunkTab // blocks × k
	east   []uint64   // the East words, for the linear scan of small sets
	mask   uint64     // the crossing-line bits
	kern   kernelFunc
	asm    bool     // build with buildAVX2
	v      lineSets // buildAVX2's scratch

	cut    int         // with cut lines, the bit of the first one (L-2); else 0
	run    [8]int      // the blocks [run[u], run[4+u]) of the queries with cut bits u
	padded []uint64    // the East words in group order, padded to whole blocks
	parts  [4][]uint64 // words by their cut bits: the queries of a batch, or the East words
	// split sets dst[t] to the words of src whose cut bits are t (splitCut
	// or its AVX2 version); each dst[t] needs room for len(src)+pairSlack.
	split func(dst *[4][]uint64, src []uint64, shift uint)
}

// groupOrder is the position of group g in the block order 1, 0, 2, 3.
var groupOrder = [4]int{1, 0, 2, 3}

// lineSets is, per line ℓ < 40, the set of the halves of a block that do
// not use ℓ, and at index 40 the valid halves; see buildAVX2.
type lineSets [maxEW/chunkBits*chunkBits + 1][blockHalves / 32]uint32

// kernelFunc adds up, over the queries qs and the nb blocks of tab (with
// the kernel's number of chunks each), the number of compatible East
// halves.
type kernelFunc func(tab []chunkTab, nb int, qs []uint64) uint64

// linearMax is the number of East words up to which a query scans them one
// by one instead of using the chunk tables.
const linearMax = 24

// pad is the word of a padding slot: it uses every line, and no East word
// equals it (East words have no flag bits).
const pad = ^uint64(0)

// build makes the chunk tables of the East words e (e must have room for
// blockHalves more words).
func (m *matcher) build(e []uint64) {
	m.east = e
	if len(e) <= linearMax {
		m.blocks = 0
		return
	}
	var words []uint64
	if m.cut == 0 {
		nb := (len(e) + blockHalves - 1) / blockHalves
		words = e[:nb*blockHalves]
		for i := len(e); i < len(words); i++ {
			words[i] = pad
		}
		m.blocks = nb
		m.run = [8]int{0, 0, 0, 0, nb, nb, nb, nb}
	} else {
		words = m.group(e)
	}
	nb, k := m.blocks, m.k
	if need := nb * k; cap(m.tab) < need {
		m.tab = make([]chunkTab, need+need/4)
	}
	m.tab = m.tab[:nb*k]
	if m.asm {
		buildAVX2(&words[0], nb, &m.tab[0], k, &m.v)
		return
	}
	var x [64]uint64
	for b := 0; b < nb; b++ {
		blk := m.tab[b*k : (b+1)*k]
		for lane := 0; lane < entryWords; lane++ {
			first := b*blockHalves + lane*64
			valid := ^uint64(0)
			for i := range x {
				x[i] = ^words[first+i]
				if x[i] == 0 {
					valid &^= 1 << uint(i)
				}
			}
			transpose64(&x)
			// x[ℓ] bit i: half first+i does not use line ℓ.
			for j := range blk {
				t := &blk[j]
				v := x[j*chunkBits : j*chunkBits+chunkBits]
				t[0][lane] = valid
				for s := 1; s < chunkSize; s++ {
					t[s][lane] = t[s&(s-1)][lane] & v[bits.TrailingZeros(uint(s))]
				}
			}
		}
	}
}

// group lays the East words e out in m.padded by their cut bits (see
// matcher), each group padded to whole blocks, and sets the runs.
func (m *matcher) group(e []uint64) []uint64 {
	sh := uint(m.cut)
	// Group sizes from the sums of the two bits and of their AND.
	var a, b, ab int
	for _, x := range e {
		c := x >> sh
		a += int(c & 1)
		b += int(c >> 1 & 1)
		ab += int(c & (c >> 1) & 1)
	}
	n := [4]int{len(e) - a - b + ab, a - ab, b - ab, ab}
	var first [5]int // first block of each position
	for g, p := range groupOrder {
		first[p+1] = (n[g] + blockHalves - 1) / blockHalves
	}
	for p := 1; p <= 4; p++ {
		first[p] += first[p-1]
	}
	m.blocks = first[4]
	m.run = [8]int{0, first[1], 0, first[1], first[4], first[3], first[2], first[2]}
	if need := m.blocks*blockHalves + pairSlack; cap(m.padded) < need {
		m.padded = make([]uint64, need+need/4)
	}
	words := m.padded[:cap(m.padded)]
	m.splitParts(e)
	for g, p := range groupOrder {
		at := first[p] * blockHalves
		k := copy(words[at:], m.parts[g])
		for i := at + k; i < first[p+1]*blockHalves; i++ {
			words[i] = pad
		}
	}
	return words[:m.blocks*blockHalves]
}

// count adds up the compatible East halves over the queries qs (which
// must have room for pairSlack more words past their end, readable).
func (m *matcher) count(qs []uint64) uint64 {
	switch {
	case m.blocks == 0:
		return countLinear(m.east, qs, m.mask)
	case m.cut == 0:
		return m.kern(m.tab, m.blocks, qs)
	}
	m.splitParts(qs)
	var total uint64
	for u, part := range m.parts {
		lo, hi := m.run[u], m.run[4+u]
		if len(part) == 0 || lo == hi {
			continue
		}
		total += m.kern(m.tab[lo*m.k:hi*m.k], hi-lo, part)
	}
	return total
}

// splitParts sets m.parts to the words of src by their cut bits.
func (m *matcher) splitParts(src []uint64) {
	if need := len(src) + pairSlack; cap(m.parts[0]) < need {
		for t := range m.parts {
			m.parts[t] = make([]uint64, 0, need+need/4)
		}
	}
	m.split(&m.parts, src, uint(m.cut))
}

// splitCut sets dst[t] to the words of src whose cut bits (shift,
// shift+1) are t, in order.
func splitCut(dst *[4][]uint64, src []uint64, shift uint) {
	for t := range dst {
		dst[t] = dst[t][:0]
	}
	for _, x := range src {
		t := x >> shift & 3
		dst[t] = append(dst[t], x)
	}
}

// countLinear compares every query with every East word on the bits of
// mask.
func countLinear(east, qs []uint64, mask uint64) uint64 {
	var n uint64
	for _, w := range qs {
		w &= mask
		for _, e := range east {
			n += (e&w - 1) >> 63 // 1 if e&w == 0; w < 2^42
		}
	}
	return n
}

// transpose64 transposes the 64×64 bit matrix x in place: afterwards bit i
// of x[j] is what bit j of x[i] was. It swaps ever smaller square blocks
// across the diagonal: 32×32, 16×16, ..., 1×1 (Hacker's Delight, 7-3,
// with bit 0 as the first column). m holds the low half of each block.
func transpose64(x *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := 32; j != 0; j, m = j>>1, m^(m<<uint(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (x[k]>>uint(j) ^ x[k+j]) & m
			x[k] ^= t << uint(j)
			x[k+j] ^= t
		}
	}
}

// tileBytes bounds the chunk tables that a kernel runs all the queries of a
// batch against before it moves to the next blocks, so that they stay in
// the L1 data cache (32 KB on current x86 cores) along with the queries.
const tileBytes = 24 << 10

// tileBlocks is the number of blocks of k chunks in a tile.
func tileBlocks(k int) int { return max(1, tileBytes/(k*chunkWords*8)) }
