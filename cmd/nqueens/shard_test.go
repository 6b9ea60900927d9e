package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nqueens/nqueens/internal/u128"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/internal/oeis"
)

// knownCounts(n) is {A000170(n), A002562(n)}.
func knownCounts(n int) [2]nqueens.Uint128 {
	return [2]nqueens.Uint128{nqueens.Uint128(u128.From(oeis.Total(n))), nqueens.Uint128(u128.From(oeis.Unique(n)))}
}

// add128 is a + b (the tests' sums stay far below 2^128).
func add128(a, b nqueens.Uint128) nqueens.Uint128 {
	s, _ := u128.U128(a).Add(u128.U128(b))
	return nqueens.Uint128(s)
}

// clearIndexEnv unsets the job-array variables for the test.
func clearIndexEnv(t *testing.T) {
	for _, v := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"} { // as cluster.ParseShard reads them
		t.Setenv(v, "")
	}
}

var planHashRE = []*regexp.Regexp{
	regexp.MustCompile(`plan=[0-9a-f]{12,64}`), regexp.MustCompile(`"plan":"[0-9a-f]{64}"`),
	regexp.MustCompile(`plan [0-9a-f]{12}`), regexp.MustCompile(`engine=\S+`), regexp.MustCompile(`"engine":"[^"]*"`),
}

// TestShardGolden runs the plan, count --shard and merge command lines against
// testdata/{plan,merge,count-shard}-*.golden; DIR stands for a temporary directory
// holding the 3 shards of n=12.
func TestShardGolden(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		if code, _, errs := runCLI(t, "", "count", "12", "--shard", fmt.Sprintf("%d/3", i), "--out-dir", dir); code != 0 {
			t.Fatal(errs)
		}
	}
	partial := t.TempDir()
	for _, i := range []string{"0", "2"} {
		runCLI(t, "", "count", "12", "--shard", i+"/3", "--out-dir", partial)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"plan-12", []string{"plan", "12"}},
		{"plan-12-shards-json", []string{"plan", "12", "--shards", "3", "--json"}},
		{"plan-10-shards", []string{"plan", "10", "-k", "4"}},
		{"plan-too-big", []string{"plan", "30"}},
		{"plan-bad-shards", []string{"plan", "12", "--shards", "-1"}},
		{"plan-huge-shards", []string{"plan", "12", "--shards", "100000000"}},
		{"merge-12", []string{"merge", "DIR"}},
		{"merge-12-json", []string{"merge", "DIR", "--json"}},
		{"merge-missing", []string{"merge", "PARTIAL"}},
		{"merge-no-args", []string{"merge"}},
		{"merge-no-such-dir", []string{"merge", "DIR/nope"}},
		{"count-shard-skip", []string{"count", "12", "--shard", "1/3", "--out-dir", "DIR"}},
		{"count-shard-skip-json", []string{"count", "12", "--shard", "1/3", "--out-dir", "DIR", "--json"}},
		{"count-shard-no-out", []string{"count", "12", "--shard", "0/3"}},
		{"count-shard-out-only", []string{"count", "12", "--out-dir", "DIR"}},
		{"count-shard-range", []string{"count", "12", "--shard", "3/3", "--out-dir", "DIR"}},
		{"count-shard-garbage", []string{"count", "12", "--shard", "x", "--out-dir", "DIR"}},
		{"count-shard-garbage-no-out", []string{"count", "12", "--shard", "x"}},
		{"count-shard-auto-none", []string{"count", "12", "--shard", "auto/3", "--out-dir", "DIR"}},
		{"count-shard-other-plan", []string{"count", "11", "--shard", "1/3", "--out-dir", "DIR"}},
		{"count-resume-alone", []string{"count", "12", "--resume"}},
		{"count-shard-checkpoint", []string{"count", "12", "--shard", "2/3", "--out-dir", "DIR/new", "--checkpoint", "c.ckpt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := make([]string, len(c.args))
			for i, a := range c.args {
				a = strings.Replace(a, "PARTIAL", partial, 1)
				args[i] = strings.Replace(a, "DIR", dir, 1)
			}
			code, out, errs := runCLI(t, "", args...)
			got := transcript(c.args, code, out, errs)
			got = strings.ReplaceAll(got, partial, "PARTIAL")
			got = strings.ReplaceAll(got, dir, "DIR")
			for _, re := range planHashRE {
				got = re.ReplaceAllStringFunc(got, func(s string) string {
					k := strings.IndexAny(s, "= :")
					return s[:k+1] + "X"
				})
			}
			checkGolden(t, c.name, got)
		})
	}
}

// mergeJSON runs merge on dirs and returns its output.
func mergeJSON(t *testing.T, dirs ...string) mergeOutput {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"merge", "--json"}, dirs...)...)
	var m mergeOutput
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
		t.Fatalf("merge: exit %d, %q %q", code, out, errs)
	}
	return m
}

