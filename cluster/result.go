package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// resultFormat names the layout of result files. Version 2 records the
// Burnside numerator of the shard's sub-problems instead of a unique count;
// version 3 calls the plan's sub-problems plan_subs (subs, as the commands
// print it, is a shard's own) and records no nodes (the counting engines'
// work measure, which is no count of calls); version 4 records the kernel
// that counted. readResult reads the three.
const resultFormat = "nqueens-shard/4"

// result is the content of a shard's result file: the sums over the
// sub-problems IDs of shard Shard of Shards of the plan Plan.
type result struct {
	Format   string    `json:"format"`
	Plan     string    `json:"plan"`   // fastcount.Plan.Hash
	Engine   string    `json:"engine"` // fastcount.Plan.Version
	N        int       `json:"n"`
	Shard    int       `json:"shard"`     // 0..Shards-1
	Shards   int       `json:"shards"`    // K
	Subs     int       `json:"plan_subs"` // sub-problems in the whole plan
	IDs      ranges    `json:"ids"`       // the sub-problems counted here
	Total    u128.U128 `json:"total"`
	Burnside u128.U128 `json:"burnside"` // Σ of the sub-problems' Burnside numerators
	Seconds  float64   `json:"seconds"`  // counting time, summed over resumed runs
	Workers  int       `json:"workers"`
	Version  string    `json:"version"`        // the program that counted
	Host     string    `json:"host,omitempty"` // where it counted
	Kernel   string    `json:"kernel"`         // the matcher kernel(s) that counted: see kernelNone, kernelUnknown
	Finished string    `json:"finished"`       // RFC 3339 time of the end
	Checksum string    `json:"checksum"`
}

// ResultFile is the name of the result file of shard i of k in its directory, as
// CountShard writes it: shard-0003-of-0008.json for i = 3, k = 8.
func ResultFile(i, k int) string { return fmt.Sprintf("shard-%04d-of-%04d.json", i, k) }

// CheckpointFile is the name of the checkpoint of shard i of k in its directory, as
// CountShard writes it by default: shard-0003-of-0008.checkpoint for i = 3, k = 8.
func CheckpointFile(i, k int) string { return fmt.Sprintf("shard-%04d-of-%04d.checkpoint", i, k) }

// lockFile is the name of shard i of k's lock file (see tryLock).
func lockFile(i, k int) string { return fmt.Sprintf("shard-%04d-of-%04d.lock", i, k) }

// writeResult seals r with its checksum and writes it atomically to path.
func writeResult(path string, r *result) error {
	return writeResultWith(path, r, atomicfile.WriteBytes)
}

// writeResultWith is writeResult with the function that writes the file (a benchmark
// writes without fsync).
func writeResultWith(path string, r *result, writeFile func(path string, b []byte) error) error {
	r.Format = resultFormat
	b, err := seal(r, &r.Checksum)
	if err != nil {
		return err
	}
	return writeFile(path, b)
}

// readResult reads and checks a result file: JSON complete and strict,
// checksum, format, and ids consistent with the plan size. Errors name the
// file.
func readResult(path string) (*result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &result{}
	switch formatOf(data) {
	case resultFormatV2:
		err = readResultV2(data, r)
	case resultFormatV3:
		err = readResultV3(data, r)
	default:
		err = checkFormat(data, resultFormat)
		if err == nil {
			err = unseal(data, r, &r.Checksum)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func (r *result) check() error {
	switch {
	case r.Format != resultFormat:
		return fmt.Errorf("format %q, want %q", r.Format, resultFormat)
	}
	if err := checkPlanSize(r.N, r.Shard, r.Shards, r.Subs); err != nil {
		return err
	}
	return r.IDs.check(r.Subs)
}

// checkPlanSize checks the sizes a checkpoint or result file gives its plan
// before anything is allocated by them: a file may be corrupted or forged.
func checkPlanSize(n, shard, shards, subs int) error {
	switch {
	case n < 1 || n > fastcount.MaxN:
		return fmt.Errorf("n=%d out of range 1..%d", n, fastcount.MaxN)
	case shards < 1 || shards > MaxShards:
		return fmt.Errorf("%d shards out of range 1..%d", shards, MaxShards)
	case shard < 0 || shard >= shards:
		return fmt.Errorf("shard %d of %d out of range", shard, shards)
	case subs < 1 || subs > maxSubs:
		return fmt.Errorf("%d sub-problems out of range 1..%d", subs, maxSubs)
	}
	return nil
}

// Matches tells whether r is the result of shard i of k of plan p with the
// ids that assign gives it; if not, the error says what differs.
func (r *result) matches(p *fastcount.Plan, i, k int, ids []int) error {
	switch {
	case r.N == p.N && r.Engine != p.Version():
		return fmt.Errorf("is %w: written by engine %s, this program counts n=%d with engine %s (the engine/plan version differs, plan %.12s, not %.12s)",
			ErrOtherPlan, r.Engine, p.N, p.Version(), r.Plan, p.Hash())
	case r.Plan != p.Hash() || r.N != p.N:
		return fmt.Errorf("is %w: n=%d plan %.12s, not n=%d plan %.12s", ErrOtherPlan, r.N, r.Plan, p.N, p.Hash())
	case r.Shard != i || r.Shards != k:
		return fmt.Errorf("holds shard %d of %d, not %d of %d", r.Shard, r.Shards, i, k)
	case !r.IDs.Equal(rangesOf(ids)):
		return errors.New("holds other sub-problems than this shard's")
	}
	return nil
}

// ErrOtherPlan is wrapped by the errors of checkpoint and result files made for another
// plan: another n, another number of shards, or another engine version.
var ErrOtherPlan = errors.New("from another plan")

// ResultPaths lists the result files named by args, for MergeShards and AuditShards: a
// directory stands for its result files (shard-*.json), and is an error when it holds
// none; anything else stands for itself.
func ResultPaths(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			paths = append(paths, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "shard-*.json"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no shard result files (shard-*.json)", a)
		}
		paths = append(paths, m...)
	}
	return paths, nil
}
