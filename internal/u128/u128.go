// Package u128 is the unsigned 128-bit integer that counts of solutions
// are summed in: Q(29) ≈ 3·10^19 and its Burnside numerator are above
// 2^64. The sum of one sub-problem fits a uint64; the sums of many are
// carried in a U128, and written to JSON as plain decimal numbers.
package u128

import (
	"errors"
	"math/big"
	"math/bits"
	"strconv"
)

// U128 is an unsigned 128-bit integer: Hi·2^64 + Lo.
type U128 struct {
	Hi, Lo uint64
}

// From returns x as a U128.
func From(x uint64) U128 { return U128{Lo: x} }

// Add returns a + b, and true if the sum overflowed 128 bits.
func (a U128) Add(b U128) (U128, bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi, c := bits.Add64(a.Hi, b.Hi, c)
	return U128{hi, lo}, c != 0
}

// Add64 returns a + x, and true if the sum overflowed 128 bits.
func (a U128) Add64(x uint64) (U128, bool) { return a.Add(From(x)) }

// Sub returns a - b, and true if b > a.
func (a U128) Sub(b U128) (U128, bool) {
	lo, c := bits.Sub64(a.Lo, b.Lo, 0)
	hi, c := bits.Sub64(a.Hi, b.Hi, c)
	return U128{hi, lo}, c != 0
}

// Div8 is a / 8, and Mod8 a % 8 (the unique count from the Burnside
// numerator).
func (a U128) Div8() U128 { return U128{a.Hi >> 3, a.Lo>>3 | a.Hi<<61} }

// Mod8 is a % 8.
func (a U128) Mod8() uint64 { return a.Lo & 7 }

// IsZero tells whether a is 0.
func (a U128) IsZero() bool { return a.Hi == 0 && a.Lo == 0 }

// Cmp returns -1, 0 or +1 as a is less than, equal to or greater than b.
func (a U128) Cmp(b U128) int {
	switch {
	case a.Hi < b.Hi || a.Hi == b.Hi && a.Lo < b.Lo:
		return -1
	case a == b:
		return 0
	}
	return 1
}

// Uint64 returns a as a uint64, and false if it does not fit.
func (a U128) Uint64() (uint64, bool) { return a.Lo, a.Hi == 0 }

// Big returns a as a big.Int.
func (a U128) Big() *big.Int {
	b := new(big.Int).SetUint64(a.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(a.Lo))
}

// Float64 returns a as the nearest float64.
func (a U128) Float64() float64 { return float64(a.Hi)*(1<<64) + float64(a.Lo) }

// String returns a in decimal.
func (a U128) String() string {
	if a.Hi == 0 {
		return strconv.FormatUint(a.Lo, 10)
	}
	// a = q·10^19 + r by long division, the high word first.
	const ten19 = 10_000_000_000_000_000_000
	hq, hr := a.Hi/ten19, a.Hi%ten19
	q, r := bits.Div64(hr, a.Lo, ten19)
	s := strconv.FormatUint(r, 10)
	return U128{hq, q}.String() + "0000000000000000000"[:19-len(s)] + s
}

// Parse reads a decimal U128.
func Parse(s string) (U128, error) {
	if s == "" || len(s) > 39 {
		return U128{}, errors.New("not a 128-bit unsigned integer")
	}
	var a U128
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return U128{}, errors.New("not a 128-bit unsigned integer")
		}
		// a = 10a + d
		hi, lo := bits.Mul64(a.Lo, 10)
		hi2, lo2 := bits.Mul64(a.Hi, 10)
		if hi2 != 0 {
			return U128{}, errors.New("above 2^128")
		}
		hi, c1 := bits.Add64(hi, lo2, 0)
		if c1 != 0 {
			return U128{}, errors.New("above 2^128")
		}
		var o bool
		if a, o = (U128{hi, lo}).Add64(uint64(c - '0')); o {
			return U128{}, errors.New("above 2^128")
		}
	}
	return a, nil
}

// MarshalJSON writes a as a JSON number.
func (a U128) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalJSON reads a JSON number (a plain decimal integer).
func (a *U128) UnmarshalJSON(b []byte) error {
	x, err := Parse(string(b))
	if err != nil {
		return errors.New("want an unsigned integer below 2^128")
	}
	*a = x
	return nil
}
