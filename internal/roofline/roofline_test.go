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
	ghz := clock()
	b.Logf("clock: %.2f GHz (dependent adds)", ghz)
	buf := make([]byte, 64<<20+64)
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0])))%64) % 64
	p := &buf[off]
	for _, size := range []int{16 << 10, 32 << 10, 48 << 10, 128 << 10, 512 << 10, 2 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("load8and/size=%dK", size>>10), func(b *testing.B) {
			const n = 1 << 16
			for i := 0; i < b.N; i++ {
				sink += LoadRand512(p, size, n)
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n
			b.ReportMetric(ns*ghz, "cycles/iter")
			b.ReportMetric(8*64/ns, "bytes/ns")
		})
	}
	b.Run("vpopcntq", func(b *testing.B) {
		const n = 1 << 16
		for i := 0; i < b.N; i++ {
			sink += Popcnt512(n)
		}
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n
		b.ReportMetric(ns*ghz/8, "cycles/popcnt")
	})
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
