package ntstore

import (
	"testing"
	"unsafe"
)

// TestLine: Line writes exactly the 16 words of src at dst, at every 16-byte aligned
// offset inside a buffer, and leaves the words around them alone.
func TestLine(t *testing.T) {
	buf := make([]uint32, 256)
	skip := int(-uintptr(unsafe.Pointer(&buf[0])) & 63 / 4) // a 64-byte boundary
	var src [16]uint32
	for i := range src {
		src[i] = uint32(0xa0000000 + i)
	}
	for at := skip; at+16 <= skip+128; at += 4 { // 16-byte steps
		for i := range buf {
			buf[i] = 7
		}
		Line((*[16]uint32)(buf[at:at+16]), &src)
		Fence()
		for i, v := range buf {
			want := uint32(7)
			if i >= at && i < at+16 {
				want = src[i-at]
			}
			if v != want {
				t.Fatalf("dst offset %d: word %d is %#x, want %#x", at, i, v, want)
			}
		}
	}
}
