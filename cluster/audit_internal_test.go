package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/qjoin"
)

// TestAudit: shards of n = 14 counted, one of them rewritten as a bad node would write
// it (a wrong total and Burnside numerator, sealed with a valid checksum, which a merge
// takes); the audit of that shard fails naming it, that of the others passes, and one of
// every shard finds exactly it.
func TestAudit(t *testing.T) {
	dir := t.TempDir()
	paths := countShards(t, dir, 14, 8)
	if _, err := MergeShards(paths); err != nil {
		t.Fatal(err)
	}
	reseal(t, paths[5], func(r *result) {
		r.Total, _ = r.Total.Add64(8)
		r.Burnside, _ = r.Burnside.Add64(8)
	})
	if _, err := MergeShards(paths); err != nil {
		t.Fatalf("the tampered file should merge (its Burnside sum is a multiple of 8): %v", err)
	}
	auditOf := func(opt AuditOptions) *auditRecord {
		t.Helper()
		opt.Workers = 2
		rec, err := audit(context.Background(), paths, opt)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	failed := func(rec *auditRecord) []int {
		var bad []int
		for _, c := range rec.Checked {
			if !c.OK {
				bad = append(bad, c.Shard)
			}
		}
		return bad
	}
	rec := auditOf(AuditOptions{Only: []int{5}})
	if rec.passed() || rec.Failed != 1 || len(rec.Checked) != 1 || rec.Checked[0].ResultFile != paths[5] ||
		rec.Checked[0].RecountTotal == rec.Checked[0].Total {
		t.Errorf("audit of the tampered shard: %+v", rec)
	}
	rec = auditOf(AuditOptions{Only: []int{0, 1, 7}})
	if !rec.passed() || len(rec.Checked) != 3 {
		t.Errorf("audit of good shards: %+v", rec)
	}
	rec = auditOf(AuditOptions{Fraction: 1})
	if got := failed(rec); len(rec.Checked) != 8 || !slices.Equal(got, []int{5}) || rec.Found != 8 {
		t.Errorf("audit of every shard: failed %v, %+v", got, rec)
	}
	// The kernel: another than the one that counted, when the CPU has another.
	for _, c := range rec.Checked {
		if c.Kernel == c.AuditKernel && (c.Kernel != "go" || qjoin.KernelAVX2.Available()) {
			t.Errorf("shard %d counted with %s, recounted with %s", c.Shard, c.Kernel, c.AuditKernel)
		}
	}
	// The default seed is the plan's: two audits check the same shards.
	a, b := auditOf(AuditOptions{Fraction: 0.25}), auditOf(AuditOptions{Fraction: 0.25})
	if len(a.Checked) != 2 || a.Seed != seedOf(a.Plan) || a.Checked[0].Shard != b.Checked[0].Shard || a.Checked[1].Shard != b.Checked[1].Shard {
		t.Errorf("two audits of a quarter: %+v, %+v", a.Checked, b.Checked)
	}
	if rec := auditOf(AuditOptions{Fraction: 0.0001}); len(rec.Checked) != 1 {
		t.Errorf("a tiny fraction checks %d shards, want 1", len(rec.Checked))
	}
	// Only the shards of one host.
	reseal(t, paths[2], func(r *result) { r.Host = "node-b" })
	if rec := auditOf(AuditOptions{Fraction: 1, Host: "node-b"}); len(rec.Checked) != 1 || rec.Checked[0].Shard != 2 || !rec.passed() {
		t.Errorf("audit of host node-b: %+v", rec)
	}
	if _, err := audit(context.Background(), paths, AuditOptions{Only: []int{9}}); err == nil {
		t.Error("shard 9 of 8 audited")
	}
	// Interrupted: an error, no record.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rec, err := audit(ctx, paths, AuditOptions{Fraction: 1}); err == nil || rec != nil {
		t.Errorf("cancelled audit: %+v, %v", rec, err)
	}
}

