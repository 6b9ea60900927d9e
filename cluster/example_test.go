package cluster_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/nqueens/nqueens/cluster"
)

// Count n = 10 as 3 shards, each into its result file in one directory (on a cluster,
// each shard runs on a node of its own, into a shared directory or one per node), then
// merge them.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "shards")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	plan, err := cluster.NewPlan(ctx, 10)
	if err != nil {
		log.Fatal(err)
	}
	const k = 3
	for i := range k {
		if _, err := cluster.CountShard(ctx, plan, i, k, dir, cluster.ShardOptions{}); err != nil {
			log.Fatal(err)
		}
	}
	paths, err := cluster.ResultPaths([]string{dir})
	if err != nil {
		log.Fatal(err)
	}
	m, err := cluster.MergeShards(paths)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("n=%d shards=%d total=%v unique=%v\n", m.N, m.Shards, m.Total, m.Unique)
	// Output: n=10 shards=3 total=724 unique=92
}
