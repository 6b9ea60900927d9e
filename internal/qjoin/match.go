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
	chunkSize   = 1 << chunkBits                      // entries of a chunk table
	entryWords  = blockHalves / 64                    // uint64 words per entry
	chunkWords  = chunkSize * entryWords              // words of a chunk table (1 KB)
	maxChunks   = (maxEW + chunkBits - 1) / chunkBits // 9 would cover bits 40..44: never
)

// chunksFor is the number K of chunks covering L lines.
func chunksFor(lines int) int { return (lines + chunkBits - 1) / chunkBits }

// matcher holds the chunk tables of one row set's East words.
type matcher struct {
	k      int      // chunks per block
	blocks int      // blocks in tab
	tab    []uint64 // blocks × k × chunkWords
	east   []uint64 // the East words, for the linear scan of small sets
	mask   uint64   // the crossing-line bits
	kern   kernelFunc
}

// kernelFunc adds up, over the queries qs and the first nb blocks of tab
// (k chunks each), the number of compatible East halves.
type kernelFunc func(tab []uint64, nb, k int, qs []uint64) uint64

// linearMax is the number of East words up to which a query scans them one
// by one instead of using the chunk tables.
const linearMax = 24

// build makes the chunk tables of the East words e (len(e) > linearMax).
func (m *matcher) build(e []uint64) {
	m.east = e
	if len(e) <= linearMax {
		m.blocks = 0
		return
	}
	k := m.k
	nb := (len(e) + blockHalves - 1) / blockHalves
	need := nb * k * chunkWords
	if cap(m.tab) < need {
		m.tab = make([]uint64, need+need/4)
	}
	m.tab = m.tab[:need]
	m.blocks = nb
	var x [64]uint64
	for b := 0; b < nb; b++ {
		blk := m.tab[b*k*chunkWords : (b+1)*k*chunkWords]
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
			for j := 0; j < k; j++ {
				t := blk[j*chunkWords : (j+1)*chunkWords]
				v := x[j*chunkBits : j*chunkBits+chunkBits]
				t[lane] = valid
				for s := 1; s < chunkSize; s++ {
					t[s*entryWords+lane] = t[(s&(s-1))*entryWords+lane] & v[bits.TrailingZeros(uint(s))]
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
	return m.kern(m.tab, m.blocks, m.k, qs)
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

// countGo is the pure-Go kernel over the chunk tables.
func countGo(tab []uint64, nb, k int, qs []uint64) uint64 {
	var total uint64
	var off [maxChunks]int
	bw := k * chunkWords
	for _, w := range qs {
		for j := 0; j < k; j++ {
			off[j] = j*chunkWords + int(w>>uint(j*chunkBits)&(chunkSize-1))*entryWords
		}
		for b := 0; b < nb; b++ {
			blk := tab[b*bw : (b+1)*bw]
			for lane := 0; lane < entryWords; lane++ {
				v := blk[off[0]+lane]
				for j := 1; j < k; j++ {
					v &= blk[off[j]+lane]
				}
				total += uint64(bits.OnesCount64(v))
			}
		}
	}
	return total
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
