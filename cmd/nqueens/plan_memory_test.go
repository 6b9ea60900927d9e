package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nqueens/nqueens/cluster"
)

// mustSplit is the split of n's plan into k shards.
func mustSplit(t *testing.T, n, k int) []cluster.ShardSize {
	t.Helper()
	p, err := cluster.NewPlan(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := p.Split(k)
	if err != nil {
		t.Fatal(err)
	}
	return sizes
}

// TestPlanMemory: plan prints the memory estimate for the workers asked, growing with
// them, and under 2 GiB with 2 workers at n = 22 (qjoin checks every n); with --shards,
// that of the largest shard.
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
	// With --shards K the figure is one shard's: the plan, the split and the
	// sub-problems of the largest shard, less than the whole count's ids.
	whole, sharded := memory("22", "-w", "2"), memory("22", "-w", "2", "--shards", "1000", "--only", "0")
	if sharded.Memory >= whole.Memory {
		t.Errorf("plan 22: %d bytes a shard of 1000, %d the whole count", sharded.Memory, whole.Memory)
	}
	most := 0
	for _, sz := range mustSplit(t, 22, 1000) {
		most = max(most, sz.Subs)
	}
	if want := cluster.ShardMemory(22, 2, most, 1000); sharded.Memory != want {
		t.Errorf("plan 22 --shards 1000: %d bytes, cluster.ShardMemory says %d", sharded.Memory, want)
	}
	if code, _, errs := runCLI(t, "", "plan", "20", "-w", "-3"); code != exitUsage {
		t.Errorf("plan -w -3: exit %d, %q", code, errs)
	}
}

// TestMemoryText: plan's byte counts have no space, so that its line stays key=value
// pairs, and no terabytes.
func TestMemoryText(t *testing.T) {
	for b, want := range map[uint64]string{3e3: "3kB", 216e6: "216MB", 1.6e9: "1.6GB", 2810.5e9: "2810.5GB"} {
		if got := memoryText(b); got != want {
			t.Errorf("memoryText(%d) = %q, want %q", b, got, want)
		}
	}
}
