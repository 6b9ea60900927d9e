package main

import (
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
)

// parseSize reads a board size with nqueens.ParseSize (plain integers, 1_000_000, exact
// scientific notation such as 1e6 or 2.5e3); a size it refuses is a usage error.
func parseSize(s string) (int, error) {
	n, err := nqueens.ParseSize(s)
	if err != nil {
		return 0, usageError{err}
	}
	return n, nil
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