// TestAuditKernel: the recount's kernel is another than the one that counted.
func TestAuditKernel(t *testing.T) {
	p := plan(t, 12)
	for _, counted := range []string{"avx2", "avx512", kernelUnknown, "avx2,avx512"} {
		if k, name, same := auditKernel(p, counted, qjoin.KernelAuto); k != qjoin.KernelGo || name != "go" || same {
			t.Errorf("counted by %s: audit with %v %s %v", counted, k, name, same)
		}
	}
	k, _, same := auditKernel(p, "go", qjoin.KernelAuto)
	if qjoin.KernelAVX2.Available() == same || (!same && k == qjoin.KernelGo) {
		t.Errorf("counted by go: audit with %v, same %v", k, same)
	}
	if _, name, same := auditKernel(plan(t, 8), kernelNone, qjoin.KernelGo); name != kernelNone || !same {
		t.Errorf("n=8: %s %v", name, same)
	}
	// A kernel asked for is taken, and said to be the same when it counted.
	if k, name, same := auditKernel(p, "avx2,go", qjoin.KernelGo); k != qjoin.KernelGo || name != "go" || !same {
		t.Errorf("go asked for, counted by avx2 and go: %v %s %v", k, name, same)
	}
	if k, _, same := auditKernel(p, "avx512", qjoin.KernelGo); k != qjoin.KernelGo || same {
		t.Errorf("go asked for, counted by avx512: %v %v", k, same)
	}
}

