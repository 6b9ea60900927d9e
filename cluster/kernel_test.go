package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/u128"
)

// TestKernelRecorded: checkpoints and result files say which kernel counted, the one
// CountOptions.Kernel resolves to (KernelAuto: AutoKernel, whatever NQUEENS_KERNEL says); a board counted without kernels
// says none; a shard resumed with another kernel names both.
func TestKernelRecorded(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, 12)
	ids := allIDs(p.Len())
	c := newCheckpoint(p, 0, 1, ids)
	if err := count(context.Background(), p, c, matcherOf(t, p, "go"), ShardOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ResultFile(0, 1))
	if err := writeResult(path, c.toResult()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var keys map[string]any
	json.Unmarshal(b, &keys)
	if keys["kernel"] != "go" || keys["format"] != "nqueens-shard/4" {
		t.Errorf("a shard counted with the go kernel: %s", b)
	}
	if r, err := readResult(path); err != nil || r.Kernel != "go" {
		t.Errorf("read back: %+v, %v", r, err)
	}

	t.Setenv("NQUEENS_KERNEL", "nope") // the library reads no environment
	c = newCheckpoint(p, 0, 1, ids)
	if err := count(context.Background(), p, c, matcherOf(t, p, ""), ShardOptions{Workers: 2}); err != nil || c.Kernel != qjoin.AutoKernel().String() {
		t.Errorf("KernelAuto: kernel %q, %v (AutoKernel %v)", c.Kernel, err, qjoin.AutoKernel())
	}

	small := plan(t, 8)
	c = newCheckpoint(small, 0, 1, allIDs(small.Len()))
	if err := count(context.Background(), small, c, matcherOf(t, small, ""), ShardOptions{Workers: 2}); err != nil || c.Kernel != kernelNone {
		t.Errorf("n=8: kernel %q, %v", c.Kernel, err)
	}

	for _, k := range []string{"", "go", "avx512,go"} {
		for _, add := range []string{"go", "avx512"} {
			got := addKernel(k, add)
			want := map[string]string{"/go": "go", "/avx512": "avx512", "go/go": "go", "go/avx512": "go,avx512",
				"avx512,go/go": "avx512,go", "avx512,go/avx512": "avx512,go"}[k+"/"+add]
			if got != want {
				t.Errorf("addKernel(%q, %q) = %q, want %q", k, add, got, want)
			}
		}
	}
}

// TestFormatV3: result files and checkpoints of format 3 (no kernel) are read, checksum
// included, with the kernel unknown, and merge with files of this format; a checkpoint of
// format 3 resumes and is saved in this one.
func TestFormatV3(t *testing.T) {
	dir := t.TempDir()
	paths := countShards(t, dir, 12, 3)
	r, err := readResult(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	old := resultV3{Format: resultFormatV3, Plan: r.Plan, Engine: r.Engine, N: r.N, Shard: r.Shard, Shards: r.Shards,
		Subs: r.Subs, IDs: r.IDs, Total: r.Total, Burnside: r.Burnside, Seconds: r.Seconds, Version: "old", Host: "h", Finished: r.Finished}
	ob, err := seal(&old, &old.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ob), "kernel") {
		t.Fatalf("a version 3 file has a kernel: %s", ob)
	}
	os.WriteFile(paths[1], ob, 0o644)
	back, err := readResult(paths[1])
	if err != nil || back.Total != r.Total || back.Version != "old" || back.Kernel != kernelUnknown || back.Host != "h" {
		t.Fatalf("a version 3 file reads as %+v, %v", back, err)
	}
	m, err := MergeShards(paths)
	if err != nil || u128.U128(m.Total) != u128.From(known(12)[0]) || u128.U128(m.Unique) != u128.From(known(12)[1]) {
		t.Errorf("merge with a version 3 file: %+v, %v", m, err)
	}
	var warned []string
	rec, err := audit(context.Background(), paths, AuditOptions{Only: []int{1}, Warn: func(m string) { warned = append(warned, m) }})
	if err != nil || !rec.passed() || rec.Checked[0].Kernel != kernelUnknown || rec.Checked[0].AuditKernel != "go" ||
		len(warned) != 1 || !strings.Contains(warned[0], "format 3") {
		t.Errorf("audit of a version 3 file: %+v, %v, %q", rec, err, warned)
	}
	os.WriteFile(paths[1], []byte(strings.Replace(string(ob), `"total": `, `"total": 1`, 1)), 0o644)
	if _, err := readResult(paths[1]); !errors.Is(err, errChecksum) {
		t.Errorf("an edited version 3 file: %v", err)
	}

	// A checkpoint of version 3, half done, resumes; saved again, it is of this
	// version, and says it does not know the kernel of the first half.
	p := plan(t, 12)
	ids := allIDs(p.Len())
	half := newCheckpoint(p, 0, 1, ids[:len(ids)/2])
	if err := count(context.Background(), p, half, matcherOf(t, p, ""), ShardOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	oc := checkpointV3{Format: checkpointFormatV3, Plan: half.Plan, Engine: half.Engine, N: half.N, Shard: 0, Shards: 1, Subs: half.Subs,
		Todo: rangesOf(ids), Done: half.Done, Total: half.Total, Burnside: half.Burnside, Runs: 1, Version: "old", Written: "2026-01-01T00:00:00Z"}
	cb, err := seal(&oc, &oc.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir, "ck")
	os.WriteFile(ck, cb, 0o644)
	lc, err := loadCheckpoint(ck)
	if err != nil || lc.matches(p, 0, 1, ids) != nil || lc.Kernel != kernelUnknown {
		t.Fatalf("a version 3 checkpoint: %+v, %v", lc, err)
	}
	if err := count(context.Background(), p, lc, matcherOf(t, p, "go"), ShardOptions{Workers: 2, Checkpoint: ck}); err != nil {
		t.Fatal(err)
	}
	if u, _ := lc.unique(); lc.Total != u128.From(known(12)[0]) || u != u128.From(known(12)[1]) {
		t.Errorf("resumed from version 3: %d %d", lc.Total, u)
	}
	nb, _ := os.ReadFile(ck)
	var keys map[string]any
	json.Unmarshal(nb, &keys)
	if keys["format"] != checkpointFormat || keys["kernel"] != "unknown,go" {
		t.Errorf("the checkpoint saved again: %s", nb)
	}
}
