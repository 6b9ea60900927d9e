// Package roofline measures this CPU's peaks for the instruction mix of the
// quadrant join's matcher kernel (internal/qjoin): a clock from a chain of
// dependent adds, and the throughput of 512-bit loads, ANDs and VPOPCNTQ
// from the L1 and L2 caches. Its benchmarks give the roofline against which
// the kernel's measured rate is read (docs/counting.md).
package roofline
