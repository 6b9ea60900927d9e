//go:build amd64 && !purego

package qjoin

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/nqueens/nqueens/internal/sysmem"
)

//go:generate go run gen_kernels.go

// haveAVX2 tells whether the CPU runs the AVX2 kernels (they also use BMI2's
// RORX for the chunk offsets).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// haveAVX512 tells whether the CPU runs the AVX-512 kernels: 512-bit ANDs
// (AVX512F) and VPOPCNTQ (VPOPCNTDQ); the tables are built by the AVX2
// code.
var haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// buildAVX2 builds the chunk tables of nb blocks of 256 East words (the
// last padded with all-ones words) into tab, with entries es bytes apart;
// see kernel_amd64.s.
//
//go:noescape
func buildAVX2(e *uint64, nb int, tab *uint64, k int, v *lineSets, es int)

// prefix512 builds an AVX-512 block's prefix table: see kernel_amd64.s.
//
//go:noescape
func prefix512(blk *uint64, vals *uint16, d int, pre *uint64)

// prefixKernels are the AVX-512 prefix kernels by their prefix fields
// (one: chunks 0 and 1; two: and chunks 2 and 3) and number of chunks.
var prefixKernels = [3][maxChunks + 1]func(tab *uint64, nb, tile int, qs *[4]*uint64, runs []qrun, shifts *laneShifts, pre *uint64, pstride int) uint64{
	1: {4: countAVX512K4P2, 5: countAVX512K5P2, 6: countAVX512K6P2, 7: countAVX512K7P2, 8: countAVX512K8P2},
	2: {4: countAVX512K4P4, 5: countAVX512K5P4, 6: countAVX512K6P4, 7: countAVX512K7P4, 8: countAVX512K8P4},
}

// prefixCounts wraps the prefix kernels (asmCountP) with tiles of
// tileBytes for one field, preTileBytes for two.
func prefixCounts(tileBytes, preTileBytes int) [3][maxChunks + 1]countPFunc {
	var fs [3][maxChunks + 1]countPFunc
	for f := 1; f <= 2; f++ {
		for k := minChunks; k <= maxChunks; k++ {
			t := tileBytes
			if f == 2 {
				t = preTileBytes
			}
			fs[f][k] = asmCountP(prefixKernels[f][k], k, 2*f, t)
		}
	}
	return fs
}

// asmCountP wraps an assembly prefix kernel (countAVX512K<k>P2) for k
// chunks of 8 lanes an entry. Its tile is the blocks whose chunks past the
// first two and prefix tables (pw words a block) fit in tileBytes.
func asmCountP(f func(tab *uint64, nb, tile int, qs *[4]*uint64, runs []qrun, shifts *laneShifts, pre *uint64, pstride int) uint64, k, pre, tileBytes int) countPFunc {
	const lanes = 8
	bw := k * chunkSize * lanes
	used := (k - pre) * chunkSize * lanes * 8 // bytes a block of the chunks read
	return func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, shifts *laneShifts, pre []uint64, pw int) uint64 {
		if nb == 0 || len(runs) == 0 {
			return 0
		}
		_ = tab[nb*bw-1] // the kernel reads nb blocks
		_ = pre[nb*pw-1] // and their prefix tables
		tile := min(maxAVX2Tile, max(1, tileBytes/(used+pw*8)))
		bases := queryBases(qs, runs)
		return f(&tab[0], nb, tile, &bases, runs, shifts, &pre[0], pw*8)
	}
}

// pairsAVX2 is joinPairs for amd64 with AVX2; see kernel_amd64.s.
//
//go:noescape
func pairsAVX2(dst *uint64, xs, ys []uint64, mask uint64) int

// joinPairsAVX2 is joinPairs by 4 words of ys at a time. q must have room
// for len(xs)*len(ys)+pairSlack more words, and 3 words past the end of
// ys must be readable (the quarter tables are padded).
func joinPairsAVX2(q []uint64, xs, ys []uint64, mask uint64) []uint64 {
	k := len(q)
	return q[:k+pairsAVX2(&q[:k+1][k], xs, ys, mask)]
}

// asmCount wraps an assembly count kernel for blocks of bw words, with
// tiles of tileBytes.
func asmCount(f func(tab *uint64, nb, tile int, qs *[4]*uint64, runs []qrun, shifts *laneShifts) uint64, bw, tileBytes int) countFunc {
	tile := min(tileBlocks(bw, tileBytes), maxAVX2Tile)
	return func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, shifts *laneShifts) uint64 {
		if nb == 0 || len(runs) == 0 {
			return 0
		}
		_ = tab[nb*bw-1] // the kernel reads nb blocks
		bases := queryBases(qs, runs)
		return f(&tab[0], nb, tile, &bases, runs, shifts)
	}
}

// queryBases is the base of each class's query list, as the assembly
// kernels take them, having checked that the runs lie within them.
func queryBases(qs *[4][]uint64, runs []qrun) [4]*uint64 {
	var bases [4]*uint64
	for c := range bases {
		bases[c] = unsafe.SliceData(qs[c])
	}
	for _, r := range runs {
		_ = qs[r.class&3][r.off : r.off+r.n] // the kernel reads the runs' queries
	}
	return bases
}

