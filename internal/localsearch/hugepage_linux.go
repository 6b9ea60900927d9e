package localsearch

import (
	"syscall"
	"unsafe"
)

// hugeMin is the smallest array worth advising: below a few huge pages the TLB copes.
const hugeMin = 8 << 20

// adviseHuge asks for transparent huge pages (madvise MADV_HUGEPAGE) on the 2 MiB-aligned
// part of a freshly allocated, not yet touched slice. It matters when the system setting
// is "madvise" (the common default), and is harmless otherwise. Errors are ignored: huge
// pages are an optimisation only.
func adviseHuge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	size := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if size < hugeMin {
		return
	}
	const huge = 2 << 20
	start := uintptr(unsafe.Pointer(&s[0]))
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + size) &^ (huge - 1)
	if hi <= lo {
		return
	}
	all := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), size)
	_ = syscall.Madvise(all[lo-start:hi-start], 14) // MADV_HUGEPAGE
}
