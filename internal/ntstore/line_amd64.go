package ntstore

// Line writes src to the 64 bytes at dst with non-temporal stores. dst must be 16-byte
// aligned (64-byte aligned to fill a whole cache line). The stores are weakly ordered:
// call Fence before the data is read back.
//
//go:noescape
func Line(dst *[16]uint32, src *[16]uint32)

// Fence orders the non-temporal stores made so far before every later load and store
// (SFENCE).
func Fence()
