//go:build !linux

package localsearch

func adviseHuge[T any](s []T) {}
