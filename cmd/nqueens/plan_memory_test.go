package main

import (
	"encoding/json"
	"testing"
)

// TestPlanMemory: plan prints the memory estimate for the workers asked, growing with
// them, and under 2 GiB with 2 workers at n = 22 (qjoin checks every n).
func TestPlanMemory(t *testing.T) {
	memory := func(args ...string) planOutput {
		t.Helper()
		code, out, errs := runCLI(t, "", append([]string{"plan"}, append(args, "--json")...)...)
		var o planOutput
		if code != 0 || json.Unmarshal([]byte(out), &o) != nil {
			t.Fatalf("plan %v: exit %d, %q %q", args, code, out, errs)
		}
		return o
	}
	one, two := memory("20", "-w", "1"), memory("20", "-w", "2")
	if one.Workers != 1 || two.Workers != 2 || one.Memory == 0 || two.Memory <= one.Memory {
		t.Errorf("plan 20: %d bytes with %d worker, %d with %d", one.Memory, one.Workers, two.Memory, two.Workers)
	}
	if m := memory("22", "--workers", "2").Memory; m == 0 || m > 2<<30 {
		t.Errorf("plan 22: %d bytes with 2 workers", m)
	}
	if code, _, errs := runCLI(t, "", "plan", "20", "-w", "-3"); code != exitUsage {
		t.Errorf("plan -w -3: exit %d, %q", code, errs)
	}
}
