package qjoin

import "golang.org/x/sys/cpu"

// haveAVX2 tells whether the CPU runs the AVX2 kernel (it also uses BMI2's
// SHRX for the chunk offsets).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2

func countAVX2(tab []uint64, nb, k int, qs []uint64) uint64 { return countGo(tab, nb, k, qs) }
