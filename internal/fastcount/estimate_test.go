package fastcount

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/qjoin"
)

// TestCalibrationAt: a stored ratio is used where measured, interpolated geometrically
// between two measured n, the smallest's below them, and beyond the largest continued
// by the other calibration's steps.
func TestCalibrationAt(t *testing.T) {
	a := &calibration{ratio: map[int]float64{20: 1, 22: 4, 24: 2}}
	b := &calibration{ratio: map[int]float64{23: 1, 25: 3, 26: 6}}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	for _, c := range []struct {
		c, other *calibration
		n        int
		want     float64
		how      string
	}{
		{a, b, 22, 4, "measured"},
		{a, b, 21, 2, "interpolated"},                    // √(1·4)
		{a, b, 16, 1, "extrapolated"},                    // the smallest's
		{a, b, 25, 2 * 3 / math.Sqrt(3), "extrapolated"}, // 2 × b(25)/b(24), b(24) = √3
		{a, nil, 25, 2, "extrapolated"},                  // no other: the largest's
		{b, a, 24, math.Sqrt(3), "interpolated"},
	} {
		got, how := c.c.at(c.n, c.other)
		if !near(got, c.want) || how != c.how {
			t.Errorf("at(%d) = %v, %s; want %v, %s", c.n, got, how, c.want, c.how)
		}
	}
	// The stored ones: positive everywhere, measured where they say.
	for _, c := range calibrations {
		for n := qjoin.MinN; n <= MaxN; n++ {
			if r, _ := c.at(n, &calibrations[c.steps]); !(r > 0.3 && r < 10) {
				t.Errorf("%s: ratio %v at n=%d", c.name, r, n)
			}
		}
	}
}

