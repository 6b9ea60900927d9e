package main

import (
	"strconv"
	"testing"

	"github.com/nqueens/nqueens"
)

// FuzzParseSize: the size parser never panics; what it accepts is in range and reads
// back the same from its plain form.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"12", "1e6", "2.5e3", "1_000", "-1", "1.5", "1e-3", "9e99", "0x1", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err != nil {
			return
		}
		if n < 1 || n > nqueens.MaxN {
			t.Fatalf("%q → %d out of range", s, n)
		}
		if m, err := parseSize(strconv.Itoa(n)); err != nil || m != n {
			t.Fatalf("%q → %d → %d, %v", s, n, m, err)
		}
	})
}
