#!/usr/bin/env bash
# An n-queens count as K shards run by GNU parallel, here or on other machines
# (add parallel's -S host1,host2 with OUT on a shared file system), then merged.
#
#   N=20 K=64 OUT=q20 deploy/parallel/count.sh
#
# The job log OUT/joblog records every shard; running the script again reruns only
# the shards that failed or never ran (--resume-failed), and each shard resumes from
# its checkpoint in OUT. Variables: N, K, OUT; JOBS (shards at once, default: one per
# core), WORKERS (threads per shard, default 1), NQUEENS (default: nqueens on PATH).
set -euo pipefail
: "${N:?set N, the board size}" "${K:?set K, the number of shards}" "${OUT:?set OUT, the results directory}"
NQUEENS=${NQUEENS:-nqueens}
JOBS=${JOBS:-$(nproc)}
WORKERS=${WORKERS:-1}
mkdir -p "$OUT"
seq 0 $((K - 1)) | parallel --will-cite --jobs "$JOBS" --joblog "$OUT/joblog" --resume-failed \
	"$NQUEENS" count "$N" --shard {}/"$K" --out "$OUT" --workers "$WORKERS" --no-progress
"$NQUEENS" merge "$OUT"
