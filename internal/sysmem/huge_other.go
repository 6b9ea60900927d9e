//go:build !linux

package sysmem

// AdviseHuge does nothing where madvise(MADV_HUGEPAGE) does not exist.
func AdviseHuge[T any](s []T) {}