// TestShardCLI: every shard count K = 1..7 of n = 12, through the command line,
// merges to the known counts; a second run of a shard is skipped. A shard prints no
// unique count (its share is none), and its Burnside numerators sum to 8 × unique.
func TestShardCLI(t *testing.T) {
	clearIndexEnv(t)
	for k := 1; k <= 7; k++ {
		dir := t.TempDir()
		var burnside nqueens.Uint128
		for i := 0; i < k; i++ {
			code, out, errs := runCLI(t, "", "count", "12", "--shard", fmt.Sprintf("%d/%d", i, k), "--out-dir", dir, "-w", "2", "--json")
			var o countOutput
			if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Skipped {
				t.Fatalf("shard %d/%d: exit %d %q %q", i, k, code, out, errs)
			}
			if o.Unique != nil || o.Burnside == nil || strings.Contains(out, "unique") {
				t.Fatalf("shard %d/%d prints a unique count, or no Burnside numerator: %s", i, k, out)
			}
			burnside = add128(burnside, *o.Burnside)
		}
		if burnside != nqueens.Uint128(u128.From(8*oeis.Unique(12))) {
			t.Errorf("k=%d: the shards' Burnside numerators sum to %d, not 8 × %d", k, burnside, knownCounts(12)[1])
		}
		code, out, _ := runCLI(t, "", "count", "12", "--shard", fmt.Sprintf("0/%d", k), "--out-dir", dir, "--json")
		var o countOutput
		if code != 0 || json.Unmarshal([]byte(out), &o) != nil || !o.Skipped {
			t.Errorf("rerun not skipped: %q", out)
		}
		if m := mergeJSON(t, dir); m.Total != knownCounts(12)[0] || m.Unique != knownCounts(12)[1] || m.Shards != k {
			t.Errorf("k=%d: %+v", k, m)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != k {
			t.Errorf("k=%d: %d files left in the directory, want the %d results", k, len(ents), k)
		}
	}
}

// TestShardCorruptRecounted: a result file that does not check out is counted again.
func TestShardCorruptRecounted(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		runCLI(t, "", "count", "11", "--shard", fmt.Sprintf("%d/2", i), "--out-dir", dir)
	}
	path := filepath.Join(dir, cluster.ResultFile(1, 2))
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)-20], 0o644)
	if code, _, errs := runCLI(t, "", "merge", dir); code != 1 || !strings.Contains(errs, path+": truncated") {
		t.Errorf("merge of a truncated file: exit %d %q", code, errs)
	}
	code, out, errs := runCLI(t, "", "count", "11", "--shard", "1/2", "--out-dir", dir)
	if code != 0 || strings.Contains(out, "skipped") || !strings.Contains(errs, "counting the shard again") {
		t.Errorf("exit %d %q %q", code, out, errs)
	}
	if m := mergeJSON(t, dir); m.Total != knownCounts(11)[0] {
		t.Errorf("%+v", m)
	}
}

// TestShardAutoIndex: --shard auto/K takes the index of Slurm, Kubernetes and AWS
// Batch from their environment variables, in that order.
func TestShardAutoIndex(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want int
	}{
		{map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, 2},
		{map[string]string{"JOB_COMPLETION_INDEX": "1"}, 1},
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "0"}, 0},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "2", "AWS_BATCH_JOB_ARRAY_INDEX": "0"}, 1},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "AWS_BATCH_JOB_ARRAY_INDEX": "0"}, 2},
	}
	for _, c := range cases {
		clearIndexEnv(t)
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		dir := t.TempDir()
		code, out, errs := runCLI(t, "", "count", "10", "--shard", "auto/3", "--out-dir", dir, "--json")
		var o countOutput
		if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Shard != fmt.Sprintf("%d/3", c.want) {
			t.Errorf("%v: exit %d %q %q", c.env, code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(dir, cluster.ResultFile(c.want, 3))); err != nil {
			t.Error(err)
		}
	}
	clearIndexEnv(t)
	t.Setenv("JOB_COMPLETION_INDEX", "3")
	if code, _, errs := runCLI(t, "", "count", "10", "--shard", "auto/3", "--out-dir", t.TempDir()); code != 2 || !strings.Contains(errs, "JOB_COMPLETION_INDEX=3 is not a shard of 3") {
		t.Errorf("out of range: exit %d %q", code, errs)
	}
}

