package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
	"golang.org/x/sys/unix"
)

// The tests read, edit and seal again the files of package cluster as a user's tool
// would, from their documented layout, not through cluster's code: a result file
// (nqueens-shard/4) and a checkpoint (nqueens-checkpoint/4) are JSON objects sealed by
// "checksum": "sha256:" and the hex SHA-256 of the compact JSON of the object with the
// checksum empty, its fields in the order of the file.

// resultFile is a shard's result file, format nqueens-shard/4, field for field in the
// file's order (the checksum covers them in this order).
type resultFile struct {
	Format   string          `json:"format"`
	Plan     string          `json:"plan"`
	Engine   string          `json:"engine"`
	N        int             `json:"n"`
	Shard    int             `json:"shard"`
	Shards   int             `json:"shards"`
	Subs     int             `json:"plan_subs"`
	IDs      string          `json:"ids"` // "0-4,9,12-15"
	Total    nqueens.Uint128 `json:"total"`
	Burnside nqueens.Uint128 `json:"burnside"`
	Seconds  float64         `json:"seconds"`
	Workers  int             `json:"workers"`
	Version  string          `json:"version"`
	Host     string          `json:"host,omitempty"`
	Kernel   string          `json:"kernel"`
	Finished string          `json:"finished"`
	Checksum string          `json:"checksum"`
}

// checkpointFile is a checkpoint, format nqueens-checkpoint/4, field for field.
type checkpointFile struct {
	Format   string          `json:"format"`
	Plan     string          `json:"plan"`
	Engine   string          `json:"engine"`
	N        int             `json:"n"`
	Shard    int             `json:"shard"`
	Shards   int             `json:"shards"`
	Subs     int             `json:"plan_subs"`
	Todo     string          `json:"todo"`
	Done     string          `json:"done"`
	Total    nqueens.Uint128 `json:"total"`
	Burnside nqueens.Uint128 `json:"burnside"`
	Seconds  float64         `json:"seconds"`
	Runs     int             `json:"runs"`
	Complete bool            `json:"complete"`
	Version  string          `json:"version"`
	Kernel   string          `json:"kernel"`
	Written  string          `json:"written"`
	Checksum string          `json:"checksum"`
}

// checksum is the checksum of v, whose checksum field *sum is emptied for it and restored.
func checksum(t testing.TB, v any, sum *string) string {
	t.Helper()
	was := *sum
	*sum = ""
	b, err := json.Marshal(v)
	*sum = was
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// readSealed decodes the file at path into v strictly (a field this test does not know
// is an error) and checks its checksum *sum, of format format.
func readSealed(t testing.TB, path string, v any, sum *string, format *string, want string) error {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if *format != want {
		return errors.New(path + ": format " + *format + ", want " + want)
	}
	if got := checksum(t, v, sum); got != *sum {
		return errors.New(path + ": bad checksum " + *sum + ", computed " + got)
	}
	return nil
}

// readResult reads the result file at path, checking its checksum.
func readResult(t testing.TB, path string) (*resultFile, error) {
	t.Helper()
	r := &resultFile{}
	if err := readSealed(t, path, r, &r.Checksum, &r.Format, "nqueens-shard/4"); err != nil {
		return nil, err
	}
	return r, nil
}

// writeResult seals r and writes it at path, as the command writes result files.
func writeResult(t testing.TB, path string, r *resultFile) {
	t.Helper()
	r.Checksum = checksum(t, r, &r.Checksum)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editResult reads the result file at path, lets edit change it, and seals it again.
func editResult(t testing.TB, path string, edit func(r *resultFile)) {
	t.Helper()
	r, err := readResult(t, path)
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	writeResult(t, path, r)
}

// readCheckpoint reads the checkpoint at path, checking its checksum.
func readCheckpoint(t testing.TB, path string) (*checkpointFile, error) {
	t.Helper()
	c := &checkpointFile{}
	if err := readSealed(t, path, c, &c.Checksum, &c.Format, "nqueens-checkpoint/4"); err != nil {
		return nil, err
	}
	return c, nil
}

// idsLen is the number of ids of a file's set spelled "0-4,9,12-15".
func idsLen(t testing.TB, ids string) int {
	t.Helper()
	n := 0
	for part := range strings.SplitSeq(ids, ",") {
		if part == "" {
			continue
		}
		los, his, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(los)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(his)
		}
		if err1 != nil || err2 != nil || hi < lo {
			t.Fatalf("ids %q: bad range %q", ids, part)
		}
		n += hi - lo + 1
	}
	return n
}

// auditSeed is the default seed of an audit of the plan with hash plan, as the command
// documents it: the plan hash's first 16 hex digits.
func auditSeed(t testing.TB, plan string) uint64 {
	t.Helper()
	s, err := strconv.ParseUint(plan[:16], 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lockFile is the lock file of shard i of k, beside its result file and checkpoint.
func lockFile(i, k int) string {
	return strings.TrimSuffix(cluster.ResultFile(i, k), ".json") + ".lock"
}

// holdLock takes the lock file at path as a count does, an exclusive flock holding "PID
// HOST", this test process standing for another one; the returned function releases it
// and removes the file, as the count does when it ends (once, however often called).
func holdLock(t testing.TB, path string) (release func()) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		t.Fatalf("lock %s: %v", path, err)
	}
	host, _ := os.Hostname()
	if _, err := f.WriteString(strconv.Itoa(os.Getpid()) + " " + host + "\n"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			os.Remove(path)
			f.Close()
		})
	}
}

// startShard counts shard i of k of n into dir through package cluster and interrupts it
// once after sub-problems are finished (0: before any), leaving its checkpoint as an
// interrupted count leaves it; it returns the checkpoint.
func startShard(t *testing.T, dir string, n, i, k, after int) *checkpointFile {
	t.Helper()
	p, err := cluster.NewPlan(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if after == 0 {
		cancel()
	}
	finished := 0
	res, err := cluster.CountShard(ctx, p, i, k, dir, cluster.ShardOptions{Workers: 1, Version: "test",
		Progress: func(nqueens.Progress) {
			if finished++; finished == after {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) || res.Status != nqueens.Interrupted {
		t.Fatalf("shard %d/%d: %v, status %v", i, k, err, res.Status)
	}
	c, err := readCheckpoint(t, filepath.Join(dir, cluster.CheckpointFile(i, k)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
