package cluster_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
)

// TestAuditShards counts n = 13 as 4 shards through the public API, rewrites shard 2 as
// a bad node would (a wrong total, sealed with a valid checksum), and audits: every
// shard, with a record that RequireAudit refuses, then the good ones, with a record it
// takes once the failing one is gone; the progress is reported in phase "audit".
func TestAuditShards(t *testing.T) {
	ctx := context.Background()
	p := newPlan(t, 13)
	dir := t.TempDir()
	var files []string
	for i := range 4 {
		r, err := cluster.CountShard(ctx, p, i, 4, dir, cluster.ShardOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, r.ResultFile)
	}
	requireAudit := func() (int, error) {
		m, err := cluster.MergeShards(files)
		if err != nil {
			t.Fatal(err)
		}
		return cluster.RequireAudit([]string{dir}, m)
	}
	if _, err := requireAudit(); !errors.Is(err, cluster.ErrNoAudit) || strings.Contains(err.Error(), "nqueens audit") {
		t.Errorf("RequireAudit with no record: %v", err)
	}
	if err := cluster.AddToTotal(files[2], 1); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var phases []string
	res, err := cluster.AuditShards(ctx, files, cluster.AuditOptions{Fraction: 1, Workers: 2, RecordDir: dir,
		Progress: func(pr nqueens.Progress) {
			mu.Lock()
			defer mu.Unlock()
			phases = append(phases, pr.Phase)
		}})
	if err != nil || res.Failed != 1 || len(res.Checked) != 4 || res.Checked[2].OK || res.Checked[2].ResultFile != files[2] ||
		res.PlanHash != p.Hash() || filepath.Dir(res.RecordFile) != dir || len(phases) == 0 || phases[0] != "audit" {
		t.Fatalf("audit of every shard: %+v, %v (phases %v)", res, err, phases)
	}
	if _, err := requireAudit(); err == nil || !strings.Contains(err.Error(), files[2]) {
		t.Errorf("RequireAudit after a failing audit: %v", err)
	}
	failing := res.RecordFile
	res, err = cluster.AuditShards(ctx, files, cluster.AuditOptions{Only: []int{0, 3}, RecordDir: dir})
	if err != nil || res.Failed != 0 || len(res.Checked) != 2 {
		t.Fatalf("audit of good shards: %+v, %v", res, err)
	}
	if err := os.Remove(failing); err != nil {
		t.Fatal(err)
	}
	if n, err := requireAudit(); err != nil || n != 2 {
		t.Errorf("RequireAudit after a passing audit: %d, %v", n, err)
	}
}
