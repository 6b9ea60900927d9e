package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
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

// TestListProgress: the listing's bar counts solutions by their lines, whatever the
// chunks the writes come in, and passes every byte through.
func TestListProgress(t *testing.T) {
	var out, bar bytes.Buffer
	p := &listProgress{w: &out, lines: 5, total: 10, bar: newLazyBar(&bar, true, "listing")}
	p.bar.start = time.Now().Add(-2 * progressDelay)
	board := ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n" // one solution of n = 4: 5 lines
	all := strings.Repeat(board, 3)
	for _, part := range []string{all[:7], all[7:30], all[30:]} { // cut inside solutions
		if n, err := p.Write([]byte(part)); n != len(part) || err != nil {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	p.bar.finish()
	if out.String() != all {
		t.Errorf("output changed: %q", out.String())
	}
	if p.seen != 15 || !strings.Contains(bar.String(), "30%") {
		t.Errorf("%d lines seen, bar %q: want 3 of 10 solutions", p.seen, bar.String())
	}
}
