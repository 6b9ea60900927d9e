//go:build !amd64

package qjoin

// Without amd64 there is no AVX2 kernel: KernelAVX2 is unavailable and
// KernelAuto takes the pure-Go one. These stand-ins keep the solver's
// wiring the same on every architecture; they are never called.

const haveAVX2 = false

func avx2Kernel(k int) kernelFunc { return goKernel(k) }

func buildAVX2(e *uint64, nb int, tab *chunkTab, k int, v *lineSets) {
	panic("qjoin: no AVX2 on this architecture")
}

func joinPairsAVX2(q []uint64, xs, ys []uint64) []uint64 { return joinPairs(q, xs, ys) }

func splitCutAVX2(dst *[4][]uint64, src []uint64, shift uint) { splitCut(dst, src, shift) }