// TestRequireAudit: a merge that requires an audit wants a passing record of its plan,
// and no failing or unreadable one.
func TestRequireAudit(t *testing.T) {
	dir := t.TempDir()
	paths := countShards(t, dir, 12, 4)
	r, _ := readResult(paths[0])
	require := func(dirs []string, plan string, shards int) (int, error) {
		m, err := MergeShards(paths)
		if err != nil {
			t.Fatal(err)
		}
		return requireAudit(dirs, plan, shards, m.results)
	}
	if _, err := require([]string{dir}, r.Plan, 4); !errors.Is(err, ErrNoAudit) {
		t.Errorf("no record: %v", err)
	}
	rec, err := audit(context.Background(), paths, AuditOptions{Only: []int{1, 2}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	path, err := writeAudit(dir, rec)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := readAudit(path); err != nil || !back.passed() || len(back.Checked) != 2 {
		t.Fatalf("record read back: %+v, %v", back, err)
	}
	if n, err := require([]string{dir}, r.Plan, 4); err != nil || n != 2 {
		t.Errorf("a passing record: %d, %v", n, err)
	}
	if _, err := require([]string{dir}, r.Plan, 3); err == nil {
		t.Error("a record of another shard count taken")
	}
	// A second record of the same second gets another name.
	path2, err := writeAudit(dir, rec)
	if err != nil || path2 == path {
		t.Errorf("second record: %s, %v", path2, err)
	}
	os.Remove(path2)
	// An edited record is refused.
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), `"failed": 0`, `"failed": 1`, 1)), 0o644)
	if _, err := require([]string{dir}, r.Plan, 4); !errors.Is(err, errChecksum) {
		t.Errorf("an edited record: %v", err)
	}
	os.WriteFile(path, b, 0o644)
	// A failing one is refused, naming the shard.
	reseal(t, paths[3], func(r *result) { r.Total, _ = r.Total.Add64(1) })
	rec, err = audit(context.Background(), paths, AuditOptions{Only: []int{3}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec.Time = "2030-01-01T00:00:00Z"
	if _, err := writeAudit(dir, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := require([]string{dir}, r.Plan, 4); err == nil || !strings.Contains(err.Error(), paths[3]) {
		t.Errorf("a failing record: %v", err)
	}
}

// TestRequireAuditHoldsFiles: a merge that requires an audit holds every audited
// shard's result file to the record: a file rewritten after the audit as a bad node
// would (total and Burnside numerator +8, sealed again), or with another kernel, or
// only sealed again with another time, is refused naming its shard; a record of format
// 1, which keeps no checksum, still catches the sums and the kernel.
func TestRequireAuditHoldsFiles(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(r *result)
		want   string // in the error; "" for none
		wantV1 string
	}{
		{"sums", func(r *result) { r.Total, _ = r.Total.Add64(8); r.Burnside, _ = r.Burnside.Add64(8) }, "total ", "total "},
		{"kernel", func(r *result) { r.Kernel = "avx2" }, `kernel "avx2"`, `kernel "avx2"`},
		{"checksum", func(r *result) { r.Seconds++ }, "checksum", ""},
		{"none", func(r *result) {}, "", ""},
	}
	for _, c := range cases {
		for _, v1 := range []bool{false, true} {
			dir := t.TempDir()
			paths := countShards(t, dir, 11, 4)
			rec, err := audit(context.Background(), paths, AuditOptions{Fraction: 1, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if v1 { // as the previous version wrote it
				want = c.wantV1
				for i := range rec.Checked {
					rec.Checked[i].ResultChecksum = ""
				}
				rec.Format = auditFormatV1
				b, err := seal(rec, &rec.Checksum)
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(dir, auditName(rec.Plan, time.Now())), b, 0o644)
			} else if _, err := writeAudit(dir, rec); err != nil {
				t.Fatal(err)
			}
			if c.name != "none" {
				reseal(t, paths[1], c.edit)
			}
			m, err := MergeShards(paths)
			if err != nil {
				t.Fatalf("%s: the rewritten file should pass merge's own checks: %v", c.name, err)
			}
			n, err := requireAudit([]string{dir}, m.PlanHash, m.Shards, m.results)
			if !v1 && c.name == "checksum" && err != nil {
				// The shard counted again and audited again: held to the new record.
				again, err := audit(context.Background(), paths, AuditOptions{Only: []int{1}, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				again.Time = "2099-01-01T00:00:00Z"
				if _, err := writeAudit(dir, again); err != nil {
					t.Fatal(err)
				}
				if n, err := requireAudit([]string{dir}, m.PlanHash, m.Shards, m.results); err != nil || n != 4 {
					t.Errorf("shard 1 audited again after its change: %d, %v", n, err)
				}
			}
			switch {
			case want == "" && (err != nil || n != 4):
				t.Errorf("%s (v1 %v): %d audited, %v", c.name, v1, n, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), "shard 1's result file") || !strings.Contains(err.Error(), want) ||
				strings.Contains(err.Error(), "shard 0") || strings.Contains(err.Error(), "\n")):
				t.Errorf("%s (v1 %v): %v, want an error naming shard 1 and %q", c.name, v1, err, want)
			}
		}
	}
}

// TestSample: the share asked for, at least one, and a shard's choice does not depend
// on the other shards found.
func TestSample(t *testing.T) {
	all := allIDs(1000)
	s := sample(all, 0.01, 42)
	if len(s) != 10 || !slices.IsSorted(s) {
		t.Errorf("1%% of 1000: %v", s)
	}
	if got := len(sample(all[:100], 0.07, 42)); got != 7 {
		t.Errorf("7%% of 100: %d shards", got)
	}
	if len(sample(all[:5], 0.01, 42)) != 1 || len(sample(all[:5], 1, 42)) != 5 {
		t.Error("the least share is one shard, the most every one")
	}
	if slices.Equal(s, sample(all, 0.01, 43)) {
		t.Error("another seed chose the same shards")
	}
	// A shard chosen among 2000 is among the 20 chosen of its first 1000.
	more, first := sample(allIDs(2000), 0.01, 42), sample(all, 0.02, 42)
	for _, x := range more {
		if x < 1000 && !slices.Contains(first, x) {
			t.Errorf("shard %d chosen among 2000, not among 1000 (%v, %v)", x, first, more)
		}
	}
}

// TestAuditSameKernel: shards of a board counted without kernels (n = 8) are counted again
// by the same code, and the audit says so.
func TestAuditSameKernel(t *testing.T) {
	paths := countShards(t, t.TempDir(), 8, 2)
	var warned []string
	rec, err := audit(context.Background(), paths, AuditOptions{Fraction: 1, Warn: func(m string) { warned = append(warned, m) }})
	if err != nil || !rec.passed() || len(rec.Checked) != 2 || rec.Checked[0].Kernel != kernelNone || rec.Checked[0].AuditKernel != kernelNone {
		t.Fatalf("audit of n=8: %+v, %v", rec, err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "with the kernel that counted them (none)") || !strings.Contains(warned[0], "0-1") {
		t.Errorf("warnings: %q", warned)
	}
}
