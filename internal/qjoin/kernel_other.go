//go:build !amd64

package qjoin

const haveAVX2 = false

func avx2Kernel(k int) kernelFunc { return goKernel(k) }

func buildAVX2(e *uint64, nb int, tab *chunkTab, k int, v *lineSets) {
	panic("qjoin: no AVX2 on this architecture")
}

func joinPairsAVX2(q []uint64, xs, ys []uint64) []uint64 { return joinPairs(q, xs, ys) }

func selectCutAVX2(dst, src []uint64, shift uint, t int) []uint64 {
	return selectCut(dst, src, shift, t)
}
