package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

// TestLazyBar: nothing before progressDelay; then the share done and no raw numbers
// (the counters' units are cost estimates, meaningless to a reader); nothing when hidden.
func TestLazyBar(t *testing.T) {
	var buf bytes.Buffer
	b := newLazyBar(&buf, true, "counting")
	b.update(1, 4)
	if buf.Len() != 0 {
		t.Fatalf("a bar before %v: %q", progressDelay, buf.String())
	}
	b.start = time.Now().Add(-2 * progressDelay)
	b.update(544097113, 1088194226)
	b.finish()
	out := buf.String()
	if !strings.Contains(out, "counting") || !strings.Contains(out, "50%") {
		t.Errorf("no share done in %q", out)
	}
	if strings.Contains(out, "544097113") || strings.Contains(out, "1088194226") {
		t.Errorf("raw work units shown: %q", out)
	}

	buf.Reset()
	b = newLazyBar(&buf, false, "counting")
	b.start = time.Now().Add(-2 * progressDelay)
	b.update(1, 2)
	b.finish()
	if buf.Len() != 0 {
		t.Errorf("a hidden bar printed %q", buf.String())
	}
}

// TestListProgress: list's bar follows the library's progress hook (the solutions
// written against the published count), in every format, not the lines of its output.
func TestListProgress(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	for _, args := range [][]string{{"list", "12", "--progress"}, {"list", "12", "--progress", "--format", "board"},
		{"list", "13", "--progress", "--unique", "--json"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(errs, "listing") {
			t.Errorf("%v: exit %d, stderr %q: want a bar", args, code, errs)
		}
		if n, err := nqueens.ReadPlacements(strings.NewReader(out)); err != nil || len(n) == 0 {
			t.Errorf("%v: the output is no listing: %v", args, err)
		}
	}
}
