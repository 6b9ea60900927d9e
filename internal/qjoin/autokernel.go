package qjoin

import (
	"math/rand/v2"
	"sync"
	"time"
)

// The kernels this CPU runs, widest first: the order of preference.
func availableKernels() []Kernel {
	var ks []Kernel
	for _, k := range []Kernel{KernelAVX512, KernelAVX2, KernelGo} {
		if k.Available() {
			ks = append(ks, k)
		}
	}
	return ks
}

// autoMargin is how much faster than the widest kernel another one must
// be, timed on the same work, to be taken instead: a busy moment during
// the timing does not move the choice, vector code many times slower
// than its width promises does. (Seen on a 2-core KVM guest reporting an
// Intel Xeon with AVX-512, 2026-12-03: the AVX-512 and AVX2 kernels
// matched 3 to 7 times slower than the pure-Go one. The cause was ours,
// a legacy SSE instruction in their loop (see gen_kernels.go), since
// fixed; the timing stays as the net that caught it.)
const autoMargin = 1.5

var autoKernel = sync.OnceValue(func() Kernel { return chooseKernel(availableKernels(), timeKernel) })

// AutoKernel is the kernel KernelAuto stands for: of the kernels this CPU runs, the widest, unless another one matched
// the same random words at least autoMargin times faster when first
// asked (a few milliseconds, once per process).
func AutoKernel() Kernel { return autoKernel() }

// chooseKernel returns the first of ks (the preferred one) unless the
// fastest by timing (the least time of three rounds, the kernels taking
// turns) is at least autoMargin times faster than it.
func chooseKernel(ks []Kernel, timing func(Kernel) time.Duration) Kernel {
	if len(ks) < 2 {
		if len(ks) == 1 {
			return ks[0]
		}
		return KernelGo
	}
	best := make([]time.Duration, len(ks))
	for round := 0; round < 3; round++ {
		for i, k := range ks {
			d := timing(k)
			if round == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	fastest := 0
	for i := range ks {
		if best[i] < best[fastest] {
			fastest = i
		}
	}
	if float64(best[fastest])*autoMargin <= float64(best[0]) {
		return ks[fastest]
	}
	return ks[0]
}

// timeKernel times kernel k matching 4,096 random West words against 2,048
// random East words of 40 lines, without cut lines: the kernel's inner
// loop as a row set runs it (about 0.1 ms with AVX-512 on a modern core).
// The words are the same for every kernel and every call.
func timeKernel(k Kernel) time.Duration {
	d, _ := kernelWork(k)
	return d
}

// kernelWork is timeKernel's work: its time and its count.
func kernelWork(k Kernel) (time.Duration, uint64) {
	const lines = 40
	rng := rand.New(rand.NewPCG(27, 28))
	east := randomLineWords(rng, 2048, lines)
	west := randomLineWords(rng, 4096, lines)
	m := newMatcher(lines, k.impl())
	m.forceCut = 0
	m.setWeights(0)
	m.build(east, west, true, -1)
	start := time.Now()
	c, _ := m.countQueries(west, nil)
	return time.Since(start), c
}

// randomLineWords returns m words with each of the first L bits set with
// probability 1/4 (two random words ANDed), padded as the matcher wants.
func randomLineWords(rng *rand.Rand, m, L int) []uint64 {
	ws := make([]uint64, m, m+pairSlack)
	for i := range ws {
		ws[i] = rng.Uint64() & rng.Uint64() & (1<<uint(L) - 1)
	}
	return ws
}