// The tiles: for AVX2 the core's level-1 data cache (sysmem.L1Data), or
// where it is not known 24 KB, which fits that of every AVX2 core (32 KB);
// for AVX-512 48 KB. On a Sapphire Rapids core (L1 48 KB, L2 2 MB) 48 KB
// to 96 KB were 8-10% faster than 24 KB at n = 18 and 20 with AVX-512,
// whose blocks of 512 halves take 14 KB at 7 chunks. On a Zen 4 core (L1
// 32 KB, L2 1 MB; count 18 -w 1, pairs of processes, 2026-12-07) AVX2
// tiles of 32 KB took 1.13 and 1.05 times less CPU than 24 KB; AVX-512
// ones of 32 KB against 48 KB 1.04, 1.05, then 0.98 and 0.97 times (and
// 1.016 at n = 22): within the noise there, so AVX-512 keeps 48 KB.
var (
	avx2Tile   = tileFor(sysmem.L1Data(), 24<<10)
	avx512Tile = 48 << 10
	// avx512PreTile is the tile of the prefix kernels of two fields, whose
	// prefix tables take up to 80 KB a block: within a core's L2 (1 MB on
	// the Zen 4, 2 MB on the Sapphire Rapids). On the Zen 4 VM the 48 KB
	// tile (one block) took 1.06 times the CPU at n = 22; 768 KB against
	// 384 KB was even at n = 25 (1.006, pairs of 3).
	avx512PreTile = 384 << 10
)

// tileFor is the tile of a core whose L1 data cache holds l1 bytes (0:
// not known, then fallback).
func tileFor(l1, fallback int) int {
	if l1 < 16<<10 || l1 > 1<<20 {
		return fallback
	}
	return l1
}

// maxAVX2Tile is the most blocks a tile holds: the AVX2 kernels add each
// block's byte counts (at most 8 a byte) in bytes over a tile, and sum them
// into words once per query and tile, so 31 blocks at most (248 < 256).
const maxAVX2Tile = 31

var avx2Impl = &impl{
	kind:   KernelAVX2,
	halves: 256,
	build: func(words []uint64, nb int, tab []uint64, k int, v *lineSets) {
		if nb > 0 {
			_ = words[nb*256-1]
			_ = tab[nb*k*chunkSize*4-1]
			buildAVX2(&words[0], nb, &tab[0], k, v, 32)
		}
	},
	counts: [maxChunks + 1]countFunc{
		4: asmCount(countAVX2K4, 4*chunkSize*4, avx2Tile),
		5: asmCount(countAVX2K5, 5*chunkSize*4, avx2Tile),
		6: asmCount(countAVX2K6, 6*chunkSize*4, avx2Tile),
		7: asmCount(countAVX2K7, 7*chunkSize*4, avx2Tile),
		8: asmCount(countAVX2K8, 8*chunkSize*4, avx2Tile),
	},
	join:      joinPairsAVX2,
	orientMin: 16384,
	alpha:     0.6,
	beta:      3,
	gamma:     300,
	delta:     4,
	epsilon:   2,
}

var avx512Impl = &impl{
	kind:   KernelAVX512,
	halves: 512,
	build: func(words []uint64, nb int, tab []uint64, k int, v *lineSets) {
		// Each block of 512 is two blocks of 256 side by side: the
		// entries of the first in bytes 0..31 of each 64-byte entry, the
		// second in bytes 32..63.
		bw := k * chunkSize * 8
		_ = words[nb*512-1]
		_ = tab[nb*bw-1]
		for b := 0; b < 2*nb; b++ {
			buildAVX2(&words[b*256], 1, &tab[b/2*bw+b%2*4], k, v, 64)
		}
	},
	counts: [maxChunks + 1]countFunc{
		4: asmCount(countAVX512K4, 4*chunkSize*8, avx512Tile),
		5: asmCount(countAVX512K5, 5*chunkSize*8, avx512Tile),
		6: asmCount(countAVX512K6, 6*chunkSize*8, avx512Tile),
		7: asmCount(countAVX512K7, 7*chunkSize*8, avx512Tile),
		8: asmCount(countAVX512K8, 8*chunkSize*8, avx512Tile),
	},
	// The prefix kernels: see matcher.prefixQueries.
	countsP: prefixCounts(avx512Tile, avx512PreTile),
	prefix: func(blk []uint64, vals []uint16, pre []uint64) {
		if len(vals) > 0 {
			_ = blk[2*chunkSize*8-1]
			_ = pre[len(vals)*8-1]
			prefix512(&blk[0], &vals[0], len(vals), &pre[0])
		}
	},
	join:      joinPairsAVX2,
	orientMin: 16384,
	alpha:     0.6,
	beta:      3,
	gamma:     600,
	delta:     4,
	epsilon:   2,
}
