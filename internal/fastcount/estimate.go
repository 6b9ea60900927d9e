package fastcount

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/internal/cputime"
	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/qjoin"
)

// Estimate is the CPU time a count of a plan takes on some machine: the
// plan's modelled time (its costs times the cost unit, which the model
// gives in nanoseconds of the machines it was fitted on) times the ratio of
// measured to modelled time that a calibration found for this n.
type Estimate struct {
	// Seconds is the CPU time of the whole count, summed over the cores.
	// Low and High bound it where the calibration was measured with another
	// kernel than the one a count here runs (kernelFactors); else they are
	// Seconds.
	Seconds, Low, High float64
	// PerCost is the CPU seconds of one unit of the plan's cost: a shard
	// of cost c takes c × PerCost.
	PerCost float64
	// Calibration says where the ratio comes from, in words.
	Calibration string
	// Kernel is the matcher kernel a count here runs, the one the
	// calibration is for ("" for the constellations, n ≤ 9).
	Kernel string
	// Sampled is the number of sub-problems counted here to calibrate (0:
	// a stored calibration).
	Sampled int
}

// calibration is a stored set of measured-to-modelled ratios, by n, of
// one kind of CPU and kernel.
type calibration struct {
	name   string // the machine, the kernel and the date
	vendor string // /proc/cpuinfo's vendor_id it is chosen for
	// family, if not 0, is the "cpu family" it is chosen for, and then
	// only where its kernel runs (pick); 0: any other of the vendor.
	family int
	kernel qjoin.Kernel
	ratio  map[int]float64 // measured CPU time over modelled time, by n
	// steps is the index of the calibration whose steps continue this one
	// beyond its largest n.
	steps int
}

