// Package prefetch asks the CPU to start loading the cache lines of array elements that a
// loop will read soon, so that the misses of independent random accesses overlap.
//
// The big arrays of the local search and of the in-place verification are probed at
// random; their indices are known a few dozen steps ahead, and a hint issued that early
// hides most of the DRAM latency. On amd64 each hint is a PREFETCHT0 instruction (a tiny
// assembly loop); elsewhere plain loads touch the lines, which the CPU still overlaps.
package prefetch
