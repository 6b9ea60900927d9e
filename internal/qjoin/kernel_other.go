//go:build !amd64 || purego

package qjoin

// Without amd64, or built with the purego tag, there are no assembly
// kernels: KernelAVX2 and KernelAVX512 are unavailable and KernelAuto
// takes the pure-Go one.

const (
	haveAVX2   = false
	haveAVX512 = false
)

var avx2Impl, avx512Impl *impl