// The stored calibrations: whole counts (n ≤ 22) and sampled shards (the
// CPU time of a few shards of a large K, scaled by the plan's cost, as
// bench/shards.sh does), 2 workers, on 2-core cloud VMs, with the AVX-512
// kernel. Below the smallest n measured the ratio of the smallest holds;
// between two, it is interpolated geometrically; where one machine has no
// figure beyond its largest n, the steps of the other are taken.
var calibrations = []calibration{
	{
		name:   "Intel Xeon (Sapphire Rapids), AVX-512 kernel, 2-core VM, 2026-12-02 (n = 25 to 29: 2026-12-07)",
		vendor: "GenuineIntel",
		kernel: qjoin.KernelAVX512,
		// Whole counts 16–22 (count.sh medians; count -w 2), sampled shards
		// 23 and 24 (3 each, engine qjoin/v2, whose costs equal v3's within
		// 1%). 25 to 28: one shard each of the current engine, 2 workers
		// (2026-12-06): 4242 of 16,384 312.3 s, 4321 of 131,072 278.0 s,
		// 12345 of 10^6 515.9 s, 1234567 of 2^24 473.2 s; the stored
		// ratios had been 1.157, 1.191 (scaled), 1.188 (qjoin/v2) and
		// 1.730 (scaled). 29: the median of 3 shards of qjoin/v3 before
		// the kernels' lanes and runs (2026-12-03, 2.006), divided by what
		// one of them, 27182818 of 2^26, gained since: 1,549.4 -> 1,497.6 s.
		// Then (2026-12-07, the three-way ANDs, the queries prefetched and
		// group's scatter) the same shards again, 2 workers: 252.0 s at 25
		// (1.178 before), 233.3 s at 26 (0.846), 473.4 s at 27 (1.086),
		// 389.5 s at 28 (1.371) and 1,210.2 s at 29 (1.939), each ratio
		// scaled by its shard's CPU now over then.
		ratio: map[int]float64{16: 1.21, 17: 1.105, 18: 0.94, 20: 1.007, 21: 1.021, 22: 1.206,
			23: 1.199, 24: 1.199, 25: 0.951, 26: 0.710, 27: 0.997, 28: 1.128, 29: 1.567},
		steps: 1,
	},
	{
		name:   "AMD EPYC (Zen 5), AVX-512 kernel, 2-core VM, 2026-12-05",
		vendor: "AuthenticAMD",
		kernel: qjoin.KernelAVX512,
		// Sampled shards of engine qjoin/v3 with the kernels' lanes and
		// runs (2026-12-05): n = 25, 26 and 27 one each, 28 two (the
		// slower, which had been the median of three before). 29: one
		// shard of the engine before them (2026-12-02), which took 1.26
		// to 1.46 times today's CPU on the shards of 28: an upper bound.
		// Then (2026-12-05, a later session on the same kind of VM, 1
		// worker, shards counted two at a time, the engine before and
		// after a change side by side): 26 and 28 divided by what more cut
		// lines on a part (cutBeyondFor) gained, on 4321 of 131,072 (270.3
		// against 243.6 s: 0.535 before) and on 1234567 of 2^24, the
		// slower shard (559.1 against 475.3 s: 1.145 before); 29 by the
		// same shard (1 of 2^26) counted by this engine: 1,675.3 s where
		// the stored ratio, 3.085, gave 2,284 s.
		ratio: map[int]float64{25: 0.678, 26: 0.482, 27: 0.697, 28: 0.974, 29: 2.263},
		steps: 0,
	},
	{
		name:   "AMD EPYC (Zen 4, cpu family 25), AVX-512 kernel, 2-core VM, 2026-12-05 (n = 22, 26: 2026-12-07; 25, 27 to 29: 2026-12-08)",
		vendor: "AuthenticAMD",
		family: 25,
		kernel: qjoin.KernelAVX512,
		// The shards of the Zen 5's calibration of n = 25, 26, 27 and 28
		// (15000001, the Zen 5's faster: its ratio scaled by the Zen 5's two),
		// 1 worker, the same engine, the Zen 5's ratios times the CPU time
		// here over there; 29 continued by the Zen 5's step. (Family 25 is
		// Zen 3 too, without AVX-512: it runs the avx2 kernel and takes the
		// Zen 5's calibration, scaled by kernelFactors, measured against it.)
		// 26 and 28 divided by the Zen 5's later gains there, 1.110 and
		// 1.176 (0.918 and 2.032 before). Then (2026-12-07, the chunk tables
		// built as the count meets their groups) 22 counted whole (4,946.8 s
		// of CPU, count -w 2: 1.374 core-hours where 1.750 were priced) and
		// the Intel's shards of 25 to 29, 2 workers (bench/shards.sh): 4242
		// of 16,384 307.1 s, 4321 of 131,072 286.4 s, 12345 of 10^6 597.8 s,
		// 1234567 of 2^24 542.0 s, 27182818 of 2^26 1,650.6 s; each ratio
		// is the one before (29: continued by the Zen 5's step, 4.015)
		// times the shard's core-hours over those it priced. Then
		// (2026-12-08, the prefix kernels of two fields) the same shards of
		// 25, 27, 28 and 29: 270.3 s, 525.5 s, 470.5 s and 1,691.9 s, each
		// ratio scaled the same way (26 and 22 not counted again).
		ratio: map[int]float64{22: 0.933, 25: 1.020, 26: 0.872, 27: 1.106, 28: 1.363, 29: 2.096},
		steps: 1,
	},
}

// pick returns the stored calibration for a CPU of vendor and family that
// runs the kernel kern: one made on its family with kern, else its
// vendor's of any family, else the AMD one (ok false: none for this CPU);
// and the one whose steps continue it.
func pick(vendor string, family int, kern qjoin.Kernel) (c, steps *calibration, ok bool) {
	i, ok := 1, false
	for j, cal := range calibrations {
		switch {
		case cal.vendor != vendor:
		case cal.family == 0 && !ok:
			i, ok = j, true
		case cal.family == family && cal.kernel == kern:
			return &calibrations[j], &calibrations[cal.steps], true
		}
	}
	return &calibrations[i], &calibrations[calibrations[i].steps], ok
}

