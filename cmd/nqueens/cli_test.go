package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// What a user sees at the command line: flags that exclude each other, the one summary
// line, empty answers, counters that are zero, help written to a full disk.

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