// TestStoredEstimate: the stored calibration of this CPU's vendor, or the other one
// named as such; the kernel's mismatch said; seconds = costs × unit × ratio.
func TestStoredEstimate(t *testing.T) {
	p, err := NewPlanContext(context.Background(), 20, EngineAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, vendor := range []string{"GenuineIntel", "AuthenticAMD", "HygonGenuine"} {
		e := p.storedEstimate(vendor, 26, qjoin.KernelAVX512)
		c := calibrations[0]
		if vendor != "GenuineIntel" {
			c = calibrations[1]
		}
		r, _ := c.at(20, nil)
		if r2, _ := c.at(20, &calibrations[0]); vendor != "GenuineIntel" {
			r = r2
		}
		want := float64(p.TotalCost) * p.CostUnit() * r / 1e9
		if math.Abs(e.Seconds-want) > 1e-9*want || !strings.Contains(e.Calibration, c.name) {
			t.Errorf("%s: %v s by %q; want %v s by %q", vendor, e.Seconds, e.Calibration, want, c.name)
		}
		if strings.Contains(e.Calibration, "none stored for this CPU") != (vendor == "HygonGenuine") {
			t.Errorf("%s: %q", vendor, e.Calibration)
		}
		if strings.Contains(e.Calibration, "calibrate here") {
			t.Errorf("%s with the AVX-512 kernel: %q", vendor, e.Calibration)
		}
	}
	// Another kernel than the calibration's: scaled by the middle of its measured range,
	// which the estimate gives, and said.
	base := p.storedEstimate("GenuineIntel", 6, qjoin.KernelAVX512)
	if base.Low != base.Seconds || base.High != base.Seconds {
		t.Errorf("the calibration's own kernel has a range: %v %v %v", base.Low, base.Seconds, base.High)
	}
	for _, k := range []qjoin.Kernel{qjoin.KernelAVX2, qjoin.KernelGo} {
		f := kernelFactors[k]
		e := p.storedEstimate("GenuineIntel", 6, k)
		mid := math.Sqrt(f.low * f.high)
		if !(f.low > 1 && f.high > f.low) || math.Abs(e.Low-base.Seconds*f.low) > 1e-9*e.Low || math.Abs(e.High-base.Seconds*f.high) > 1e-9*e.High ||
			math.Abs(e.Seconds-base.Seconds*mid) > 1e-9*e.Seconds || math.Abs(e.PerCost-base.PerCost*mid) > 1e-9*e.PerCost ||
			!strings.Contains(e.Calibration, "this machine runs the "+k.String()+" kernel") || !strings.Contains(e.Calibration, "--calibrate measures here") {
			t.Errorf("the %v kernel: %v (%v to %v) s, %q; the AVX-512 figure %v s", k, e.Seconds, e.Low, e.High, e.Calibration, base.Seconds)
		}
	}
}

// TestPick: a CPU takes the calibration made on its family with the kernel it runs,
// else its vendor's of any family, else the AMD one, said to be for another CPU; and
// an estimate says which.
func TestPick(t *testing.T) {
	p, err := NewPlanContext(context.Background(), 28, EngineAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		vendor string
		family int
		kern   qjoin.Kernel
		want   string // in the calibration's name
		ok     bool
	}{
		{"GenuineIntel", 6, qjoin.KernelAVX512, "Intel Xeon", true},
		{"GenuineIntel", 6, qjoin.KernelAVX2, "Intel Xeon", true},
		{"AuthenticAMD", 26, qjoin.KernelAVX512, "Zen 5", true},
		{"AuthenticAMD", 25, qjoin.KernelAVX512, "Zen 4", true},
		{"AuthenticAMD", 25, qjoin.KernelAVX2, "Zen 5", true}, // Zen 3: no AVX-512
		{"AuthenticAMD", 23, qjoin.KernelAVX2, "Zen 5", true},
		{"HygonGenuine", 24, qjoin.KernelAVX2, "Zen 5", false},
		{"", 0, qjoin.KernelGo, "Zen 5", false},
	} {
		cal, steps, ok := pick(c.vendor, c.family, c.kern)
		if !strings.Contains(cal.name, c.want) || ok != c.ok || steps == cal {
			t.Errorf("%s family %d %v: %q (steps of %q), %v; want %s, %v", c.vendor, c.family, c.kern, cal.name, steps.name, ok, c.want, c.ok)
		}
		e := p.storedEstimate(c.vendor, c.family, c.kern)
		if !strings.Contains(e.Calibration, c.want) || strings.Contains(e.Calibration, "none stored") == c.ok {
			t.Errorf("%s family %d %v: %q", c.vendor, c.family, c.kern, e.Calibration)
		}
	}
	// This machine's family read, where /proc/cpuinfo is.
	if v, f := cpuID(); v != "" && f == 0 {
		t.Errorf("cpuID: vendor %q, family 0", v)
	}
}

// TestSampledEstimate: a sample counts sub-problems of the plan (at least one, each
// once) and scales their CPU time by the costs.
func TestSampledEstimate(t *testing.T) {
	p, err := NewPlanContext(context.Background(), 15, EngineAuto)
	if err != nil {
		t.Fatal(err)
	}
	e, err := p.Estimate(context.Background(), qjoin.KernelAuto, time.Nanosecond, 1, nil)
	if err != nil || e.Sampled < 1 || !(e.Seconds > 0) || !strings.HasPrefix(e.Calibration, "here: ") {
		t.Fatalf("a sample of 1 ns: %+v, %v", e, err)
	}
	calls := 0
	e, err = p.Estimate(context.Background(), qjoin.KernelAuto, time.Hour, 2, func(time.Duration) { calls++ })
	if err != nil || e.Sampled != p.Len()-2-1 || calls == 0 { // every row set once, but the warm-up
		t.Errorf("a sample of an hour: %d of %d sub-problems, %d progress calls, %v", e.Sampled, p.Len(), calls, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Estimate(ctx, qjoin.KernelAuto, time.Second, 1, nil); err == nil {
		t.Error("a cancelled sample: no error")
	}
}
