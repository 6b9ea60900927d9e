package main

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// planJSON runs plan with args and --json and decodes its output.
func planJSON(t *testing.T, args ...string) planOutput {
	t.Helper()
	var out planOutput
	code, stdout, stderr := runCLI(t, "", append(append([]string{"plan"}, args...), "--json")...)
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil {
		t.Fatalf("plan %v: exit %d %q %q", args, code, stdout, stderr)
	}
	return out
}

// TestPlanHours: the estimate's figures add up: the shards' core-hours to the whole,
// the wall time on C cores to the core-hours over C (or the largest shard on its
// workers), the price to the core-hours times the price; a stored calibration is named.
func TestPlanHours(t *testing.T) {
	out := planJSON(t, "16", "--shards", "5", "--cores", "3", "--price", "0.25", "--workers", "2")
	if !(out.CoreHours > 0) || out.Sampled != 0 || !strings.HasPrefix(out.Calibration, "stored: ") {
		t.Fatalf("plan 16: core_hours %v sampled %d calibration %q", out.CoreHours, out.Sampled, out.Calibration)
	}
	var sum, largest float64
	for _, s := range out.Split {
		sum += s.CoreHours
		largest = max(largest, s.CoreHours)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if !near(sum, out.CoreHours) {
		t.Errorf("the shards' core-hours add up to %v, the whole is %v", sum, out.CoreHours)
	}
	if want := max(out.CoreHours/3, largest/2); !near(out.WallHours, want) || out.Cores != 3 {
		t.Errorf("wall_hours %v on %d cores, want %v", out.WallHours, out.Cores, want)
	}
	if !near(out.Price, out.CoreHours*0.25) {
		t.Errorf("price %v, want %v", out.Price, out.CoreHours*0.25)
	}
	// One shard of many: its share of the wall time is its own.
	one := planJSON(t, "16", "--shards", "1", "--cores", "100", "--workers", "2")
	if !near(one.WallHours, one.CoreHours/2) {
		t.Errorf("one shard on 2 workers of 100 cores: wall_hours %v, want %v", one.WallHours, one.CoreHours/2)
	}
	// The text line gives the same keys.
	code, text, _ := runCLI(t, "", "plan", "16", "--cores", "3", "--price", "0.25")
	for _, key := range []string{"core_hours=", "cores=3 ", "wall_hours=", "price=", "calibration=\"stored: "} {
		if code != 0 || !strings.Contains(text, key) {
			t.Errorf("plan 16 --cores 3 --price 0.25: exit %d, no %q in %q", code, key, text)
		}
	}
}

// TestPlanHoursAcrossN: core-hours are comparable across n where the costs are not
// (their unit grows with n beyond 21): from 21 to 22 the hours grow as the CPU time
// measured did (9.5 times), the costs 2.5 times; and they grow at every step.
func TestPlanHoursAcrossN(t *testing.T) {
	var last planOutput
	for n := 12; n <= 22; n++ {
		out := planJSON(t, strconv.Itoa(n))
		if n > 12 && !(out.CoreHours > 2*last.CoreHours && out.CoreHours < 20*last.CoreHours) {
			t.Errorf("n=%d: %v core-hours, n=%d %v: a step out of 2..20", n, out.CoreHours, n-1, last.CoreHours)
		}
		if n == 22 {
			hours, costs := out.CoreHours/last.CoreHours, float64(out.Cost)/float64(last.Cost)
			if hours < 7 || hours > 12 || costs > 4 {
				t.Errorf("21 to 22: core-hours ×%.2f, costs ×%.2f; want about 9.5 and 2.5", hours, costs)
			}
		}
		last = out
	}
}

// TestPlanCalibrate: --calibrate counts a sample here and says so; bad values are
// usage errors.
func TestPlanCalibrate(t *testing.T) {
	out := planJSON(t, "14", "--calibrate", "100ms", "--workers", "1")
	if !(out.CoreHours > 0) || out.Sampled < 1 || !strings.HasPrefix(out.Calibration, "here: ") {
		t.Errorf("plan 14 --calibrate 100ms: core_hours %v sampled %d calibration %q", out.CoreHours, out.Sampled, out.Calibration)
	}
	for _, args := range [][]string{{"plan", "14", "--calibrate", "0s"}, {"plan", "14", "--calibrate", "x"},
		{"plan", "14", "--cores", "0"}, {"plan", "14", "--price", "-1"}, {"plan", "14", "--price", "0"}} {
		if code, _, errs := runCLI(t, "", args...); code != exitUsage || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d %q, want %d and one line", args, code, errs, exitUsage)
		}
	}
}

// TestPlanHoursAgainstCount (long): the estimate calibrated on a sample of n = 18 is
// within 30% of the CPU time of the whole count measured here.
func TestPlanHoursAgainstCount(t *testing.T) {
	if testing.Short() {
		t.Skip("counts n = 18 whole")
	}
	out := planJSON(t, "18", "--calibrate", "3s")
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	if code, stdout, stderr := runCLI(t, "", "count", "18"); code != 0 {
		t.Fatalf("count 18: exit %d %q %q", code, stdout, stderr)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()).Hours()
	if r := out.CoreHours / cpu; r < 0.7 || r > 1.3 {
		t.Errorf("plan 18 --calibrate 3s: %.4g core-hours; the count took %.4g (ratio %.2f)", out.CoreHours, cpu, r)
	}
}