// A kernelFactor is the CPU a count takes with a kernel, relative to the
// AVX-512 kernel of the stored calibrations: the least and the most ratio
// measured, and where.
type kernelFactor struct {
	low, high float64
	how       string
}

// kernelFactors scale a stored calibration (AVX-512) to the kernel a count
// here runs, as a range: per-solution CPU times measured with each kernel.
//   - avx2: 1.29 on the AMD Zen 5 VM itself (two shards of n = 22 of 512,
//     twice each, avx2 against avx512, the median, 2026-12-04); 3.0 at most
//     on a 2-core AMD Zen 3 VM without AVX-512, whose counts took 1.8 to 3
//     times the Zen 5 figures (issue 38's report): a slower machine as much
//     as a narrower kernel.
//   - go: 2.9 on the Intel Xeon VM (count 17, 2026-12-03) to 4.74 on the Zen 5
//     VM (the same shards of n = 22, the median): the larger n, the larger the
//     kernel's share.
var kernelFactors = map[qjoin.Kernel]kernelFactor{
	qjoin.KernelAVX2: {1.29, 3.0, "the avx2 kernel took 1.29 (AMD Zen 5, n = 22) to 3.0 (an AVX2-only AMD Zen 3) times its CPU"},
	qjoin.KernelGo:   {2.9, 4.74, "the go kernel took 2.9 (Intel Xeon, n = 17) to 4.74 (AMD Zen 5, n = 22) times its CPU"},
}

// at is c's measured-to-modelled ratio at n, and how it was had: measured
// there, interpolated between two n measured, or extrapolated (carried
// below the smallest, continued by other's steps beyond the largest).
func (c *calibration) at(n int, other *calibration) (float64, string) {
	if r, ok := c.ratio[n]; ok {
		return r, "measured"
	}
	lo, hi := 0, 0
	for m := range c.ratio {
		if m < n && m > lo {
			lo = m
		}
		if m > n && (hi == 0 || m < hi) {
			hi = m
		}
	}
	switch {
	case lo == 0: // below every n measured
		return c.ratio[hi], "extrapolated"
	case hi == 0: // beyond: the other machine's steps from lo
		if other != nil {
			a, _ := other.at(lo, nil)
			b, _ := other.at(n, nil)
			return c.ratio[lo] * b / a, "extrapolated"
		}
		return c.ratio[lo], "extrapolated"
	}
	t := float64(n-lo) / float64(hi-lo)
	return math.Exp((1-t)*math.Log(c.ratio[lo]) + t*math.Log(c.ratio[hi])), "interpolated"
}

// cpuID reads the CPU's vendor_id and cpu family from /proc/cpuinfo (""
// and 0 if it cannot).
func cpuID() (vendor string, family int) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "vendor_id":
			if vendor == "" {
				vendor = strings.TrimSpace(v)
			}
		case "cpu family":
			if family == 0 {
				family, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
	}
	return vendor, family
}

