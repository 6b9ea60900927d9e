package localsearch

import "github.com/nqueens/nqueens/internal/sysmem"

// makeInt32s and makeWords allocate the big arrays and, when huge is set, ask the kernel
// for huge pages on them (sysmem.AdviseHuge).
func makeInt32s(n int, huge bool) []int32 {
	q := make([]int32, n)
	if huge {
		sysmem.AdviseHuge(q)
	}
	return q
}

func makeWords(n int, huge bool) []uint64 {
	w := make([]uint64, n)
	if huge {
		sysmem.AdviseHuge(w)
	}
	return w
}
