package nqueens_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/conformance"
)

// sizeKind is the kind of a ParseSize error, in the words of conformance.SizeCases.
func sizeKind(err error) string {
	var pe *nqueens.ParseError
	var se *nqueens.SizeError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &pe):
		return "syntax"
	case errors.As(err, &se) && se.N < se.Min:
		return "small"
	case errors.As(err, &se):
		return "large"
	}
	return "other: " + err.Error()
}

// TestParseSize: the grammar of board sizes, on the table the command and the web board
// are tested with too.
func TestParseSize(t *testing.T) {
	for _, c := range conformance.SizeCases {
		n, err := nqueens.ParseSize(c.In)
		if n != c.N || sizeKind(err) != c.Err {
			t.Errorf("ParseSize(%q) = %d, %v (%s); want %d, %q", c.In, n, err, sizeKind(err), c.N, c.Err)
		}
	}
}

// FuzzParseSize: ParseSize never panics; what it accepts is in range and reads back the
// same from its plain form; what it refuses is a *ParseError or a *SizeError.
func FuzzParseSize(f *testing.F) {
	for _, c := range conformance.SizeCases {
		f.Add(c.In)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := nqueens.ParseSize(s)
		if k := sizeKind(err); k != "" && k != "syntax" && k != "small" && k != "large" {
			t.Fatalf("%q: %v", s, err)
		}
		if err != nil {
			return
		}
		if n < 1 || n > nqueens.MaxN {
			t.Fatalf("%q → %d out of range", s, n)
		}
		if m, err := nqueens.ParseSize(strconv.Itoa(n)); err != nil || m != n {
			t.Fatalf("%q → %d → %d, %v", s, n, m, err)
		}
	})
}
