//go:build amd64 && !purego

package roofline

import "golang.org/x/sys/cpu"

// HaveAVX512 tells whether the 512-bit routines run on this CPU.
var HaveAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// HaveAVX2 tells whether the 256-bit routines (the AVX2 kernel's mix) run on this CPU.
var HaveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2

// AddChain runs n iterations of a chain of 8 dependent 64-bit adds: 8n
// cycles at one add per cycle of latency, the clock of the other routines.
// The adds are of a register, not of an immediate: recent Intel cores fold
// chains of immediate adds at renaming (a 4 GHz Intel Xeon VM timed them
// at 18.8 "GHz", which made its roofline look four to five times slower
// than it is).
//
//go:noescape
func AddChain(n int) uint64

// LoadRand512 runs n iterations of the matcher kernel's inner loop for 8
// chunks: 8 loads of 64 bytes at pseudo-random offsets within size bytes of
// buf (an LCG in a register picks them, as a query's chunks pick table
// entries), ANDed together, one VPOPCNTQ and one VPADDQ. size is a power of
// two, at least 64.
//
//go:noescape
func LoadRand512(buf *byte, size, n int) uint64

// Popcnt512 runs n iterations of 8 independent VPOPCNTQ on registers.
//
//go:noescape
func Popcnt512(n int) uint64

// LoadRand256 runs n iterations of the AVX2 matcher kernel's inner loop for 8
// chunks: 8 loads of 32 bytes at pseudo-random offsets within size bytes of buf,
// ANDed together, the nibble popcount (there is no VPOPCNTQ in AVX2) and a
// VPADDB into byte counts, summed once at the end. It returns the popcount of
// the first 8 bytes' counts' lane (a check, not the whole sum). size is a power
// of two, at least 32.
//
//go:noescape
func LoadRand256(buf *byte, size, n int) uint64

// Nibble256 runs n iterations of 4 independent nibble popcounts of a 256-bit
// register: the AVX2 kernel's popcount alone.
//
//go:noescape
func Nibble256(n int) uint64
