package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestLazyBar: nothing before progressDelay; then the share done and no raw numbers
// (the counters' units are cost estimates, meaningless to a reader); nothing when hidden.
func TestLazyBar(t *testing.T) {
	var buf bytes.Buffer
	b := newLazyBar(&buf, true, "counting", progressDelay)
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
	b = newLazyBar(&buf, false, "counting", progressDelay)
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
	now := defaultSettings()
	now.progressDelay = 0
	for _, args := range [][]string{{"list", "12", "--progress"}, {"list", "12", "--progress", "--format", "board"},
		{"list", "13", "--progress", "--unique", "--json"}} {
		code, out, errs := runCLIWith(t, now, "", args...)
		if code != 0 || !strings.Contains(errs, "listing") {
			t.Errorf("%v: exit %d, stderr %q: want a bar", args, code, errs)
		}
		if n, err := readAll(strings.NewReader(out)); err != nil || len(n) == 0 {
			t.Errorf("%v: the output is no listing: %v", args, err)
		}
	}
}

// screen is what a terminal shows of the last line of s: each carriage return goes back
// to the start of the line, and what follows overwrites what was there.
func screen(s string) string {
	s = strings.TrimSuffix(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	var line []rune
	for _, seg := range strings.Split(s, "\r") {
		r := []rune(seg)
		if len(r) > len(line) {
			line = append(line, make([]rune, len(r)-len(line))...)
		}
		copy(line, r)
	}
	return strings.TrimRight(string(line), " \x00")
}

// TestLazyBarInterrupted: a bar that stops short of 100% (Ctrl-C) is erased by finish,
// so that the partial line is printed where the bar stood.
func TestLazyBarInterrupted(t *testing.T) {
	var buf bytes.Buffer
	b := newLazyBar(&buf, true, "counting", progressDelay)
	b.start = time.Now().Add(-2 * progressDelay)
	b.update(28, 100)
	if !strings.Contains(screen(buf.String()), "counting") {
		t.Fatalf("no bar shown: %q", buf.String())
	}
	b.finish()
	if got := screen(buf.String()); got != "" {
		t.Errorf("the bar stays on the line after finish: %q", got)
	}
}

// TestInterruptedBarErased: Ctrl-C on a command with a bar (list, complete --count)
// leaves its message on a clean line, not after the bar.
func TestInterruptedBarErased(t *testing.T) {
	now := defaultSettings()
	now.progressDelay = 0
	for _, args := range [][]string{{"list", "17", "--progress", "-w", "1"}, {"complete", "18", "--fix", "1:1", "--count", "--progress"}} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(2*time.Second, cancel)
		var out, errb bytes.Buffer
		code := runWith(ctx, strings.NewReader(""), &out, &errb, args, now)
		cancel()
		if code != exitInterrupted {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
		last := screen(lines[len(lines)-1])
		if !strings.HasPrefix(last, "nqueens: interrupted") && !strings.HasPrefix(last, "n=") {
			t.Errorf("%v: the last line on stderr shows %q, want the message alone", args, last)
		}
	}
}

// TestLazyBarAtZero: a run that has not done a percent after progressDelay shows its bar
// all the same (the library's bar draws itself only when the percentage changes).
func TestLazyBarAtZero(t *testing.T) {
	var buf bytes.Buffer
	b := newLazyBar(&buf, true, "counting", progressDelay)
	b.start = time.Now().Add(-2 * progressDelay)
	b.update(3, 1000)
	if got := screen(buf.String()); !strings.Contains(got, "counting") || !strings.Contains(got, "0%") {
		t.Errorf("no bar at 0%%: %q", got)
	}
	b.finish()
}
