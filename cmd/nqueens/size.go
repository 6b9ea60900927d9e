package main

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
)

var sciRE = regexp.MustCompile(`^\+?([0-9]+)(?:\.([0-9]*))?(?:[eE]\+?([0-9]+))?$`)

// parseSize reads a board size: a plain integer ("1000000", "1_000_000") or exact
// scientific notation ("1e6", "2.5e3"). Fractions, negative numbers and sizes beyond the
// library's limit are usage errors.
func parseSize(s string) (int, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	m := sciRE.FindStringSubmatch(t)
	if m == nil {
		if strings.HasPrefix(t, "-") {
			return 0, usagef("invalid board size %q: n must be at least 1", s)
		}
		return 0, usagef("invalid board size %q: want a whole number such as 12 or 1e6", s)
	}
	digits, frac, exp := m[1], strings.TrimRight(m[2], "0"), m[3]
	if exp == "" {
		exp = "0"
	}
	if len(exp) > 3 {
		return 0, usagef("board size %q is too large (at most %d)", s, nqueens.MaxN)
	}
	var e big.Int
	e.SetString(exp, 10)
	shift := int(e.Int64()) - len(frac)
	if shift < 0 {
		return 0, usagef("invalid board size %q: not a whole number", s)
	}
	var v, ten big.Int
	v.SetString(digits+frac, 10)
	ten.Exp(big.NewInt(10), big.NewInt(int64(shift)), nil)
	v.Mul(&v, &ten)
	if !v.IsInt64() || v.Int64() > nqueens.MaxN {
		return 0, usagef("board size %q is too large (at most %d)", s, nqueens.MaxN)
	}
	if v.Int64() < 1 {
		return 0, usagef("invalid board size %q: n must be at least 1", s)
	}
	return int(v.Int64()), nil
}

// parseBytes reads a memory size: a number with an optional unit k, M, G or T (powers of
// 1000, an optional trailing B; Ki, Mi, Gi, Ti for powers of 1024): "4G", "500MB", "2GiB".
func parseBytes(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "B")
	mult := 1.0
	units := []struct {
		suffix string
		mult   float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}}
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 || v*mult > 1<<62 {
		return 0, usagef("invalid memory size %q: want e.g. 4G, 500MB or 2GiB", s)
	}
	return int64(v * mult), nil
}
