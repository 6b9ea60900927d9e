package qjoin

import "math/bits"

// The pure-Go kernels, one per number K of chunks so that the AND chain is
// unrolled and every table index is a 5-bit value on a [32] array (no
// bounds checks in the block loop). Each counts, over the queries w of qs
// and the nb blocks of tab, the East halves compatible with w.

func countGo4(tab []chunkTab, nb int, qs []uint64) uint64 {
	var total uint64
	tab = tab[:nb*4]
	for _, w := range qs {
		s0 := w & (chunkSize - 1)
		s1 := w >> 5 & (chunkSize - 1)
		s2 := w >> 10 & (chunkSize - 1)
		s3 := w >> 15 & (chunkSize - 1)
		for b := 0; b < nb; b++ {
			t := (*[4]chunkTab)(tab[b*4 : b*4+4])
			e0 := &t[0][s0]
			e1 := &t[1][s1]
			e2 := &t[2][s2]
			e3 := &t[3][s3]
			v0 := e0[0] & e1[0] & e2[0] & e3[0]
			v1 := e0[1] & e1[1] & e2[1] & e3[1]
			v2 := e0[2] & e1[2] & e2[2] & e3[2]
			v3 := e0[3] & e1[3] & e2[3] & e3[3]
			total += uint64(bits.OnesCount64(v0) + bits.OnesCount64(v1) + bits.OnesCount64(v2) + bits.OnesCount64(v3))
		}
	}
	return total
}

func countGo5(tab []chunkTab, nb int, qs []uint64) uint64 {
	var total uint64
	tab = tab[:nb*5]
	for _, w := range qs {
		s0 := w & (chunkSize - 1)
		s1 := w >> 5 & (chunkSize - 1)
		s2 := w >> 10 & (chunkSize - 1)
		s3 := w >> 15 & (chunkSize - 1)
		s4 := w >> 20 & (chunkSize - 1)
		for b := 0; b < nb; b++ {
			t := (*[5]chunkTab)(tab[b*5 : b*5+5])
			e0 := &t[0][s0]
			e1 := &t[1][s1]
			e2 := &t[2][s2]
			e3 := &t[3][s3]
			e4 := &t[4][s4]
			v0 := e0[0] & e1[0] & e2[0] & e3[0] & e4[0]
			v1 := e0[1] & e1[1] & e2[1] & e3[1] & e4[1]
			v2 := e0[2] & e1[2] & e2[2] & e3[2] & e4[2]
			v3 := e0[3] & e1[3] & e2[3] & e3[3] & e4[3]
			total += uint64(bits.OnesCount64(v0) + bits.OnesCount64(v1) + bits.OnesCount64(v2) + bits.OnesCount64(v3))
		}
	}
	return total
}

func countGo6(tab []chunkTab, nb int, qs []uint64) uint64 {
	var total uint64
	tab = tab[:nb*6]
	for _, w := range qs {
		s0 := w & (chunkSize - 1)
		s1 := w >> 5 & (chunkSize - 1)
		s2 := w >> 10 & (chunkSize - 1)
		s3 := w >> 15 & (chunkSize - 1)
		s4 := w >> 20 & (chunkSize - 1)
		s5 := w >> 25 & (chunkSize - 1)
		for b := 0; b < nb; b++ {
			t := (*[6]chunkTab)(tab[b*6 : b*6+6])
			e0 := &t[0][s0]
			e1 := &t[1][s1]
			e2 := &t[2][s2]
			e3 := &t[3][s3]
			e4 := &t[4][s4]
			e5 := &t[5][s5]
			v0 := e0[0] & e1[0] & e2[0] & e3[0] & e4[0] & e5[0]
			v1 := e0[1] & e1[1] & e2[1] & e3[1] & e4[1] & e5[1]
			v2 := e0[2] & e1[2] & e2[2] & e3[2] & e4[2] & e5[2]
			v3 := e0[3] & e1[3] & e2[3] & e3[3] & e4[3] & e5[3]
			total += uint64(bits.OnesCount64(v0) + bits.OnesCount64(v1) + bits.OnesCount64(v2) + bits.OnesCount64(v3))
		}
	}
	return total
}

