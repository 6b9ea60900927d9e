#!/usr/bin/env bash
# An n-queens count as K shards run by GNU parallel, here or on other machines, then
# merged.
#
#   N=20 K=64 OUT=q20 deploy/parallel/count.sh
#   N=23 K=512 OUT=/shared/q23 deploy/parallel/count.sh -S :,8/node1,8/node2
#
# -S HOSTS spreads the shards over machines with ssh (GNU parallel's --sshlogin list:
# ':' is this machine, '8/node1' runs 8 shards at once on node1). OUT must then be on
# a file system shared by every host at the same path (it is made absolute here), and
# NQUEENS must name the program on every host (an absolute path, or nqueens on their
# PATH).
#
# The job log OUT/joblog records every shard; running the script again reruns only
# the shards that failed or never ran (--resume-failed), and each shard resumes from
# its checkpoint in OUT. Variables: N, K, OUT; JOBS (shards at once per host,
# default: one per core), WORKERS (threads per shard, default 1), NQUEENS (default:
# nqueens on PATH).
#
# The program must be installed here and on every host: go install ./cmd/nqueens in a
# clone of nqueens (the module is not published) puts it in $(go env GOPATH)/bin, which
# must be on PATH, or NQUEENS names it (make build in the clone makes bin/nqueens).
# The script checks that it runs everywhere before it starts a shard (exit 127 if not).
set -euo pipefail
usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; }
hosts=()
while getopts "S:h" opt; do
	case $opt in
	S) hosts=(--sshlogin "$OPTARG") ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
	echo "count.sh: unexpected argument '$1' (settings go in N, K, OUT; see -h)" >&2
	exit 2
fi
: "${N:?set N, the board size}" "${K:?set K, the number of shards}" "${OUT:?set OUT, the results directory}"
NQUEENS=${NQUEENS:-nqueens}
JOBS=${JOBS:-$(nproc)}
WORKERS=${WORKERS:-1}
# GNU parallel runs each remote job with $PARALLEL_SHELL, else the remote $SHELL; where
# that is unset (a bare container, a CI runner) the job silently does nothing and counts
# as a success. Every command here is plain POSIX sh.
export PARALLEL_SHELL=${PARALLEL_SHELL:-/bin/sh}
# The program must run here (the merge does) and on every host, or every shard fails.
missing() {
	echo "count.sh: '$NQUEENS' does not run $1: install it (go install ./cmd/nqueens in a clone of nqueens puts it in \$(go env GOPATH)/bin, which must be on PATH; the module is not published) or set NQUEENS to its absolute path (make build in the clone makes bin/nqueens)" >&2
	exit 127
}
"$NQUEENS" version >/dev/null 2>&1 || missing here
if [ ${#hosts[@]} -gt 0 ] && ! out=$(parallel --will-cite "${hosts[@]}" --nonall --tag "$NQUEENS" version 2>&1); then
	echo "$out" >&2
	missing "on every host (above)"
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd) # remote hosts start in their home directory
seq 0 $((K - 1)) | parallel --will-cite "${hosts[@]}" --jobs "$JOBS" --joblog "$OUT/joblog" --resume-failed \
	"$NQUEENS" count "$N" --shard {}/"$K" --out-dir "$OUT" --workers "$WORKERS" --no-progress
"$NQUEENS" merge "$OUT"