// TestCheckpointCLI: --checkpoint refuses to overwrite without --resume, and a
// resumed complete checkpoint gives the count again without work.
func TestCheckpointCLI(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	code, out, _ := runCLI(t, "", "count", "12", "--checkpoint", ck, "--resume", "--json")
	var o countOutput
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Total != knownCounts(12)[0] || o.Resumed != 0 {
		t.Fatalf("exit %d %q", code, out)
	}
	if code, _, errs := runCLI(t, "", "count", "12", "--checkpoint", ck); code != 2 || !strings.Contains(errs, "pass --resume") {
		t.Errorf("overwrite: exit %d %q", code, errs)
	}
	code, out, _ = runCLI(t, "", "count", "12", "--checkpoint", ck, "--resume", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Total != knownCounts(12)[0] || o.Resumed != o.Subs {
		t.Errorf("resume of a complete checkpoint: exit %d %q", code, out)
	}
	if code, _, errs := runCLI(t, "", "count", "13", "--checkpoint", ck, "--resume"); code != 1 || !strings.Contains(errs, "from another plan") {
		t.Errorf("other n: exit %d %q", code, errs)
	}
}

var (
	binOnce sync.Once
	binDir  string // removed by TestMain
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds the command once for the tests that run it as a process.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nqueens-test-bin")
		if err != nil {
			binErr = err
			return
		}
		binDir, binPath = dir, filepath.Join(dir, "nqueens")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// TestCountKillResume kills a checkpointed count with SIGKILL at random moments,
// at least 20 times, resuming each time; every run that gets to the end must give
// the exact count (and then the count starts afresh), and every checkpoint left
// behind must load. The board is n = 18, whose count on one worker takes 1.5–4 s here,
// so that the random kill window (50 ms to 1.55 s) falls inside the runs: the quadrant
// join counts n = 16 in 0.1 s, before most kills.
func TestCountKillResume(t *testing.T) {
	bin := binary(t)
	const n = 18
	ck := filepath.Join(t.TempDir(), "ck")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	args := []string{"count", fmt.Sprint(n), "-w", "1", "--checkpoint", ck, "--resume", "--checkpoint-every", "25ms", "--json"}
	check := func(out []byte) countOutput {
		t.Helper()
		var o countOutput
		if err := json.Unmarshal(out, &o); err != nil || !o.Complete || o.Total != knownCounts(n)[0] || o.Unique == nil || *o.Unique != knownCounts(n)[1] {
			t.Fatalf("a resumed run ended with %s", out)
		}
		return o
	}
	kills, progressed, completions, lastDone := 0, 0, 0, 0
	for kills < 20 {
		cmd := exec.Command(bin, args...)
		var stdout strings.Builder
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(50+rng.IntN(1500)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err == nil {
			// The count ended before the kill: check it and start again.
			check([]byte(stdout.String()))
			completions++
			os.Remove(ck)
			lastDone = 0
			continue
		}
		kills++
		c, lerr := readCheckpoint(t, ck)
		if os.IsNotExist(lerr) {
			continue // killed before the first checkpoint
		}
		if lerr != nil {
			t.Fatalf("after kill %d: %v", kills, lerr)
		}
		if idsLen(t, c.Done) < lastDone {
			t.Fatalf("after kill %d: %d sub-problems done, fewer than the %d before", kills, idsLen(t, c.Done), lastDone)
		}
		if idsLen(t, c.Done) > lastDone {
			progressed++
		}
		lastDone = idsLen(t, c.Done)
	}
	if progressed < 5 {
		t.Errorf("only %d of %d runs saved progress", progressed, kills)
	}
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("final run: %v", err)
	}
	o := check(out)
	t.Logf("%d kills, %d with progress, %d runs to the end; the final run resumed %d of %d sub-problems",
		kills, progressed, completions, o.Resumed, o.Subs)
}

// TestCountSignalCheckpoint: SIGINT and SIGTERM stop a count with exit 130 and the
// checkpoint written; running again finishes it.
func TestCountSignalCheckpoint(t *testing.T) {
	bin := binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		// A shard run checkpoints itself in its --out directory.
		args := []string{"count", "16", "-w", "1", "--shard", "0/2", "--out-dir", dir, "--checkpoint-every", "20ms"}
		cmd := exec.Command(bin, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal once the first checkpoint is written: the count is under way.
		for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(dir, cluster.CheckpointFile(0, 2))); err == nil {
				break
			}
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Fatalf("%v: %v, stderr %q", sig, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "interrupted after") {
			t.Errorf("%v: stderr %q", sig, stderr.String())
		}
		c, err := readCheckpoint(t, filepath.Join(dir, cluster.CheckpointFile(0, 2)))
		if err != nil || c.Complete {
			t.Fatalf("%v: checkpoint %v, %+v", sig, err, c)
		}
		for _, i := range []string{"0", "1"} {
			out, err := exec.Command(bin, "count", "16", "--shard", i+"/2", "--out-dir", dir).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			if i == "0" && idsLen(t, c.Done) > 0 && !strings.Contains(string(out), fmt.Sprintf("resumed=%d", idsLen(t, c.Done))) {
				t.Errorf("shard 0 did not resume the %d sub-problems saved: %s", idsLen(t, c.Done), out)
			}
		}
		if m := mergeJSON(t, dir); m.Total != knownCounts(16)[0] || m.Unique != knownCounts(16)[1] {
			t.Errorf("%+v", m)
		}
	}
}

// lines returns the lines of a file, for the logs of failing cluster tests.
func lines(path string, last int) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	var ls []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		ls = append(ls, s.Text())
	}
	if len(ls) > last {
		ls = ls[len(ls)-last:]
	}
	return strings.Join(ls, "\n")
}

// repoRoot is the repository root, where deploy/ lives.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// slurmLogs is the tail of the Slurm daemons' logs, for a failing test.
func slurmLogs() string {
	dir := os.Getenv("NQUEENS_SLURM_LOGS")
	if dir == "" {
		dir = "/tmp/nqueens-slurm/log"
	}
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log"} {
		fmt.Fprintf(&b, "\n----- %s\n%s", filepath.Join(dir, f), lines(filepath.Join(dir, f), 40))
	}
	return b.String()
}

