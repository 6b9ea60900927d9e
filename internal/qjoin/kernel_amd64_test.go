//go:build amd64 && !purego

package qjoin

import "testing"

// TestAVX2ByteCounts: the AVX2 kernels add a tile's byte counts in bytes (8 at most a
// byte a block) before summing them into words, so a tile holds at most maxAVX2Tile
// blocks. At that limit, with every bit of the tables set (every half compatible, the
// largest count a byte can reach), each query counts every half of every block, each
// lane by its own weight; the wrapper never passes a larger tile, whatever the tile
// bytes asked for.
func TestAVX2ByteCounts(t *testing.T) {
	if !KernelAVX2.Available() {
		t.Skip("this CPU does not run AVX2")
	}
	const k = 4
	bw := k * chunkSize * 4 // words a block
	for _, nb := range []int{1, 5, maxAVX2Tile, maxAVX2Tile + 1, 3*maxAVX2Tile + 2} {
		tab := make([]uint64, nb*bw)
		for i := range tab {
			tab[i] = ^uint64(0)
		}
		qs := [4][]uint64{{0, 1<<62 | 12345, 3 << 62}}
		// A run per flags, and one run of them all weighed query by query.
		byFlags := []qrun{{off: 0, n: 1}, {off: 1, n: 1, flags: 1}, {off: 2, n: 1, flags: 3}}
		perQueries := []qrun{{off: 0, n: 3, flags: perQuery}}
		var shifts laneShifts
		for f := range shifts {
			for l := range shifts[f] {
				shifts[f][l] = uint64(f + l) // lanes 4..7 unread
			}
		}
		f := asmCount(countAVX2K4, bw, 1<<30) // tiles as large as asked: clamped
		want := uint64(nb*64) * (1 + 2 + 4 + 8) * (1 + 2 + 8)
		for _, runs := range [][]qrun{byFlags, perQueries} {
			if got := f(tab, nb, &qs, runs, &shifts); got != want {
				t.Errorf("%d blocks of full tables, runs %v: %d, want %d", nb, runs, got, want)
			}
		}
	}
}
