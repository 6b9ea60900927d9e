package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/internal/qjoin"
)

// auditRecords lists the audit records in dir.
func auditRecords(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "audit-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAuditCLI: the 8 shards of n = 14 counted by the command with the pure-Go kernel
// say so; one of them is then rewritten as a bad node would write it (a wrong total and
// Burnside numerator, sealed with a valid checksum), which merge takes. audit of that
// shard fails naming it, audit of good ones passes, audit of every shard finds exactly
// it, and merge --require-audit refuses with no record, after a failing audit, and passes
// after a passing one.
func TestAuditCLI(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	t.Setenv(kernelEnv, "go")
	for i := 0; i < 8; i++ {
		if code, _, errs := runCLI(t, "", "count", "14", "--shard", fmt.Sprintf("%d/8", i), "--out-dir", dir, "-w", "2"); code != 0 {
			t.Fatal(errs)
		}
	}
	t.Setenv(kernelEnv, "")
	path := func(i int) string { return filepath.Join(dir, cluster.ResultFile(i, 8)) }
	for i := 0; i < 8; i++ {
		r, err := readResult(t, path(i))
		if err != nil || r.Kernel != "go" {
			t.Fatalf("shard %d counted with NQUEENS_KERNEL=go records kernel %q, %v", i, r.Kernel, err)
		}
	}
	oneLine := func(what, errs string) {
		t.Helper()
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "nqueens: ") {
			t.Errorf("%s: stderr is not one line: %q", what, errs)
		}
	}
	requireAudit := func(want int, says string) {
		t.Helper()
		code, _, errs := runCLI(t, "", "merge", dir, "--require-audit")
		if code != want || !strings.Contains(errs, says) {
			t.Errorf("merge --require-audit: exit %d (want %d), stderr %q (want %q)", code, want, errs, says)
		}
		if code != 0 {
			oneLine("merge --require-audit", errs)
		}
	}
	requireAudit(1, "no audit record")

	// Shard 5 as a bad node writes it.
	r, err := readResult(t, path(5))
	if err != nil {
		t.Fatal(err)
	}
	good := r.Total
	r.Total = add128(r.Total, nqueens.Uint128{Lo: 8})
	r.Burnside = add128(r.Burnside, nqueens.Uint128{Lo: 8})
	writeResult(t, path(5), r)
	if code, _, errs := runCLI(t, "", "merge", dir); code != 0 {
		t.Fatalf("the tampered shard should pass merge's checks: %s", errs)
	}

	code, out, errs := runCLI(t, "", "audit", dir, "--only", "5")
	if code != 1 || !strings.Contains(out, "FAILED shard=5/8 result_file="+path(5)) || !strings.Contains(out, "recount_total="+good.String()) ||
		!strings.Contains(errs, path(5)) || strings.Contains(errs, path(4)) {
		t.Errorf("audit of the tampered shard: exit %d\n%s%s", code, out, errs)
	}
	oneLine("audit --only 5", errs)
	if len(auditRecords(t, dir)) != 1 {
		t.Errorf("records after the failing audit: %v", auditRecords(t, dir))
	}
	requireAudit(1, "failed")

	for _, f := range auditRecords(t, dir) {
		os.Remove(f)
	}
	code, out, errs = runCLI(t, "", "audit", dir, "--only", "0,3,7")
	if code != 0 || !strings.Contains(out, "checked=3 failed=0") || strings.Contains(out, "FAILED") {
		t.Errorf("audit of good shards: exit %d\n%s%s", code, out, errs)
	}
	requireAudit(0, "")
	if _, out, _ := runCLI(t, "", "merge", dir, "--require-audit"); !strings.Contains(out, " audited=3\n") {
		t.Errorf("merge --require-audit after an audit of 3 shards: %s", out)
	}

	code, out, errs = runCLI(t, "", "audit", dir, "--fraction", "1", "--json")
	var got auditOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("audit --json: %v: %s", err, out)
	}
	var bad []string
	for _, c := range got.Checked {
		if !c.OK {
			bad = append(bad, c.Shard)
		}
	}
	if code != 1 || len(got.Checked) != 8 || got.Failed != 1 || len(bad) != 1 || bad[0] != "5/8" || got.RecordFile == "" {
		t.Errorf("audit --fraction 1: exit %d, failed %v, %s%s", code, bad, out, errs)
	}
	requireAudit(1, "failed") // the passing record is there, the failing one too

	// The default seed is printed and is the same for two audits.
	_, out1, _ := runCLI(t, "", "audit", dir, "--fraction", "0.25")
	_, out2, _ := runCLI(t, "", "audit", dir, "--fraction", "0.25")
	seed := fmt.Sprintf("seed=%d", auditSeed(t, r.Plan))
	if !strings.Contains(out1, seed) || !strings.Contains(out1, "checked=2") || strings.Replace(out1, "record_file", "", 1)[:100] != strings.Replace(out2, "record_file", "", 1)[:100] {
		t.Errorf("two default audits:\n%s%s", out1, out2)
	}

	// Interrupted: exit 130, no record.
	before := len(auditRecords(t, dir))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e strings.Builder
	if code := run(ctx, strings.NewReader(""), &o, &e, []string{"audit", dir, "--fraction", "1"}); code != exitInterrupted || len(auditRecords(t, dir)) != before {
		t.Errorf("interrupted audit: exit %d, %d records (had %d): %s", code, len(auditRecords(t, dir)), before, e.String())
	}

	for _, args := range [][]string{{"audit", dir, "--fraction", "0"}, {"audit", dir, "--fraction", "2"}, {"audit", dir, "--only", "1", "--seed", "3"},
		{"audit"}, {"audit", filepath.Join(dir, "nope")}} {
		if code, _, errs := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "", "audit", dir, "--only", "8"); code != exitUsage || !strings.Contains(errs, "shard 8 of 8: no such shard") {
		t.Errorf("audit --only 8 of 8: exit %d: %s", code, errs)
	}

	// Another kernel than the one that counted, when the CPU has one.
	for _, c := range got.Checked {
		if c.Kernel != "go" {
			t.Errorf("shard %s: kernel %q", c.Shard, c.Kernel)
		}
	}
	if !qjoin.KernelAVX2.Available() {
		t.Skip("this CPU runs only the go kernel: the audit counted again with it")
	}
	for _, c := range got.Checked {
		if c.AuditKernel == "go" {
			t.Errorf("shard %s counted with go recounted with %s", c.Shard, c.AuditKernel)
		}
	}
}