// TestSlurmJobArray submits the shards of a count as a Slurm job array
// (deploy/slurm/count.sbatch) to the loopback cluster that .ci/slurm.sh starts,
// and merges them. It runs when NQUEENS_SLURM=1 and fails, with the daemons'
// logs, if the cluster is not up.
func TestSlurmJobArray(t *testing.T) {
	if os.Getenv("NQUEENS_SLURM") != "1" {
		t.Skip("set NQUEENS_SLURM=1 with a cluster up (.ci/slurm.sh) to run")
	}
	n, k := 14, 5
	if v := os.Getenv("NQUEENS_SLURM_N"); v != "" {
		fmt.Sscan(v, &n)
	}
	if v := os.Getenv("NQUEENS_SLURM_K"); v != "" {
		fmt.Sscan(v, &k)
	}
	bin := binary(t)
	out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
	if err != nil || !regexp.MustCompile(`^(idle|mixed|allocated)`).Match(out) {
		t.Fatalf("the Slurm cluster is not up: sinfo: %v %q%s", err, out, slurmLogs())
	}
	dir, err := os.MkdirTemp("", "nqueens-slurm-results")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	job := slurmArray(t, dir, fmt.Sprintf("--array=0-%d", k-1), fmt.Sprintf("N=%d,K=%d,OUT=%s,NQUEENS=%s", n, k, dir, bin))
	slurmWait(t, start, job)
	if _, err := cluster.ResultPaths([]string{dir}); err != nil {
		var logs strings.Builder
		ms, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
		for _, m := range ms {
			fmt.Fprintf(&logs, "\n----- %s\n%s", m, lines(m, 20))
		}
		t.Fatalf("job %s left no results: %v%s%s", job, err, logs.String(), slurmLogs())
	}
	wall := time.Since(start)
	m := mergeJSON(t, dir)
	if m.Total != knownCounts(n)[0] || m.Unique != knownCounts(n)[1] || m.Shards != k {
		t.Fatalf("n=%d merged %+v", n, m)
	}
	t.Logf("n=%d as %d Slurm array tasks: wall %.1f s, counting time summed %.1f s; total %d unique %d",
		n, k, wall.Seconds(), m.Seconds, m.Total, m.Unique)
}

// slurmArray submits deploy/slurm/count.sbatch as the job array of array (an --array
// option) with the variables vars, its logs in dir, and returns the job id.
func slurmArray(t *testing.T, dir, array, vars string) string {
	t.Helper()
	out, err := exec.Command("sbatch", "--parsable", array, "--output="+filepath.Join(dir, "slurm-%A_%a.out"),
		"--export=ALL,"+vars, filepath.Join(repoRoot(t), "deploy/slurm/count.sbatch")).CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch: %v %s%s", err, out, slurmLogs())
	}
	return strings.TrimSpace(strings.Split(string(out), ";")[0])
}

