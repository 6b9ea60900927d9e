// Package ntstore writes whole cache lines with non-temporal stores: straight to memory,
// without first reading the line into the caches and without evicting anything.
//
// The bucketed verification scatters the rows of a board into some hundred buckets in
// memory. Written with ordinary stores, every line a bucket starts is first read from
// memory (a read for ownership) and the stores behind it wait for that read; with about a
// hundred such streams the hardware prefetchers lose track and the scatter runs at the
// memory latency. Staging 16 entries in a small array and writing the full line at once
// with a non-temporal store needs no read at all. On amd64 that is four MOVNTDQ
// instructions (line_amd64.s, SSE2, present on every amd64 CPU); elsewhere a plain copy.
package ntstore
