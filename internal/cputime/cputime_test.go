package cputime

import (
	"testing"
	"time"
)

// TestSince: a busy loop is counted, a sleep is not (where the system gives CPU time).
func TestSince(t *testing.T) {
	if !Available() {
		t.Skip("no CPU time here")
	}
	start := Now()
	time.Sleep(50 * time.Millisecond)
	if d := Since(start); d > 20*time.Millisecond {
		t.Errorf("a sleep of 50 ms took %v of CPU", d)
	}
	start, wall := Now(), time.Now()
	x := 0
	for time.Since(wall) < 30*time.Millisecond {
		x++
	}
	if d := Since(start); d < 5*time.Millisecond || x == 0 {
		t.Errorf("a busy loop of 30 ms took %v of CPU", d)
	}
}
