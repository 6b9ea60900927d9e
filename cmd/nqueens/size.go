package main

import (
	"errors"
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

// parseSizeMax reads s as parseSize does, but a size past max, however written (1e10,
// past nqueens.MaxN, included), is reported by over, not as an error: the command
// refuses it with its own limit (count 1e10 says "at most 29", the counter's, not
// 2^31−1), quoting s (tooLarge).
func parseSizeMax(s string, max int) (n int, over bool, err error) {
	n, err = nqueens.ParseSize(s)
	var se *nqueens.SizeError
	switch {
	case errors.As(err, &se) && se.N > se.Max, err == nil && n > max:
		return 0, true, nil
	case err != nil:
		return 0, false, usageError{err}
	}
	return n, false, nil
}

// tooLarge is the refusal of the board size s, past the limit max of what: "board size
// "1e10" is too large for the counter (at most 29)".
func tooLarge(s string, max int, what string) error {
	return usageError{&nqueens.SizeError{N: max + 1, Min: 1, Max: max, What: what, Given: s}}
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
