package localsearch

// makeInt32s and makeWords allocate the big arrays and ask the kernel for huge pages on
// them (see hugepage_linux.go): random probes over hundreds of megabytes miss the TLB on
// almost every access with 4 KiB pages.
func makeInt32s(n int, huge bool) []int32 {
	q := make([]int32, n)
	if huge {
		adviseHuge(q)
	}
	return q
}

func makeWords(n int, huge bool) []uint64 {
	w := make([]uint64, n)
	if huge {
		adviseHuge(w)
	}
	return w
}
