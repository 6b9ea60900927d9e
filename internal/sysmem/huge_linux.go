package sysmem

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeMin is the smallest array worth advising: below a few huge pages the TLB copes.
const hugeMin = 8 << 20

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// AdviseHuge asks for transparent huge pages (madvise MADV_HUGEPAGE) on the 2 MiB-aligned
// part of a freshly allocated, not yet touched slice: random probes over hundreds of
// megabytes miss the TLB on almost every access with 4 KiB pages. It matters when the
// system setting is "madvise" (the common default), and is harmless otherwise. Errors are
// ignored: huge pages are an optimisation only.
func AdviseHuge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	size := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if size < hugeMin {
		return
	}
	start := uintptr(unsafe.Pointer(&s[0]))
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + size) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	all := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), size)
	_ = unix.Madvise(all[lo-start:hi-start], unix.MADV_HUGEPAGE)
}