func countGo7(tab []chunkTab, nb int, qs []uint64) uint64 {
	var total uint64
	tab = tab[:nb*7]
	for _, w := range qs {
		s0 := w & (chunkSize - 1)
		s1 := w >> 5 & (chunkSize - 1)
		s2 := w >> 10 & (chunkSize - 1)
		s3 := w >> 15 & (chunkSize - 1)
		s4 := w >> 20 & (chunkSize - 1)
		s5 := w >> 25 & (chunkSize - 1)
		s6 := w >> 30 & (chunkSize - 1)
		for b := 0; b < nb; b++ {
			t := (*[7]chunkTab)(tab[b*7 : b*7+7])
			e0 := &t[0][s0]
			e1 := &t[1][s1]
			e2 := &t[2][s2]
			e3 := &t[3][s3]
			e4 := &t[4][s4]
			e5 := &t[5][s5]
			e6 := &t[6][s6]
			v0 := e0[0] & e1[0] & e2[0] & e3[0] & e4[0] & e5[0] & e6[0]
			v1 := e0[1] & e1[1] & e2[1] & e3[1] & e4[1] & e5[1] & e6[1]
			v2 := e0[2] & e1[2] & e2[2] & e3[2] & e4[2] & e5[2] & e6[2]
			v3 := e0[3] & e1[3] & e2[3] & e3[3] & e4[3] & e5[3] & e6[3]
			total += uint64(bits.OnesCount64(v0) + bits.OnesCount64(v1) + bits.OnesCount64(v2) + bits.OnesCount64(v3))
		}
	}
	return total
}

func countGo8(tab []chunkTab, nb int, qs []uint64) uint64 {
	var total uint64
	tab = tab[:nb*8]
	for _, w := range qs {
		s0 := w & (chunkSize - 1)
		s1 := w >> 5 & (chunkSize - 1)
		s2 := w >> 10 & (chunkSize - 1)
		s3 := w >> 15 & (chunkSize - 1)
		s4 := w >> 20 & (chunkSize - 1)
		s5 := w >> 25 & (chunkSize - 1)
		s6 := w >> 30 & (chunkSize - 1)
		s7 := w >> 35 & (chunkSize - 1)
		for b := 0; b < nb; b++ {
			t := (*[8]chunkTab)(tab[b*8 : b*8+8])
			e0 := &t[0][s0]
			e1 := &t[1][s1]
			e2 := &t[2][s2]
			e3 := &t[3][s3]
			e4 := &t[4][s4]
			e5 := &t[5][s5]
			e6 := &t[6][s6]
			e7 := &t[7][s7]
			v0 := e0[0] & e1[0] & e2[0] & e3[0] & e4[0] & e5[0] & e6[0] & e7[0]
			v1 := e0[1] & e1[1] & e2[1] & e3[1] & e4[1] & e5[1] & e6[1] & e7[1]
			v2 := e0[2] & e1[2] & e2[2] & e3[2] & e4[2] & e5[2] & e6[2] & e7[2]
			v3 := e0[3] & e1[3] & e2[3] & e3[3] & e4[3] & e5[3] & e6[3] & e7[3]
			total += uint64(bits.OnesCount64(v0) + bits.OnesCount64(v1) + bits.OnesCount64(v2) + bits.OnesCount64(v3))
		}
	}
	return total
}

// goKernel returns the pure-Go kernel for k chunks.
func goKernel(k int) kernelFunc {
	switch k {
	case 4:
		return countGo4
	case 5:
		return countGo5
	case 6:
		return countGo6
	case 7:
		return countGo7
	case 8:
		return countGo8
	}
	panic("qjoin: no kernel for this number of chunks")
}
