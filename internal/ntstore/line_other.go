//go:build !amd64

package ntstore

// Line copies src to dst (non-temporal stores exist only in the amd64 version).
func Line(dst *[16]uint32, src *[16]uint32) { *dst = *src }

// Fence does nothing: Line's plain stores are ordered already.
func Fence() {}