// slurmWait waits until the jobs have left the queue (10 minutes at most from start).
func slurmWait(t *testing.T, start time.Time, jobs ...string) {
	t.Helper()
	// sbatch --wait polls at growing intervals; squeue every 200 ms is quicker.
	for {
		q, err := exec.Command("squeue", "-h", "-j", strings.Join(jobs, ","), "-o", "%i %T").CombinedOutput()
		if err != nil {
			t.Fatalf("squeue: %v %s%s", err, q, slurmLogs())
		}
		if len(strings.TrimSpace(string(q))) == 0 {
			return
		}
		if time.Since(start) > 10*time.Minute {
			for _, j := range jobs {
				exec.Command("scancel", j).Run()
			}
			t.Fatalf("jobs %v not done after 10 minutes: %s%s", jobs, q, slurmLogs())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestSlurmArrayOffset: a cluster whose MaxArraySize is below K takes the shards as
// several arrays, each task's shard its index plus OFFSET: n = 14 in 5 shards as the
// arrays 0-2 (OFFSET=0) and 0-1 (OFFSET=3) merges to the whole count; a bad OFFSET
// stops the task before any count.
func TestSlurmArrayOffset(t *testing.T) {
	if os.Getenv("NQUEENS_SLURM") != "1" {
		t.Skip("set NQUEENS_SLURM=1 with a cluster up (.ci/slurm.sh) to run")
	}
	n, k := 14, 5
	bin := binary(t)
	dir := t.TempDir()
	start := time.Now()
	vars := fmt.Sprintf("N=%d,K=%d,OUT=%s,NQUEENS=%s", n, k, dir, bin)
	a := slurmArray(t, dir, "--array=0-2", vars+",OFFSET=0")
	b := slurmArray(t, dir, "--array=0-1", vars+",OFFSET=3")
	slurmWait(t, start, a, b)
	m := mergeJSON(t, dir)
	if m.Total != knownCounts(n)[0] || m.Unique != knownCounts(n)[1] || m.Shards != k || len(m.Files) != k {
		t.Fatalf("n=%d from two arrays with offsets: merged %+v", n, m)
	}
	bad := t.TempDir()
	c := slurmArray(t, bad, "--array=0-0", fmt.Sprintf("N=%d,K=%d,OUT=%s,NQUEENS=%s,OFFSET=x", n, k, bad, bin))
	slurmWait(t, start, c)
	logs, _ := filepath.Glob(filepath.Join(bad, "slurm-*.out"))
	results, _ := filepath.Glob(filepath.Join(bad, "shard-*"))
	if len(logs) != 1 {
		t.Fatalf("OFFSET=x: logs %v%s", logs, slurmLogs())
	}
	if log := lines(logs[0], 5); !strings.Contains(log, "OFFSET=x needs a number") || len(results) != 0 {
		t.Errorf("OFFSET=x: log %q, files %v", log, results)
	}
}

// TestSlurmEarlySignal: deploy/slurm/count.sbatch asks Slurm for SIGTERM 60 s before
// the time limit, so that a task saves its checkpoint and stops cleanly instead of being
// killed at the limit. A task with a 2-minute limit and a count far too long for it
// must stop on that early signal, well before the limit, with its checkpoint saved.
// (Slurm sends it up to 60 s early, by the resolution of its timers.)
func TestSlurmEarlySignal(t *testing.T) {
	if os.Getenv("NQUEENS_SLURM") != "1" {
		t.Skip("set NQUEENS_SLURM=1 with a cluster up (.ci/slurm.sh) to run")
	}
	bin := binary(t)
	dir, err := os.MkdirTemp("", "nqueens-slurm-signal")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	out, err := exec.Command("sbatch", "--parsable", "--array=0", "--time=2",
		"--output="+filepath.Join(dir, "task.out"),
		fmt.Sprintf("--export=ALL,N=22,K=1,OUT=%s,NQUEENS=%s", dir, bin),
		filepath.Join(repoRoot(t), "deploy/slurm/count.sbatch")).CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch: %v %s%s", err, out, slurmLogs())
	}
	job := strings.TrimSpace(strings.Split(string(out), ";")[0])
	defer exec.Command("scancel", job).Run()
	for {
		q, err := exec.Command("squeue", "-h", "-j", job, "-o", "%i %T").CombinedOutput()
		if err != nil {
			t.Fatalf("squeue: %v %s%s", err, q, slurmLogs())
		}
		if len(strings.TrimSpace(string(q))) == 0 {
			break
		}
		if time.Since(start) > 4*time.Minute {
			t.Fatalf("job %s still there after 4 minutes: %s%s", job, q, slurmLogs())
		}
		time.Sleep(500 * time.Millisecond)
	}
	took := time.Since(start)
	log := lines(filepath.Join(dir, "task.out"), 20)
	if !strings.Contains(log, "interrupted") {
		t.Fatalf("the task did not stop on a signal after %v: %s%s", took.Round(time.Second), log, slurmLogs())
	}
	if _, err := readCheckpoint(t, filepath.Join(dir, cluster.CheckpointFile(0, 1))); err != nil {
		t.Errorf("no checkpoint after the signal: %v", err)
	}
	// The limit is at 120 s; the early signal comes 60 s (up to 120 s) before it.
	if took > 105*time.Second {
		t.Errorf("the task stopped after %v: on the time limit's SIGTERM, not the early one", took.Round(time.Second))
	}
	t.Logf("stopped by the early SIGTERM %v after submission: %s", took.Round(time.Second), strings.TrimSpace(log))
}

// TestGNUParallel runs deploy/parallel/count.sh with a shard that fails, then again:
// the job log reruns the failed shard only, and the merge gives the known count.
// It runs when NQUEENS_PARALLEL=1 (set by .ci/run once GNU parallel is installed).
func TestGNUParallel(t *testing.T) {
	if os.Getenv("NQUEENS_PARALLEL") != "1" {
		t.Skip("set NQUEENS_PARALLEL=1 with GNU parallel installed to run")
	}
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Fatalf("NQUEENS_PARALLEL=1 but GNU parallel is not installed: %v", err)
	}
	bin := binary(t)
	const n, k = 14, 6
	dir := t.TempDir()
	script := filepath.Join(repoRoot(t), "deploy/parallel/count.sh")
	// Shard 2 cannot write its result: a directory is in the way.
	blocker := filepath.Join(dir, cluster.ResultFile(2, k))
	if err := os.MkdirAll(filepath.Join(blocker, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() ([]byte, error) {
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), fmt.Sprintf("N=%d", n), fmt.Sprintf("K=%d", k), "OUT="+dir,
			"NQUEENS="+bin, "JOBS=2")
		return cmd.CombinedOutput()
	}
	out, err := run()
	if err == nil {
		t.Fatalf("the run with a failing shard succeeded: %s", out)
	}
	os.RemoveAll(blocker)
	out, err = run()
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("total=%v unique=%v shards=%d", knownCounts(n)[0], knownCounts(n)[1], k)) {
		t.Errorf("merge output: %s", out)
	}
	// The job log: one run of each shard, two of shard 2 (the refusal of the directory in
	// the way of its result file, a usage error found before counting, and the rerun).
	log, _ := os.ReadFile(filepath.Join(dir, "joblog"))
	runs := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n")[1:] {
		f := strings.Split(l, "\t")
		if len(f) < 9 {
			t.Fatalf("joblog line %q", l)
		}
		runs[fmt.Sprintf("%s:%s", f[0], f[6])]++ // Seq:Exitval
	}
	want := map[string]int{"1:0": 1, "2:0": 1, "3:2": 1, "3:0": 1, "4:0": 1, "5:0": 1, "6:0": 1}
	if fmt.Sprint(runs) != fmt.Sprint(want) {
		t.Errorf("joblog runs %v, want %v\n%s", runs, want, log)
	}
	if m := mergeJSON(t, dir); m.Total != knownCounts(n)[0] {
		t.Errorf("%+v", m)
	}
}

// fakeSSH stands in for ssh in the GNU parallel test: it records the host it was asked
// for in $FAKE_SSH_LOG and runs the command here, from $HOME as a real login would.
const fakeSSH = `#!/bin/bash
while [ $# -gt 0 ]; do
	case $1 in
	-o|-l|-p|-i|-F) shift 2 ;;
	--) shift; break ;;
	-*) shift ;;
	*) break ;;
	esac
done
host=$1; shift
[ "${1:-}" = -- ] && shift
echo "$host" >> "$FAKE_SSH_LOG"
case $host in bare*) export PATH=/usr/bin:/bin ;; esac # a host where nothing is installed
cd "$HOME"
exec bash -c "$*"
`

