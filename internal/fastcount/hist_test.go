package fastcount

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestJoinSpeed(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("JN"))
	if n == 0 {
		t.Skip()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	never := func() bool { return false }
	p, _ := NewPlan(n)
	orients := map[string]func(n int, qs []square) []square{
		"heur": orient,
		"canon": func(n int, qs []square) []square { return qs },
		"flipheur": func(n int, qs []square) []square { return flipQueens(n, orient(n, qs)) },
	}
	for name, of := range orients {
		for _, dh := range []int{0, 1} {
			j := newJoiner(n)
			t0 := cpuNow()
			var tot, nodes uint64
			for _, s := range p.Subs {
				qs := of(n, s.queens(n))
				m := n - len(qs)
				h := min(max(1, m/2+dh), m-1)
				c, nd, _ := j.joinCount(n, qs, h, never)
				tot += c
				nodes += nd
			}
			t.Logf("n=%d %s dh=%d: %d nodes %d cpu %v", n, name, dh, tot, nodes, cpuNow()-t0)
		}
	}
}
