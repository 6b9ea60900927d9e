//go:build !amd64 || purego

package roofline

// HaveAVX512 is false off amd64, or with the purego tag: the routines exist
// only in assembly for amd64.
var HaveAVX512 = false

// HaveAVX2 is false off amd64, or with the purego tag.
var HaveAVX2 = false

func AddChain(n int) uint64                     { return 0 }
func LoadRand512(buf *byte, size, n int) uint64 { return 0 }
func Popcnt512(n int) uint64                    { return 0 }
func LoadRand256(buf *byte, size, n int) uint64 { return 0 }
func Nibble256(n int) uint64                    { return 0 }
