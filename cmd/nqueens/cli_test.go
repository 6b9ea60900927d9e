package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// What a user sees at the command line: flags that exclude each other, the one summary
// line, empty answers, counters that are zero, help written to a full disk.

// TestListNoSolution: a board without solution lists nothing and says so with
// solutions=0, exit 0, as count does; solve, asked for a placement, still fails (exit 1).
func TestListNoSolution(t *testing.T) {
	for _, n := range []string{"2", "3"} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"list", n}, "n=" + n + " solutions=0 verified=true seconds=X\n"},
			{[]string{"list", n, "--json"}, "n=" + n + " solutions=0 verified=true seconds=X\n"},
			{[]string{"list", n, "--unique", "--format", "board"}, "n=" + n + " unique=0 total=0 verified=true seconds=X\n"},
		} {
			code, out, errs := runCLI(t, "", c.args...)
			if code != 0 || out != "" || normalize(errs) != c.want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, nothing, %q", c.args, code, out, errs, c.want)
			}
		}
		code, out, errs := runCLI(t, "", "count", n)
		if code != 0 || !strings.HasPrefix(out, "n="+n+" total=0 unique=0 ") {
			t.Errorf("count %s: exit %d %q %q", n, code, out, errs)
		}
		code, out, errs = runCLI(t, "", "solve", n)
		if code != exitFailure || out != "" || errs != "nqueens: n = "+n+": no solution exists\n" {
			t.Errorf("solve %s: exit %d, %q %q; want exit 1, no solution exists", n, code, out, errs)
		}
	}
}

// TestHelpToFullDisk: help that cannot be written is a failed write, exit 1 as for
// every other output, not a usage error.
func TestHelpToFullDisk(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {}, {"solve", "--help"}, {"help", "list"}, {"lab"}, {"lab", "backtrack", "-h"}} {
		var errb bytes.Buffer
		code := run(context.Background(), strings.NewReader(""), &failWriter{}, &errb, args)
		if code != exitFailure || errb.String() != "nqueens: write to stdout: no space left on device\n" {
			t.Errorf("%v > full disk: exit %d, stderr %q; want exit 1", args, code, errb.String())
		}
	}
	// A usage error stays one, whatever stdout is.
	var errb bytes.Buffer
	if code := run(context.Background(), strings.NewReader(""), &failWriter{}, &errb, []string{"frobnicate"}); code != exitUsage {
		t.Errorf("unknown command > full disk: exit %d, %q", code, errb.String())
	}
}