// TestGNUParallelHosts runs deploy/parallel/count.sh -S with two hosts reached through
// a stand-in for ssh, and a relative OUT (remote commands start in the home directory):
// both hosts count shards into the same directory and the merge gives the known count.
func TestGNUParallelHosts(t *testing.T) {
	if os.Getenv("NQUEENS_PARALLEL") != "1" {
		t.Skip("set NQUEENS_PARALLEL=1 with GNU parallel installed to run")
	}
	bin := binary(t)
	const n, k = 12, 6
	work, home, tools := t.TempDir(), t.TempDir(), t.TempDir()
	ssh := filepath.Join(tools, "ssh")
	if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(tools, "hosts.log")
	cmd := exec.Command("bash", filepath.Join(repoRoot(t), "deploy/parallel/count.sh"), "-S", "1/nodeA,1/nodeB")
	cmd.Dir = work
	// Without SHELL, as on a CI runner: GNU parallel then runs remote jobs with an empty
	// shell and calls them successes unless the script names one.
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SHELL=") && !strings.HasPrefix(e, "PARALLEL_SHELL=") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, fmt.Sprintf("N=%d", n), fmt.Sprintf("K=%d", k), "OUT=q",
		"NQUEENS="+bin, "PARALLEL_SSH="+ssh, "FAKE_SSH_LOG="+log, "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("count.sh -S: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("total=%v unique=%v shards=%d", knownCounts(n)[0], knownCounts(n)[1], k)) {
		t.Errorf("merge output: %s", out)
	}
	hosts, _ := os.ReadFile(log)
	for _, h := range []string{"nodeA", "nodeB"} {
		if !strings.Contains(string(hosts), h) {
			t.Errorf("no shard ran on %s: %q", h, hosts)
		}
	}
	if m := mergeJSON(t, filepath.Join(work, "q")); m.Total != knownCounts(n)[0] || m.Shards != k {
		t.Errorf("%+v", m)
	}
}

// TestCountNotSavedCLI: a count whose checkpoint directory is removed while it runs
// prints its result all the same, then says the file is NOT saved (exit 1); interrupted,
// it prints the partial line and says the checkpoint is NOT saved (exit 130); a shard
// prints its line and says its result file is NOT written (exit 1).
func TestCountNotSavedCLI(t *testing.T) {
	bin := binary(t)
	const n = 18
	cases := []struct {
		name      string
		args      []string // DIR is the directory removed
		file      string   // the file whose appearance means the count is under way
		interrupt bool
		code      int
		stdout    []string
		stderr    string
	}{
		{"complete", []string{"--checkpoint", "DIR/c.ckpt"}, "c.ckpt", false, 1,
			[]string{fmt.Sprintf("total=%v unique=%v", knownCounts(n)[0], knownCounts(n)[1])},
			"nqueens: the count above is complete, but checkpoint NOT saved: DIR/c.ckpt: no such file or directory (no file is left)"},
		{"interrupted", []string{"--checkpoint", "DIR/c.ckpt"}, "c.ckpt", true, 130, []string{"complete=false"},
			"the counts above are partial; checkpoint NOT saved: DIR/c.ckpt: no such file or directory (no file is left)"},
		{"shard", []string{"--shard", "0/2", "--out-dir", "DIR"}, cluster.CheckpointFile(0, 2), false, 1, []string{"shard=0/2"},
			"nqueens: shard 0/2 is counted (above), but result file NOT written: DIR/shard-0000-of-0002.json: no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "gone")
			os.Mkdir(dir, 0o755)
			args := []string{"count", fmt.Sprint(n), "-w", "1", "--checkpoint-every", "50ms"}
			for _, a := range c.args {
				args = append(args, strings.Replace(a, "DIR", dir, 1))
			}
			cmd := exec.Command(bin, args...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The count is under way once the file has been replaced by a periodic write:
			// the first write, which must succeed, has returned then (its file appears
			// before the write has synced the directory, which fails once it is gone).
			var first os.FileInfo
			for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(time.Millisecond) {
				st, err := os.Stat(filepath.Join(dir, c.file))
				if err != nil {
					continue
				}
				if first == nil {
					first = st
				} else if !os.SameFile(first, st) {
					break
				}
			}
			os.RemoveAll(dir)
			if c.interrupt {
				time.Sleep(200 * time.Millisecond)
				cmd.Process.Signal(syscall.SIGINT)
			}
			cmd.Wait()
			errs := strings.ReplaceAll(stderr.String(), dir, "DIR")
			if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(errs, c.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, c.code, c.stderr)
			}
			for _, want := range c.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout %q lacks %q", stdout.String(), want)
				}
			}
			if !strings.Contains(errs, "warning: checkpoint not saved") {
				t.Errorf("no warning when the periodic write failed: %q", errs)
			}
		})
	}
}

// fullDisk mounts a small tmpfs in a temporary directory and fills it, for the test; it
// skips the test where mounting is not allowed (not root, a container without the
// capability).
func fullDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for buf := make([]byte, 4096); ; {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	os.Mkdir(filepath.Join(dir, "small"), 0o755) // a directory still fits: an inode, no block
	return filepath.Join(dir, "small")
}

