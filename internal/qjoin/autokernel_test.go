package qjoin

import (
	"testing"
	"time"
)

// TestChooseKernel: the widest kernel is kept unless another one is at
// least autoMargin times faster in its best round; the slowest round of a
// kernel (a busy moment) does not count.
func TestChooseKernel(t *testing.T) {
	ks := []Kernel{KernelAVX512, KernelAVX2, KernelGo}
	cases := []struct {
		name  string
		times map[Kernel][]time.Duration // per round
		want  Kernel
	}{
		{"widest fastest", map[Kernel][]time.Duration{KernelAVX512: {10, 10, 10}, KernelAVX2: {20, 20, 20}, KernelGo: {80, 80, 80}}, KernelAVX512},
		{"vector unit slow", map[Kernel][]time.Duration{KernelAVX512: {300, 310, 305}, KernelAVX2: {500, 480, 490}, KernelGo: {100, 101, 99}}, KernelGo},
		{"a little faster is not enough", map[Kernel][]time.Duration{KernelAVX512: {100, 100, 100}, KernelAVX2: {80, 80, 80}, KernelGo: {300, 300, 300}}, KernelAVX512},
		{"margin reached", map[Kernel][]time.Duration{KernelAVX512: {150, 150, 150}, KernelAVX2: {100, 100, 100}, KernelGo: {300, 300, 300}}, KernelAVX2},
		{"one busy round", map[Kernel][]time.Duration{KernelAVX512: {900, 10, 10}, KernelAVX2: {20, 20, 20}, KernelGo: {80, 80, 80}}, KernelAVX512},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			round := map[Kernel]int{}
			got := chooseKernel(ks, func(k Kernel) time.Duration {
				d := c.times[k][round[k]]
				round[k]++
				return d
			})
			if got != c.want {
				t.Errorf("chose %v, want %v", got, c.want)
			}
			for _, k := range ks {
				if round[k] != 3 {
					t.Errorf("%v timed %d times, want 3", k, round[k])
				}
			}
		})
	}
	if got := chooseKernel([]Kernel{KernelGo}, func(Kernel) time.Duration { t.Fatal("timed a lone kernel"); return 0 }); got != KernelGo {
		t.Errorf("a lone kernel: chose %v", got)
	}
}

// TestAutoKernel: KernelAuto resolves to the kernel chosen by timing, which
// this CPU runs, whatever the environment says (only the command reads
// NQUEENS_KERNEL), and the timing's work is a real count (the same for
// every kernel).
func TestAutoKernel(t *testing.T) {
	t.Setenv("NQUEENS_KERNEL", "nope")
	k, err := KernelAuto.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if k != AutoKernel() || k == KernelAuto || !k.Available() {
		t.Errorf("KernelAuto resolves to %v, AutoKernel is %v (available: %v)", k, AutoKernel(), k.Available())
	}
	_, want := kernelWork(KernelGo)
	if want == 0 {
		t.Fatal("the timing's work counts nothing")
	}
	for _, k := range availableKernels() {
		d, c := kernelWork(k)
		if d <= 0 || c != want {
			t.Errorf("kernel %v: timed at %v, counted %d (the Go kernel %d)", k, d, c, want)
		}
		t.Logf("%v: %v", k, d)
	}
}
