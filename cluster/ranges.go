package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ranges is a set of sub-problem ids stored as sorted, disjoint, inclusive
// ranges [lo, hi]: compact when the ids are mostly consecutive, and no bigger
// than a list when they are not. In JSON it is the string "0-4,9,12-15".
type ranges [][2]int

// MarshalJSON spells r as a JSON string (see String).
func (r ranges) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// UnmarshalJSON reads the spelling of MarshalJSON. It checks the syntax
// only; the order and bounds are checked against the plan by the readers.
func (r *ranges) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New("ids: want a string such as \"0-4,9\"")
	}
	out := ranges{}
	if s != "" {
		for _, part := range strings.Split(s, ",") {
			los, his, isRange := strings.Cut(part, "-")
			lo, err1 := strconv.Atoi(los)
			hi, err2 := lo, error(nil)
			if isRange {
				hi, err2 = strconv.Atoi(his)
			}
			if err1 != nil || err2 != nil || lo < 0 || hi < 0 {
				return fmt.Errorf("ids: bad range %q", part)
			}
			out = append(out, [2]int{lo, hi})
		}
	}
	*r = out
	return nil
}

// rangesOf returns the set of the given ids (in any order, duplicates allowed).
func rangesOf(ids []int) ranges {
	s := slices.Clone(ids)
	slices.Sort(s)
	s = slices.Compact(s)
	r := ranges{}
	for _, id := range s {
		if k := len(r) - 1; k >= 0 && r[k][1] == id-1 {
			r[k][1] = id
			continue
		}
		r = append(r, [2]int{id, id})
	}
	return r
}

// bitset is a set of sub-problem ids, a bit each (plans have up to 155
// million sub-problems at n = 29: 19 MB).
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) has(i int) bool { return b[i>>6]>>uint(i&63)&1 != 0 }
func (b bitset) add(i int)      { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) addRanges(r ranges) {
	for _, x := range r {
		for id := x[0]; id <= x[1]; id++ {
			b.add(id)
		}
	}
}

// ranges returns the ids of b, up to n.
func (b bitset) ranges(n int) ranges {
	r := ranges{}
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			id := w*64 + bits.TrailingZeros64(word)
			if id >= n {
				break
			}
			if k := len(r) - 1; k >= 0 && r[k][1] == id-1 {
				r[k][1] = id
				continue
			}
			r = append(r, [2]int{id, id})
		}
	}
	return r
}

// IDs lists the ids of the set in increasing order.
func (r ranges) IDs() []int {
	ids := make([]int, 0, r.Len())
	for _, x := range r {
		for id := x[0]; id <= x[1]; id++ {
			ids = append(ids, id)
		}
	}
	return ids
}

// Len is the number of ids in the set.
func (r ranges) Len() int {
	n := 0
	for _, x := range r {
		n += x[1] - x[0] + 1
	}
	return n
}

// Equal tells whether r and s hold the same ids (both must be valid).
func (r ranges) Equal(s ranges) bool {
	return slices.Equal(r, s)
}

// check reports whether r is well formed: ranges inside 0..subs-1, each with
// lo ≤ hi, increasing, disjoint and not adjacent (so that each set has one
// spelling).
func (r ranges) check(subs int) error {
	prev := -2
	for _, x := range r {
		lo, hi := x[0], x[1]
		switch {
		case lo < 0 || hi >= subs:
			return fmt.Errorf("id range %d..%d outside 0..%d", lo, hi, subs-1)
		case lo > hi:
			return fmt.Errorf("id range %d..%d is reversed", lo, hi)
		case lo <= prev+1:
			return fmt.Errorf("id range %d..%d overlaps or touches the one before", lo, hi)
		}
		prev = hi
	}
	return nil
}

// String spells the set as "0-4,9,12-15".
func (r ranges) String() string {
	b := []byte{}
	for i, x := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", x[0])
		if x[1] != x[0] {
			b = fmt.Appendf(b, "-%d", x[1])
		}
	}
	return string(b)
}

// Contains tells whether id is in r (sorted and disjoint).
func (r ranges) Contains(id int) bool {
	i := sort.Search(len(r), func(i int) bool { return r[i][1] >= id })
	return i < len(r) && r[i][0] <= id
}