// TestCountFullDisk: on a full disk, a checkpointed count or a shard fails at once,
// before counting, saying the checkpoint cannot be written (it used to count the whole
// board, then print only "no space left on device").
func TestCountFullDisk(t *testing.T) {
	small := fullDisk(t)
	for _, args := range [][]string{
		{"count", "17", "-w", "1", "--checkpoint", small + "/c.ckpt"},
		{"count", "17", "-w", "1", "--shard", "0/1", "--out-dir", small + "/q"},
	} {
		code, out, errs := runCLI(t, "", args...)
		if code != 1 || out != "" || !strings.Contains(errs, "cannot write the checkpoint, nothing counted: "+small) ||
			!strings.Contains(errs, "no space left on device") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errs)
		}
	}
}

// TestResumeSays: --resume says on stderr which checkpoint it continues, when it was
// written and how much of the count it holds, or that there is none and the count
// starts from the beginning, so that a run never starts silently from an older
// checkpoint than the user expects.
func TestResumeSays(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	code, out, errs := runCLI(t, "", "count", "12", "--checkpoint", ck, "--resume", "--json")
	var o countOutput
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || errs != "nqueens: no checkpoint "+ck+" yet: counting from the start\n" {
		t.Fatalf("fresh: exit %d %q %q", code, out, errs)
	}
	c, err := readCheckpoint(t, ck)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "count", "12", "--checkpoint", ck, "--resume")
	want := fmt.Sprintf("nqueens: resuming %s (written %s): %d of %d sub-problems done\n", ck, c.Written, o.Subs, o.Subs)
	if code != 0 || errs != want {
		t.Errorf("resumed: exit %d, stderr %q, want %q", code, errs, want)
	}
}

// TestCountInUse: a checkpoint or a shard that another process is counting is refused
// at once (exit 1), naming the process that holds it, and counted once it is free.
func TestCountInUse(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	host, _ := os.Hostname()
	holder := fmt.Sprintf("process %d on host %s", os.Getpid(), host)
	ck := filepath.Join(dir, "c.ckpt")
	cases := []struct {
		lock string
		args []string
		want string
	}{
		{ck + ".lock", []string{"count", "12", "--checkpoint", ck, "--resume"},
			fmt.Sprintf("nqueens: checkpoint %s is in use by %s (lock file %s.lock)\n", ck, holder, ck)},
		{filepath.Join(dir, lockFile(1, 2)), []string{"count", "12", "--shard", "1/2", "--out-dir", dir},
			fmt.Sprintf("nqueens: shard 1/2 of n=12 in %s is being counted by %s (lock file %s)\n", dir, holder, filepath.Join(dir, lockFile(1, 2)))},
	}
	for _, c := range cases {
		release := holdLock(t, c.lock) // this test process stands for the other one
		code, out, errs := runCLI(t, "", c.args...)
		if code != 1 || out != "" || errs != c.want {
			t.Errorf("%v: exit %d %q %q, want %q", c.args, code, out, errs, c.want)
		}
		release()
		if code, out, errs := runCLI(t, "", c.args...); code != 0 || (!strings.Contains(out, fmt.Sprintf("total=%v", knownCounts(12)[0])) && !strings.Contains(out, "shard=1/2")) {
			t.Errorf("%v once free: exit %d %q %q", c.args, code, out, errs)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("left in the directory: %v (want the checkpoint and the shard's result)", ents)
	}
}

// TestCountTwiceAtOnce: a second process started on a shard that a first one is counting
// stops at once, naming the first one's pid, instead of doing the work again.
func TestCountTwiceAtOnce(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	args := []string{"count", "18", "-w", "1", "--shard", "0/2", "--out-dir", dir}
	first := exec.Command(bin, args...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, cluster.CheckpointFile(0, 2))); err == nil {
			break
		}
	}
	start := time.Now()
	out, err := exec.Command(bin, args...).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), fmt.Sprintf("is being counted by process %d on host", first.Process.Pid)) {
		t.Fatalf("second process: %v %q", err, out)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the second process took %v to give up", took)
	}
}

// TestShardsAboveSubs: plan --shards K and count --shard I/K warn on stderr when K is
// above the plan's sub-problems (shards that count nothing), naming the shard when it
// is one of them; up to the sub-problems they say nothing.
func TestShardsAboveSubs(t *testing.T) {
	clearIndexEnv(t)
	p, err := cluster.NewPlan(context.Background(), 12)
	if err != nil {
		t.Fatal(err)
	}
	subs := p.Subs()
	k := subs + 100
	sizes, _ := p.Split(k)
	empty, full := -1, -1
	for i, s := range sizes {
		if s.Subs == 0 && empty < 0 {
			empty = i
		}
		if s.Subs > 0 && full < 0 {
			full = i
		}
	}
	warning := fmt.Sprintf("nqueens: warning: %d shards for the %d sub-problems of n=12: 100 shards count nothing", k, subs)
	advice := fmt.Sprintf("; take K ≤ %d (see nqueens plan 12)\n", subs)
	dir := t.TempDir()
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"plan", "12", "--shards", fmt.Sprint(k), "--json"}, warning + advice},
		{[]string{"count", "12", "--shard", fmt.Sprintf("%d/%d", empty, k), "--out-dir", dir},
			warning + fmt.Sprintf(", this one (%d/%d) among them", empty, k) + advice},
		{[]string{"count", "12", "--shard", fmt.Sprintf("%d/%d", full, k), "--out-dir", dir}, warning + advice},
		{[]string{"plan", "12", "--shards", fmt.Sprint(subs)}, ""},
		{[]string{"count", "12", "--shard", fmt.Sprintf("0/%d", subs), "--out-dir", dir}, ""},
	}
	for _, c := range cases {
		if code, _, errs := runCLI(t, "", c.args...); code != 0 || errs != c.stderr {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.stderr)
		}
	}
}

