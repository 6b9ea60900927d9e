package localsearch

import "math/bits"

// wyrand is the PRNG of the package: one 64-bit word of state, one multiply per draw
// (Wang Yi's wyrand, the generator of bench/yardstick/shuffle). It passes BigCrush and
// PractRand, which is far more than a local search needs, and it is cheap enough that the
// draws cost nothing next to the cache misses they cause.
type wyrand struct{ s uint64 }

// newRand mixes the user's seed with splitmix64 so that nearby seeds (1, 2, 3...) start
// from unrelated states.
func newRand(seed uint64) wyrand {
	z := seed + 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return wyrand{s: z ^ (z >> 31)}
}

func (r *wyrand) next() uint64 {
	r.s += 0xA0761D6478BD642F
	hi, lo := bits.Mul64(r.s, r.s^0xE7037ED1A0B428DB)
	return hi ^ lo
}

// below maps a 64-bit draw x to [0, bound) by Lemire's multiply-shift (the high word of
// x·bound). The bias is at most bound/2^64, below 10^-10 for every n this package accepts.
func below(x uint64, bound int) int {
	hi, _ := bits.Mul64(x, uint64(bound))
	return int(hi)
}
