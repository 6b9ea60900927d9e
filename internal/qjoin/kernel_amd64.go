package qjoin

import "golang.org/x/sys/cpu"

// haveAVX2 tells whether the CPU runs the AVX2 kernels (they also use BMI2's
// RORX for the chunk offsets).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// The AVX2 kernels of kernel_amd64.s, one per number of chunks; nb ≥ 1.

//go:noescape
func countAVX2K4(tab *chunkTab, nb, tile int, qs []uint64) uint64

//go:noescape
func countAVX2K5(tab *chunkTab, nb, tile int, qs []uint64) uint64

//go:noescape
func countAVX2K6(tab *chunkTab, nb, tile int, qs []uint64) uint64

//go:noescape
func countAVX2K7(tab *chunkTab, nb, tile int, qs []uint64) uint64

//go:noescape
func countAVX2K8(tab *chunkTab, nb, tile int, qs []uint64) uint64

// buildAVX2 builds the chunk tables of nb blocks of 256 East words (the
// last padded with all-ones words) into tab (nb*k chunk tables).
//
//go:noescape
func buildAVX2(e *uint64, nb int, tab *chunkTab, k int, v *lineSets)

// pairsAVX2 is joinPairs for amd64 with AVX2; see kernel_amd64.s.
//
//go:noescape
func pairsAVX2(dst *uint64, xs, ys []uint64) int

// joinPairsAVX2 is joinPairs by 4 words of ys at a time. q must have room
// for len(xs)*len(ys)+pairSlack more words, and 3 words past the end of
// ys must be readable (the quarter tables are padded).
func joinPairsAVX2(q []uint64, xs, ys []uint64) []uint64 {
	k := len(q)
	return q[:k+pairsAVX2(&q[:k+1][k], xs, ys)]
}

// splitAVX2 is splitCut for amd64 with AVX2; see kernel_amd64.s.
//
//go:noescape
func splitAVX2(d0, d1, d2, d3 *uint64, src []uint64, shift int, n *[4]int)

// splitCutAVX2 is splitCut by 4 words at a time: each dst[t] must have
// room for len(src)+pairSlack words, and 3 words past the end of src must
// be readable.
func splitCutAVX2(dst *[4][]uint64, src []uint64, shift uint) {
	if len(src) == 0 {
		for t := range dst {
			dst[t] = dst[t][:0]
		}
		return
	}
	var n [4]int
	d := dst
	splitAVX2(&d[0][:1][0], &d[1][:1][0], &d[2][:1][0], &d[3][:1][0], src, int(shift), &n)
	for t := range dst {
		dst[t] = dst[t][:n[t]]
	}
}

// avx2Kernel returns the AVX2 kernel for k chunks.
func avx2Kernel(k int) kernelFunc {
	var f func(tab *chunkTab, nb, tile int, qs []uint64) uint64
	switch k {
	case 4:
		f = countAVX2K4
	case 5:
		f = countAVX2K5
	case 6:
		f = countAVX2K6
	case 7:
		f = countAVX2K7
	case 8:
		f = countAVX2K8
	default:
		panic("qjoin: no kernel for this number of chunks")
	}
	return func(tab []chunkTab, nb int, qs []uint64) uint64 {
		if nb == 0 || len(qs) == 0 {
			return 0
		}
		_ = tab[nb*k-1] // the kernel reads nb*k chunk tables
		return f(&tab[0], nb, tileBlocks(k), qs)
	}
}
