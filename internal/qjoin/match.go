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
type matcher struct {
	k      int        // chunks per block
	blocks int        // blocks in tab
	tab    []chunkTab // blocks × k
	east   []uint64   // the East words, for the linear scan of small sets
	mask   uint64     // the crossing-line bits
	kern   kernelFunc
	asm    bool     // build with buildAVX2
	v      lineSets // buildAVX2's scratch
}

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

// build makes the chunk tables of the East words e.
func (m *matcher) build(e []uint64) {
	m.east = e
	if len(e) <= linearMax {
		m.blocks = 0
		return
	}
	k := m.k
	nb := (len(e) + blockHalves - 1) / blockHalves
	need := nb * k
	if cap(m.tab) < need {
		m.tab = make([]chunkTab, need+need/4)
	}
	m.tab = m.tab[:need]
	m.blocks = nb
	if m.asm {
		// Pad to whole blocks with words that use every line.
		for len(e)%blockHalves != 0 {
			e = append(e, ^uint64(0))
		}
		buildAVX2(&e[0], nb, &m.tab[0], k, &m.v)
		return
	}
	var x [64]uint64
	for b := 0; b < nb; b++ {
		blk := m.tab[b*k : (b+1)*k]
		for lane := 0; lane < entryWords; lane++ {
			first := b*blockHalves + lane*64
			valid := ^uint64(0)
			for i := range x {
				if first+i < len(e) {
					x[i] = ^e[first+i]
				} else {
					x[i] = 0
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

// count adds up the compatible East halves over the queries qs.
func (m *matcher) count(qs []uint64) uint64 {
	if m.blocks == 0 {
		return countLinear(m.east, qs, m.mask)
	}
	return m.kern(m.tab, m.blocks, qs)
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
