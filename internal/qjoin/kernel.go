package qjoin

import (
	"errors"
	"fmt"
	"strings"
)

// Kernel selects the code that counts West words against the chunk tables.
// Every kernel gives the same counts; they differ only in speed.
type Kernel uint8

const (
	// KernelAuto takes the fastest kernel this CPU runs: the widest,
	// unless a few milliseconds of matching, timed once per process, find
	// another clearly faster (see AutoKernel). The library reads no
	// environment: the command passes NQUEENS_KERNEL as the counter's
	// kernel option.
	KernelAuto Kernel = iota
	// KernelGo is the pure-Go kernel: one 64-bit AND chain and popcount per
	// 64 East halves. It runs everywhere.
	KernelGo
	// KernelAVX2 is the assembly kernel for amd64 CPUs with AVX2: one
	// 256-bit AND chain per block of 256 halves and a nibble-table
	// popcount.
	KernelAVX2
	// KernelAVX512 is the assembly kernel for amd64 CPUs with AVX-512F and
	// VPOPCNTDQ: one 512-bit AND chain and VPOPCNTQ per block of 512
	// halves.
	KernelAVX512
)

// ErrKernel is matched (errors.Is) by the errors of a kernel name that
// names no kernel (ParseKernel) and of a kernel this CPU does not run
// (Resolve).
var ErrKernel = errors.New("no such kernel here")

// kernelError is an error of a kernel choice; it is ErrKernel.
type kernelError string

func (e kernelError) Error() string        { return string(e) }
func (e kernelError) Is(target error) bool { return target == ErrKernel }

func (k Kernel) String() string {
	switch k {
	case KernelAuto:
		return "auto"
	case KernelGo:
		return "go"
	case KernelAVX2:
		return "avx2"
	case KernelAVX512:
		return "avx512"
	}
	return fmt.Sprintf("Kernel(%d)", int(k))
}

// ParseKernel maps a kernel's name to the Kernel.
func ParseKernel(s string) (Kernel, error) {
	for _, k := range []Kernel{KernelAuto, KernelGo, KernelAVX2, KernelAVX512} {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, kernelError(fmt.Sprintf("unknown kernel %q (want auto, go, avx2 or avx512)", s))
}

// Available reports whether this CPU runs the kernel.
func (k Kernel) Available() bool {
	switch k {
	case KernelAuto, KernelGo:
		return true
	case KernelAVX2:
		return haveAVX2
	case KernelAVX512:
		return haveAVX512
	}
	return false
}

// Resolve returns the kernel that k stands for on this machine: itself, or
// for KernelAuto the fastest available (AutoKernel). It fails, wrapping
// ErrKernel, for a kernel this CPU cannot run.
func (k Kernel) Resolve() (Kernel, error) {
	if k == KernelAuto {
		return AutoKernel(), nil
	}
	if !k.Available() {
		return 0, kernelError(fmt.Sprintf("kernel %v does not run on this CPU", k))
	}
	return k, nil
}

// ResolveName is Resolve of the kernel named s ("" is KernelAuto).
func ResolveName(s string) (Kernel, error) {
	if s == "" {
		return AutoKernel(), nil
	}
	k, err := ParseKernel(s)
	if err != nil {
		return 0, err
	}
	return k.Resolve()
}

// impl is a resolved kernel: its block size, its code, and the constants
// of the cost model by which the matcher chooses its cut lines (choose),
// in nanoseconds on the machines it was tuned on; only their ratios
// matter.
type impl struct {
	kind   Kernel
	halves int // East halves per block: 256 or 512
	// build makes the chunk tables of nb blocks of words, k chunks each.
	build func(words []uint64, nb int, tab []uint64, k int, v *lineSets)
	// counts[k] is the count function for k chunks.
	counts [maxChunks + 1]countFunc
	// countsP[f][k], if not nil, is the prefix count function for k
	// chunks, whose queries' first 2f chunks are f entries of a prefix
	// table (countPFunc), and prefix builds a block's prefix table of two
	// chunks: see matcher.prefixQueries.
	countsP [3][maxChunks + 1]countPFunc
	prefix  func(blk []uint64, vals []uint16, pre []uint64)
	// join appends the compatible pairs x|y (x&y&mask == 0) of xs × ys to
	// q, which needs room for len(xs)*len(ys)+pairSlack more.
	join func(q, xs, ys []uint64, mask uint64) []uint64

	// orientMin: a row set with at most this many halves, East and West
	// together, keeps its East halves as the table without asking the
	// cost model: with a fast kernel the choice costs more than it saves
	// on so few (AVX-512 on an Intel Xeon VM, count 18 -w 1: 1.86 s with
	// 16,384 here, 2.02 s with every row set weighed, the engine before
	// the choice 1.74 s; n = 19 the same, n = 20 -w 2 87.8 s against 87.2
	// and 99.0 s without the choice); the pure-Go kernel gains from it
	// at every size.
	orientMin int

	alpha   float64 // per query, block and chunk
	beta    float64 // per query and group met
	gamma   float64 // per block and chunk built
	delta   float64 // per table word grouped
	epsilon float64 // per query sorted
}

// blockWords is the number of table words of a block of k chunks.
func (im *impl) blockWords(k int) int { return k * chunkSize * im.halves / 64 }

// count returns the count function for k chunks.
func (im *impl) count(k int) countFunc { return im.counts[k] }

// goImpl is the pure-Go kernel.
var goImpl = &impl{
	kind:   KernelGo,
	halves: 256,
	build: func(words []uint64, nb int, tab []uint64, k int, _ *lineSets) {
		buildGo(words, nb, tab, k)
	},
	counts:  [maxChunks + 1]countFunc{4: countGo4, 5: countGo5, 6: countGo6, 7: countGo7, 8: countGo8},
	join:    joinPairs,
	alpha:   2.0,
	beta:    4,
	gamma:   600,
	delta:   4,
	epsilon: 2,
}

// impl returns the implementation of a resolved kernel.
func (k Kernel) impl() *impl {
	switch k {
	case KernelAVX2:
		if haveAVX2 {
			return avx2Impl
		}
	case KernelAVX512:
		if haveAVX512 {
			return avx512Impl
		}
	}
	return goImpl
}
