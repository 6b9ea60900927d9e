package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
)

// TestStatusCLI: status on a run of n = 14 in 8 shards counted by the command: 0-3
// done, 4 interrupted, 5 being counted (its lock held), 6 and 7 not started, a result of
// n = 12 named as shard 6's and a copy of shard 3's edited into shard 7's (a bad
// checksum). The text and the JSON report each, the sums are those of the four result
// files, read here; once the shards are counted status gives the known counts.
func TestStatusCLI(t *testing.T) {
	clearIndexEnv(t)
	dir, other := t.TempDir(), t.TempDir()
	for i := range 8 {
		if code, _, errs := runCLI(t, "", "count", "14", "--shard", fmt.Sprintf("%d/8", i), "--out-dir", dir, "-w", "1"); code != 0 {
			t.Fatal(errs)
		}
	}
	for i := 4; i < 8; i++ {
		os.Remove(filepath.Join(dir, cluster.ResultFile(i, 8)))
	}
	startShard(t, dir, 14, 4, 8, 3)
	running := startShard(t, dir, 14, 5, 8, 3)
	release := holdLock(t, filepath.Join(dir, lockFile(5, 8)))
	defer release()
	if code, _, errs := runCLI(t, "", "count", "12", "--shard", "6/8", "--out-dir", other); code != 0 {
		t.Fatal(errs)
	}
	foreign := filepath.Join(dir, cluster.ResultFile(6, 8))
	b, _ := os.ReadFile(filepath.Join(other, cluster.ResultFile(6, 8)))
	os.WriteFile(foreign, b, 0o644)
	bad := filepath.Join(dir, cluster.ResultFile(7, 8))
	b, _ = os.ReadFile(filepath.Join(dir, cluster.ResultFile(3, 8)))
	os.WriteFile(bad, []byte(strings.Replace(string(b), `"shard": 3`, `"shard": 7`, 1)), 0o644)

	// The sums of the finished shards, from their files.
	var total, burnside nqueens.Uint128
	var kernel string // every shard's: the one auto picks here
	for i := range 4 {
		b, err := os.ReadFile(filepath.Join(dir, cluster.ResultFile(i, 8)))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Total, Burnside nqueens.Uint128
			Kernel          string
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		kernel = f.Kernel
		total, burnside = add128(total, f.Total), add128(burnside, f.Burnside)
	}

	code, out, errs := runCLI(t, "", "status", dir)
	t.Logf("nqueens status:\n%s", out)
	if code != 0 {
		t.Fatalf("status: exit %d %s", code, errs)
	}
	for _, want := range []string{
		"n=14 shards=8 shards_done=4 shards_running=1 shards_interrupted=1 shards_missing=2 complete=false\n",
		fmt.Sprintf("total=%v burnside=%v kernels=%s (sums of the shards done)\n", total, burnside, kernel),
		"estimated_by=plan\n",
		"shard=4/8 locked=false ", "shard=5/8 locked=true ",
		fmt.Sprintf("subs_done=%d subs=%d", idsLen(t, running.Done), idsLen(t, running.Todo)),
		"checkpoint=" + filepath.Join(dir, cluster.CheckpointFile(4, 8)) + "\n",
		"\nmissing=6-7\n",
		"odd: " + foreign + " is from another plan (n=12, 8 shards",
		"odd: " + bad + ": bad checksum",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q", want)
		}
	}
	if strings.Contains(out, "unique=") {
		t.Error("status gives a unique count of a part")
	}

	code, out, errs = runCLI(t, "", "status", dir, "--json", "--no-plan")
	var st statusOutput
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status --json: exit %d %q %s", code, out, errs)
	}
	if st.N != 14 || st.Shards != 8 || st.ShardsDone != 4 || st.ShardsRunning != 1 || st.ShardsInterrupted != 1 || st.ShardsMissing != 2 ||
		st.Missing != "6-7" || st.Total != total || st.Burnside != burnside || st.Unique != nil || st.Complete ||
		st.EstimatedBy != "shards" || len(st.Started) != 2 || len(st.OddFiles) != 2 || st.CoreHoursLeft == nil {
		t.Errorf("status --json: %s", out)
	}
	s5 := st.Started[1]
	if s5.Shard != "5/8" || !s5.Locked || s5.SubsDone != idsLen(t, running.Done) || s5.Written != running.Written ||
		s5.FractionDone != float64(idsLen(t, running.Done))/float64(idsLen(t, running.Todo)) {
		t.Errorf("shard 5: %+v", s5)
	}
	if f := (4 + st.Started[0].FractionDone + s5.FractionDone) / 8; st.FractionDone < f-1e-9 || st.FractionDone > f+1e-9 {
		t.Errorf("fraction_done %v, want %v", st.FractionDone, f)
	}

	// The run finished: the odd files out, the shards counted (4 resumed, 5 once its
	// count has let go of its lock).
	os.Remove(foreign)
	os.Remove(bad)
	release()
	for i := 4; i < 8; i++ {
		if code, _, errs := runCLI(t, "", "count", "14", "--shard", fmt.Sprintf("%d/8", i), "--out-dir", dir, "-w", "1"); code != 0 {
			t.Fatal(errs)
		}
	}
	code, out, errs = runCLI(t, "", "status", dir)
	want := knownCounts(14)
	if code != 0 || !strings.Contains(out, "shards_done=8 shards_running=0 shards_interrupted=0 shards_missing=0 complete=true\n") ||
		!strings.Contains(out, fmt.Sprintf("total=%v unique=%v ", want[0], want[1])) || !strings.Contains(out, "eta=done") ||
		!strings.Contains(out, "core_hours_left=0 ") || strings.Contains(out, "odd:") {
		t.Errorf("status of the finished run: exit %d\n%s%s", code, out, errs)
	}
}

// TestStatusUsage: status without a directory, with one that is not there or not a
// directory, or that holds no shard files, or with a bad --window is a usage error (exit
// 2), said in one line.
func TestStatusUsage(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "notes.txt")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "want one or more directories"},
		{[]string{"status", filepath.Join(empty, "nope")}, "no such file or directory"},
		{[]string{"status", file}, "is not a directory"},
		{[]string{"status", empty}, empty + ": no shard files (shard-*.json, shard-*.checkpoint)"},
		{[]string{"status", empty, "--window", "0s"}, "--window must be more than 0"},
		{[]string{"status", empty, "--window", "soon"}, "invalid --window"},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, %q %q; want exit 2 saying %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestStatusOtherVersion: files whose plan this program does not make (another version
// counted them) fail status with exit 1 and the way out; --no-plan reports them.
func TestStatusOtherVersion(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "count", "10", "--shard", "0/2", "--out-dir", dir); code != 0 {
		t.Fatal(errs)
	}
	path := filepath.Join(dir, cluster.ResultFile(0, 2))
	editResult(t, path, func(r *resultFile) { r.Plan = strings.Repeat("0", 64) })
	code, out, errs := runCLI(t, "", "status", dir)
	if code != exitFailure || out != "" || !strings.Contains(errs, "counted by another version (--no-plan reports without the plan)") {
		t.Errorf("status: exit %d, %q %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "status", dir, "--no-plan")
	if code != 0 || !strings.Contains(out, "shards_done=1 ") || !strings.Contains(out, "missing=1\n") || !strings.Contains(out, "estimated_by=shards") {
		t.Errorf("status --no-plan: exit %d, %q %q", code, out, errs)
	}
}