// storedEstimate is the estimate of p from the stored calibration of this
// CPU (pick).
func (p *Plan) storedEstimate(vendor string, family int, kern qjoin.Kernel) Estimate {
	c, other, ok := pick(vendor, family, kern)
	r, how := c.at(p.N, other)
	e := Estimate{PerCost: r * p.CostUnit() / 1e9, Kernel: kern.String(),
		Calibration: fmt.Sprintf("stored: %s; n=%d %s", c.name, p.N, how)}
	if !ok {
		e.Calibration += fmt.Sprintf("; none stored for this CPU (%s)", orUnknown(vendor))
	}
	e.Seconds = e.PerCost * float64(p.TotalCost)
	e.Low, e.High = e.Seconds, e.Seconds
	if f, ok := kernelFactors[kern]; ok && kern != c.kernel && c.kernel == qjoin.KernelAVX512 {
		// Scaled to the kernel that runs here, by the geometric middle of its
		// range, which the estimate gives as well.
		mid := math.Sqrt(f.low * f.high)
		e.Low, e.High = e.Seconds*f.low, e.Seconds*f.high
		e.Seconds *= mid
		e.PerCost *= mid
		e.Calibration += fmt.Sprintf("; this machine runs the %v kernel, and %s: scaled by %.2f, range %.2f to %.2f times; --calibrate measures here", kern, f.how, mid, f.low, f.high)
	} else if kern != c.kernel {
		e.Calibration += fmt.Sprintf("; this machine runs the %v kernel: calibrate here", kern)
	}
	return e
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Estimate estimates the CPU time of a count of p with the matcher kernel k
// (KernelAuto: the one a count here picks). With sample 0 it takes
// the stored calibration of this kind of CPU; otherwise it counts
// sub-problems of p here, drawn at random (a generator seeded by the plan
// hash: the same draw on every run), on workers goroutines, until about
// sample of CPU time is spent (at least one sub-problem; from n = 27 one
// takes minutes), and scales their measured CPU time by the plan's costs.
// The constellation plans (n ≤ 9) are counted whole: milliseconds.
// progress, if not nil, is called after each batch with the CPU time so far.
func (p *Plan) Estimate(ctx context.Context, k qjoin.Kernel, sample time.Duration, workers int, progress func(time.Duration)) (Estimate, error) {
	if p.q == nil {
		start := cputime.Now()
		if _, err := p.Count(ctx, Options{Workers: workers}); err != nil {
			return Estimate{}, err
		}
		s := cputime.Since(start).Seconds()
		return Estimate{Seconds: s, Low: s, High: s, PerCost: s / float64(max(p.TotalCost, 1)), Sampled: p.Len(),
			Calibration: fmt.Sprintf("counted here whole (n=%d: border constellations)", p.N)}, nil
	}
	kern, err := k.Resolve()
	if err != nil {
		return Estimate{}, err
	}
	if sample <= 0 {
		vendor, family := cpuID()
		return p.storedEstimate(vendor, family, kern), nil
	}
	h, _ := hex.DecodeString(p.Hash())
	rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h), binary.LittleEndian.Uint64(h[8:])))
	// The row sets' sub-problems (ids from 2), not the two searches, each
	// drawn once.
	rows := p.Len() - 2
	drawn := map[int]bool{}
	draw := func(k int) []int {
		var b []int
		for len(b) < k && len(drawn) < rows {
			i := 2 + rng.IntN(rows)
			if !drawn[i] {
				drawn[i] = true
				b = append(b, i)
			}
		}
		return b
	}
	batch := pool.Default(workers)
	if p.N <= qjoin.TablesMaxN && rows > 1 {
		// The first sub-problem builds the quarter tables, which the whole
		// count builds once: not timed.
		if err := p.CountSubsKernel(ctx, draw(1), workers, kern, nil); err != nil {
			return Estimate{}, err
		}
	}
	var cpu time.Duration
	var modelled float64
	n := 0
	for n == 0 || cpu < sample {
		if n > 0 {
			// Batches as large as the time left allows (a call has its
			// own setup), at most twice the last one.
			per := cpu / time.Duration(n)
			batch = min(2*batch, max(pool.Default(workers), int((sample-cpu)/max(per, 1))))
		}
		b := draw(batch)
		if len(b) == 0 {
			break
		}
		start := cputime.Now()
		if err := p.CountSubsKernel(ctx, b, workers, kern, nil); err != nil {
			return Estimate{}, err
		}
		cpu += cputime.Since(start)
		for _, i := range b {
			modelled += float64(p.Cost(i)) * p.CostUnit() / 1e9
		}
		n += len(b)
		if progress != nil {
			progress(cpu)
		}
	}
	r := cpu.Seconds() / modelled
	e := Estimate{PerCost: r * p.CostUnit() / 1e9, Kernel: kern.String(), Sampled: n,
		Calibration: fmt.Sprintf("here: %d sub-problems drawn by the plan hash, %.1f s of CPU, the %v kernel", n, cpu.Seconds(), kern)}
	e.Seconds = e.PerCost * float64(p.TotalCost)
	e.Low, e.High = e.Seconds, e.Seconds
	return e, nil
}
