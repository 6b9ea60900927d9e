package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/conformance"
)

// TestSizeGrammar: the command reads board sizes, as arguments and as flags, with the one
// grammar of nqueens.ParseSize, on the table the library and the web board are tested
// with; what it refuses is a usage error (exit 2) that quotes the size.
func TestSizeGrammar(t *testing.T) {
	for _, c := range conformance.SizeCases {
		for _, read := range []func(string) (int, error){parseSize, func(s string) (int, error) { return flagSize("to", s) }} {
			n, err := read(c.In)
			var ue usageError
			switch {
			case c.Err == "" && (err != nil || n != c.N):
				t.Errorf("%q: %d, %v; want %d", c.In, n, err, c.N)
			case c.Err != "" && (err == nil || !errors.As(err, &ue)):
				t.Errorf("%q: %d, %v; want a usage error (%s)", c.In, n, err, c.Err)
			}
		}
	}
	// Through the command line: the size of an argument, and of a flag.
	for _, args := range [][]string{{"plan", "1.2e1"}, {"lab", "localsearch", "--from", "+5", "--to", "5e0", "--json", "--seed", "1"}} {
		if code, out, errs := runCLI(t, "", args...); code != 0 || !strings.Contains(out, "12") && !strings.Contains(out, `"n":5`) {
			t.Errorf("%v: exit %d %s %s", args, code, out, errs)
		}
	}
}
