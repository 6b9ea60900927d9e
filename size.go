package nqueens

import (
	"fmt"
	"math/big"
	"strings"
)

// ParseSize reads a board size n as people write it; the command and the web board read
// every n with it. The grammar:
//
//	size     = [ "+" ] mantissa [ exponent ]
//	mantissa = digits [ "." [ digits ] ]
//	exponent = ( "e" | "E" ) [ "+" ] digits
//	digits   = digit { [ "_" ] digit }
//
// that is a whole number in decimal, with _ between digits if wanted ("1_000_000"), or in
// exact scientific notation ("1e6", "2.5e3", "1E+6"), whose value is a whole number from 1
// to MaxN. Nothing else: no spaces, no fraction ("1.5", "1e-3"), no hexadecimal.
//
// Text that is not such a number is a *ParseError; a number outside 1..MaxN, a minus
// sign included ("-5", "0", "3e9"), a *SizeError whose Given is s.
func ParseSize(s string) (int, error) {
	t, neg := s, false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t, neg = t[1:], t[0] == '-'
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	whole, frac, hasDot := strings.Cut(mant, ".")
	exp = strings.TrimPrefix(exp, "+")
	if !digits(whole) || (hasDot && frac != "" && !digits(frac)) || (hasExp && !digits(exp)) {
		return 0, &ParseError{Msg: fmt.Sprintf("invalid board size %q: want a whole number such as 12 or 1e6", s)}
	}
	whole, frac, exp = strings.ReplaceAll(whole, "_", ""), strings.TrimRight(strings.ReplaceAll(frac, "_", ""), "0"), strings.ReplaceAll(exp, "_", "")
	tooLarge := &SizeError{N: MaxN + 1, Min: 1, Max: MaxN, What: "any board", Given: s}
	if neg {
		tooLarge.N = 0 // a negative number: below 1, however large
	}
	// The exponent, less the digits of the fraction, scales the digits; past 3 digits of
	// exponent no mantissa brings it back within MaxN (a fraction of a thousand digits
	// read as one more error below).
	e := 0
	for _, c := range strings.TrimLeft(exp, "0") {
		if e = 10*e + int(c-'0'); e > 1000 {
			return 0, tooLarge
		}
	}
	shift := e - len(frac)
	if shift < 0 {
		return 0, &ParseError{Msg: fmt.Sprintf("invalid board size %q: not a whole number", s)}
	}
	var v, ten big.Int
	v.SetString(whole+frac, 10)
	v.Mul(&v, ten.Exp(big.NewInt(10), big.NewInt(int64(shift)), nil))
	switch {
	case neg || v.Sign() == 0:
		return 0, &SizeError{N: 0, Min: 1, Max: MaxN, What: "any board", Given: s}
	case !v.IsInt64() || v.Int64() > MaxN:
		return 0, tooLarge
	}
	return int(v.Int64()), nil
}

// digits reports whether s is digits with single underscores between them.
func digits(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
