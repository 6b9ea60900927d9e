//go:build amd64 && !purego

package qjoin

import (
	"math/rand/v2"
	"slices"
	"testing"
)

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

// TestTilesAgree: a kernel's sum does not depend on its tile, the blocks it runs
// every query against before it moves on (the L1 data cache's size, which differs
// from CPU to CPU): random tables and queries, tiles of 1 to all blocks.
func TestTilesAgree(t *testing.T) {
	if !KernelAVX2.Available() {
		t.Skip("this CPU does not run AVX2")
	}
	rng := rand.New(rand.NewPCG(38, 7))
	type kern struct {
		name   string
		f      func(tab *uint64, nb, tile int, qs *[4]*uint64, runs []qrun, shifts *laneShifts) uint64
		halves int
		ok     bool
	}
	kerns := []kern{
		{"avx2 K5", countAVX2K5, 256, true},
		{"avx2 K7", countAVX2K7, 256, true},
		{"avx512 K5", countAVX512K5, 512, KernelAVX512.Available()},
		{"avx512 K7", countAVX512K7, 512, KernelAVX512.Available()},
	}
	var shifts laneShifts
	for f := range shifts {
		for l := range shifts[f] {
			shifts[f][l] = uint64(f+l) % 4
		}
	}
	for _, kn := range kerns {
		if !kn.ok {
			continue
		}
		k := int(kn.name[len(kn.name)-1] - '0')
		bw := k * chunkSize * kn.halves / 64
		const nb = 7
		tab := make([]uint64, nb*bw)
		for i := range tab {
			tab[i] = rng.Uint64()&rng.Uint64() | rng.Uint64()&rng.Uint64()
		}
		q := make([]uint64, 300)
		for i := range q {
			q[i] = rng.Uint64()
		}
		qs := [4][]uint64{q}
		runs := []qrun{{off: 0, n: 100, flags: 1}, {off: 100, n: 150, flags: 2}, {off: 250, n: 50}}
		var want uint64
		for tile := 1; tile <= nb+1; tile++ {
			got := asmCount(kn.f, bw, tile*bw*8)(tab, nb, &qs, runs, &shifts)
			if tile == 1 {
				want = got
				if want == 0 {
					t.Fatalf("%s: a sum of 0 on random tables", kn.name)
				}
			} else if got != want {
				t.Errorf("%s: tile of %d blocks sums %d, of 1 block %d", kn.name, tile, got, want)
			}
		}
	}
}

func TestTileFor(t *testing.T) {
	for _, c := range []struct{ l1, fallback, want int }{
		{32 << 10, 48 << 10, 32 << 10},
		{48 << 10, 24 << 10, 48 << 10},
		{0, 48 << 10, 48 << 10},        // not known
		{4 << 10, 24 << 10, 24 << 10},  // too small to be believed
		{64 << 20, 24 << 10, 24 << 10}, // a misread: no L1 is that large
	} {
		if got := tileFor(c.l1, c.fallback); got != c.want {
			t.Errorf("tileFor(%d, %d) = %d, want %d", c.l1, c.fallback, got, c.want)
		}
	}
}

// TestPrefixKernelsAgree: a prefix kernel (the AND of each query's first two chunks
// loaded from its block's prefix table) sums what the plain kernel of the same
// chunks does, for every kernel that has them, K and run shape, on random tables
// whose queries take a few distinct first-two-chunk values, for 1 to 5 blocks and
// tiles of one block or many.
func TestPrefixKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	var shifts laneShifts
	for f := range shifts {
		for l := range shifts[f] {
			shifts[f][l] = uint64(f+l) % 4
		}
	}
	tested := 0
	for _, kern := range kernels() {
		im := kern.impl()
		lanes := im.halves / 64
		for fields := 1; fields <= 2; fields++ {
			for k := minChunks; k <= maxChunks; k++ {
				if im.countsP[fields][k] == nil {
					continue
				}
				tested++
				for _, nb := range []int{1, 2, 5} {
					bw := im.blockWords(k)
					tab := make([]uint64, nb*bw)
					for i := range tab {
						tab[i] = rng.Uint64() | rng.Uint64() | rng.Uint64()
					}
					// Queries whose low 10 bits take 40 values and the next 10
					// 300 (4 flag values in the top bits), preSecondPer
					// queries a value of the second.
					lows := make([]uint64, 40)
					for i := range lows {
						lows[i] = rng.Uint64N(1024)
					}
					q := make([]uint64, 300*preSecondPer)
					for i := range q {
						q[i] = rng.Uint64()&^(1<<20-1) | uint64(i%300)<<10 | lows[rng.IntN(len(lows))]
					}
					orig := slices.Clone(q)
					sc := &queryScratch{}
					pqs, d := (&matcher{im: im, k: k, preFields: fields}).prefixQueries(&[4][]uint64{q}, sc)
					if d.a == 0 || d.a > len(lows) || d.fields() != fields || fields == 2 && d.b != 300 {
						t.Fatalf("%v: slots %v for %d and 300 values, %d fields", kern, d, len(lows), fields)
					}
					if !slices.Equal(q, orig) {
						t.Fatalf("%v: prefixQueries changed its input", kern)
					}
					pw := d.words(lanes)
					pre := make([]uint64, nb*pw)
					for b := range nb {
						im.prefix(tab[b*bw:(b+1)*bw], sc.preVals[:d.a], pre[b*pw:(b+1)*pw])
						if d.b > 0 {
							im.prefix(tab[b*bw+2*chunkSize*lanes:(b+1)*bw], sc.preValsB[:d.b], pre[b*pw+preMax*lanes:(b+1)*pw])
						}
					}
					qs := [4][]uint64{q}
					// Tiles of one block (a tile's bytes too few for two) and of all.
					tiled := []countPFunc{im.countsP[fields][k]}
					if kern == KernelAVX512 {
						tiled = append(tiled, prefixCounts(1, 1)[fields][k])
					}
					for _, runs := range [][]qrun{
						{{off: 0, n: 3200, flags: 1}, {off: 3200, n: 4800, flags: 2}, {off: 8000, n: 1600}},
						{{off: 0, n: 9600, flags: perQuery}},
						{{off: 7, n: 1, flags: 3}},
					} {
						want := im.count(k)(tab, nb, &qs, runs, &shifts)
						if want == 0 {
							t.Fatalf("%v K%d: a sum of 0 on random tables", kern, k)
						}
						for i, f := range tiled {
							if got := f(tab, nb, pqs, runs, &shifts, pre, pw); got != want {
								t.Errorf("%v K%d, %d fields, %d blocks, runs %v, tiling %d: prefix kernel %d, plain %d", kern, k, fields, nb, runs, i, got, want)
							}
						}
					}
				}
			}
		}
	}
	if KernelAVX512.Available() && tested == 0 {
		t.Error("no prefix kernel tested on a CPU with AVX-512")
	}
	t.Logf("%d prefix kernels tested", tested)
}
