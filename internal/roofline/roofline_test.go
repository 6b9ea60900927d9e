package roofline

import (
	"fmt"
	"testing"
	"time"
	"unsafe"
)

var sink uint64

// clock returns the measured cycles per nanosecond (GHz): a chain of
// dependent adds runs one add per cycle.
func clock() float64 {
	const n = 1 << 26
	best := time.Duration(1 << 62)
	for i := 0; i < 5; i++ {
		t := time.Now()
		sink += AddChain(n)
		best = min(best, time.Since(t))
	}
	return 8 * n / float64(best.Nanoseconds())
}

// BenchmarkRoofline measures this core's peaks for the matcher kernel's
// instruction mix (see docs/counting.md): cycles per iteration of 8 random
// 64-byte loads, ANDs and a VPOPCNTQ from tables of each size (the L1
// cache, L2, beyond), and cycles per VPOPCNTQ alone.
//
//	go test -run XXX -bench Roofline -benchtime 300x ./internal/roofline
func BenchmarkRoofline(b *testing.B) {
	if !HaveAVX512 {
		b.Skip("no AVX-512 VPOPCNTDQ")
	}
	mix(b, LoadRand512, 64, []int{16 << 10, 32 << 10, 48 << 10, 128 << 10, 512 << 10, 2 << 20, 32 << 20},
		"vpopcntq", Popcnt512, 8, "cycles/popcnt")
}

// BenchmarkRooflineAVX2 is BenchmarkRoofline for the AVX2 kernel's mix (issue 38,
// item 3): cycles per iteration of 8 random 32-byte loads, ANDs and the nibble popcount
// (AVX2 has no VPOPCNTQ) from tables of each size, and cycles per nibble popcount alone.
// The AVX2 kernel's table of 8 chunks is 8 KB a block.
//
//	go test -run XXX -bench RooflineAVX2 -benchtime 300x ./internal/roofline
func BenchmarkRooflineAVX2(b *testing.B) {
	if !HaveAVX2 {
		b.Skip("no AVX2")
	}
	mix(b, LoadRand256, 32, []int{8 << 10, 16 << 10, 32 << 10, 48 << 10, 128 << 10, 512 << 10, 2 << 20, 32 << 20},
		"nibble", Nibble256, 4, "cycles/popcount")
}

// mix times a kernel's mix: load, whose iterations load 8 words of width bytes, from
// tables of each size, then its popcount alone, ops popcounts an iteration, in cycles
// by the clock of dependent adds.
func mix(b *testing.B, load func(buf *byte, size, n int) uint64, width int, sizes []int,
	name string, popcount func(n int) uint64, ops int, unit string) {
	ghz := clock()
	b.Logf("clock: %.2f GHz (dependent adds)", ghz)
	buf := make([]byte, 64<<20+64)
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0])))%64) % 64
	p := &buf[off]
	const n = 1 << 16
	perIter := func(b *testing.B) float64 { return float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n }
	for _, size := range sizes {
		b.Run(fmt.Sprintf("load8and/size=%dK", size>>10), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += load(p, size, n)
			}
			ns := perIter(b)
			b.ReportMetric(ns*ghz, "cycles/iter")
			b.ReportMetric(float64(8*width)/ns, "bytes/ns")
		})
	}
	b.Run(name, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += popcount(n)
		}
		b.ReportMetric(perIter(b)*ghz/float64(ops), unit)
	})
}

// TestRoutinesAVX2: the AVX2 routines count the bits they say (all-ones loads and
// registers), so that the benchmark times real work.
func TestRoutinesAVX2(t *testing.T) {
	if !HaveAVX2 {
		t.Skip("no AVX2")
	}
	buf := make([]byte, 4096+64)
	for i := range buf {
		buf[i] = 0xff
	}
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0])))%64) % 64
	// Every load is all ones: 8 bits a byte an iteration, the lowest 8 bytes summed.
	if got := LoadRand256(&buf[off], 4096, 3); got != 3*64 {
		t.Errorf("LoadRand256 = %d, want %d", got, 3*64)
	}
	// Four popcounts of all ones an iteration: 32 a byte, the lowest 8 bytes summed.
	if got := Nibble256(3); got != 8*32*3 {
		t.Errorf("Nibble256 = %d, want %d", got, 8*32*3)
	}
}

// TestRoutines: the routines compute what they say (the clock's adds, a
// popcount of all-ones words), so that the benchmark times real work.
func TestRoutines(t *testing.T) {
	if !HaveAVX512 {
		t.Skip("no AVX-512 VPOPCNTDQ")
	}
	if got := AddChain(10); got != 80 {
		t.Errorf("AddChain(10) = %d", got)
	}
	buf := make([]byte, 4096+64)
	for i := range buf {
		buf[i] = 0xff
	}
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0])))%64) % 64
	// Every load is all ones, and the routine returns the lowest of the
	// accumulator's eight 64-bit lanes: 64 bits per iteration.
	if got := LoadRand512(&buf[off], 4096, 3); got != 3*64 {
		t.Errorf("LoadRand512 = %d, want %d", got, 3*64)
	}
}