// TestMergeRequireAuditHoldsFiles is the new-user round's P2: n = 16 counted in 4
// shards and audited, then shard 1's result file rewritten as a bad node would (total
// and Burnside numerator +8, its checksum sealed again). merge takes the file, but merge
// --require-audit holds it to the audit record and refuses, naming shard 1 and both
// totals, in one line.
func TestMergeRequireAuditHoldsFiles(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	for i := range 4 {
		if code, _, errs := runCLI(t, "", "count", "16", "--shard", fmt.Sprintf("%d/4", i), "--out-dir", dir); code != 0 {
			t.Fatal(errs)
		}
	}
	if code, out, errs := runCLI(t, "", "audit", dir, "--fraction", "1"); code != 0 || !strings.Contains(out, "checked=4 failed=0") {
		t.Fatalf("audit: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "merge", dir, "--require-audit"); code != 0 || !strings.Contains(out, "total=14772512 ") || !strings.Contains(out, " audited=4\n") {
		t.Fatalf("merge --require-audit of the audited files: exit %d\n%s%s", code, out, errs)
	}
	path := filepath.Join(dir, cluster.ResultFile(1, 4))
	r, err := readResult(t, path)
	if err != nil {
		t.Fatal(err)
	}
	was := r.Total
	r.Total = add128(r.Total, nqueens.Uint128{Lo: 8})
	r.Burnside = add128(r.Burnside, nqueens.Uint128{Lo: 8})
	writeResult(t, path, r)
	if code, out, errs := runCLI(t, "", "merge", dir); code != 0 || !strings.Contains(out, "total=14772520 ") {
		t.Fatalf("merge without --require-audit takes the well-sealed file: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "", "merge", dir, "--require-audit")
	want := fmt.Sprintf("total %v, audited %v", r.Total, was)
	if code != 1 || out != "" || !strings.Contains(errs, "shard 1's result file is not the one") || !strings.Contains(errs, want) ||
		strings.Count(errs, "\n") != 1 {
		t.Errorf("merge --require-audit after the rewrite: exit %d (want 1), stdout %q, stderr %q (want %q)", code, out, errs, want)
	}
}
