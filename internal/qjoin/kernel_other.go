//go:build !amd64

package qjoin

const haveAVX2 = false

func countAVX2(tab []uint64, nb, k int, qs []uint64) uint64 { return countGo(tab, nb, k, qs) }
