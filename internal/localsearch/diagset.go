package localsearch

// diagSet counts queens per diagonal in a bitset plus a small overflow map.
//
// The bit of diagonal x says "at least one queen"; over[x] holds the queens beyond the first.
// In the initial search only the bits are used (placed queens never share a diagonal). In
// the final search every queen is counted, but only the k ≈ 30 unplaced queens and the
// few rows they are swapped with can share diagonals, so the map stays tiny: half a byte
// per queen in all instead of the 8 bytes of two int32 counter arrays.
type diagSet struct {
	bits []uint64
	over map[int]int32
}

func (s *diagSet) reset() {
	clear(s.bits)
	clear(s.over)
}

func (s *diagSet) add(x int) {
	w, b := x>>6, uint64(1)<<(x&63)
	if s.bits[w]&b == 0 {
		s.bits[w] |= b
		return
	}
	if s.over == nil {
		s.over = make(map[int]int32)
	}
	s.over[x]++
}

func (s *diagSet) remove(x int) {
	if v, ok := s.over[x]; ok {
		if v == 1 {
			delete(s.over, x)
		} else {
			s.over[x] = v - 1
		}
		return
	}
	s.bits[x>>6] &^= uint64(1) << (x & 63)
}

// has reports whether diagonal x holds at least one queen.
func (s *diagSet) has(x int) bool { return s.bits[x>>6]>>(x&63)&1 != 0 }

func (s *diagSet) count(x int) int {
	if !s.has(x) {
		return 0
	}
	return 1 + int(s.over[x])
}

// clean reports whether no diagonal holds two queens.
func (s *diagSet) clean() bool { return len(s.over) == 0 }