// TestShardSubsOneMeaning: subs is a count's own sub-problems wherever it is printed (a
// shard's, in count --shard), and a shard's result file calls the plan's plan_subs:
// "count 16 --shard 2/4" printed subs=1687 while its file said "subs": 6472.
func TestShardSubsOneMeaning(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	code, out, errs := runCLI(t, "", "count", "12", "--shard", "1/3", "--out-dir", dir, "--json")
	var o countOutput
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	var p planOutput
	if code, out, _ := runCLI(t, "", "plan", "12", "--shards", "3", "--json"); code != 0 || json.Unmarshal([]byte(out), &p) != nil {
		t.Fatalf("plan: exit %d %q", code, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, cluster.ResultFile(1, 3)))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	json.Unmarshal(b, &file)
	r, err := readResult(t, filepath.Join(dir, cluster.ResultFile(1, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if o.Subs != p.Split[1].Subs || o.Subs != idsLen(t, r.IDs) || o.Subs == p.Subs {
		t.Errorf("count --shard 1/3 says subs=%d; the plan's split %d, the file's ids %d, the plan %d", o.Subs, p.Split[1].Subs, idsLen(t, r.IDs), p.Subs)
	}
	if _, ok := file["subs"]; ok || file["plan_subs"] != float64(p.Subs) {
		t.Errorf("the result file: subs %v, plan_subs %v; want no subs and plan_subs %d", file["subs"], file["plan_subs"], p.Subs)
	}
	if _, ok := file["nodes"]; ok || strings.Contains(out, "nodes") {
		t.Errorf("a count's work measure called nodes: %s / %s", out, b)
	}
}

// TestShardInterrupted: an interrupted shard's line names the checkpoint that holds its
// count, not a result file that was not written, and merge names the shard as
// interrupted, its checkpoint present, not only missing.
func TestShardInterrupted(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "count", "18", "--shard", "1/2", "--out-dir", dir, "-w", "1"); code != 0 {
		t.Fatalf("shard 1/2: exit %d %s", code, errs)
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"count", "18", "--shard", "0/2", "--out-dir", dir, "-w", "1"}
		if asJSON {
			args = append(args, "--json")
		}
		ctx, cancel := context.WithCancel(context.Background())
		ckpt := filepath.Join(dir, cluster.CheckpointFile(0, 2))
		var before time.Time // the checkpoint of the run before, if any
		if fi, err := os.Stat(ckpt); err == nil {
			before = fi.ModTime()
		}
		go func() {
			// Under way: planned, its checkpoint written at the start (the plan can take
			// seconds on a busy machine under the race detector); then stop it.
			for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(20 * time.Millisecond) {
				if fi, err := os.Stat(ckpt); err == nil && fi.ModTime().After(before) {
					break
				}
			}
			time.Sleep(100 * time.Millisecond)
			cancel()
		}()
		var out, errb bytes.Buffer
		code := run(ctx, strings.NewReader(""), &out, &errb, args)
		cancel()
		if code != exitInterrupted || strings.Contains(out.String(), "result_file") || !strings.Contains(out.String(), ckpt) {
			t.Errorf("%v: exit %d, stdout %q (%s); want the checkpoint named, no result_file", args, code, out.String(), errb.String())
		}
		if _, err := os.Stat(ckpt); err != nil {
			t.Errorf("no checkpoint: %v", err)
		}
	}
	code, _, errs := runCLI(t, "", "merge", dir)
	if code != exitFailure || !strings.Contains(errs, "missing shard(s) 0 of 2") ||
		!strings.Contains(errs, "shard 0 was interrupted, checkpoint present: "+filepath.Join(dir, cluster.CheckpointFile(0, 2))) {
		t.Errorf("merge: exit %d, %q", code, errs)
	}
}

// TestPlanOnly: plan --shards K --only I,J prints the shards I and J of the same split,
// in the order asked, and refuses a shard outside 0..K-1 or --only without --shards.
func TestPlanOnly(t *testing.T) {
	var all, some planOutput
	if code, out, _ := runCLI(t, "", "plan", "14", "--shards", "7", "--json"); code != 0 || json.Unmarshal([]byte(out), &all) != nil {
		t.Fatalf("plan: exit %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "plan", "14", "--shards", "7", "--only", "5,2", "--json"); code != 0 || json.Unmarshal([]byte(out), &some) != nil {
		t.Fatalf("plan --only: exit %d %q", code, out)
	}
	if len(some.Split) != 2 || some.Split[0] != all.Split[5] || some.Split[1] != all.Split[2] || some.Plan != all.Plan {
		t.Errorf("--only 5,2: %+v; the split has %+v and %+v", some.Split, all.Split[5], all.Split[2])
	}
	for _, args := range [][]string{{"plan", "14", "--shards", "7", "--only", "7"}, {"plan", "14", "--only", "1"},
		{"plan", "14", "--shards", "7", "--only", "-1"}} {
		if code, _, errs := runCLI(t, "", args...); code != exitUsage || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d %q, want %d and one line", args, code, errs, exitUsage)
		}
	}
}
