package nqueens

// bitset is a set of non-negative integers, one bit each: the columns and diagonals a
// verifier has seen. Its words are its range; the readers that do not know n grow it.
type bitset []uint64

// newBitset returns an empty set with room for 0..bits−1.
func newBitset(bits int) bitset { return make(bitset, (bits+63)/64) }

// testAndSet adds i, which must be within the set's words, and reports whether it was
// there already.
func (s bitset) testAndSet(i int) bool {
	w, b := i>>6, uint64(1)<<(i&63)
	old := s[w]
	s[w] = old | b
	return old&b != 0
}

// clear removes i if it is within the set's words.
func (s bitset) clear(i int) {
	if i>>6 < len(s) {
		s[i>>6] &^= 1 << (i & 63)
	}
}

// grown returns a copy of s with words words (at least len(s)), for a set that grows.
func (s bitset) grown(words int) bitset {
	w := make(bitset, words)
	copy(w, s)
	return w
}
