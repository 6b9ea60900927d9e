#!/usr/bin/env bash
# bench/shards.sh N K WORKERS I [I ...]
#
# Counts shards I of K of the n×n board (`nqueens count N --shard I/K`), one after
# the other, each on WORKERS goroutines, and estimates the whole count from each:
# its CPU time (user+sys, /usr/bin/time) times the plan's total cost over the shard's
# cost (`nqueens plan N --shards K --json`), in core-hours. Also prints each shard's
# wall time, peak RSS and the plan's memory estimate, so that a count too big for one
# machine can be sized from a few shards of a large K before the cluster run (see
# docs/cluster.md).
#
# Environment: NQUEENS is the program to run (default: built from this clone into
# a temporary directory); OUT is where the shard files go (default: a temporary
# directory, removed at the end).
set -euo pipefail

if [[ $# -lt 4 ]]; then
	echo "usage: bench/shards.sh N K WORKERS I [I ...]" >&2
	exit 2
fi
n=$1 k=$2 workers=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${NQUEENS:-}
if [[ -z $bin ]]; then
	(cd "$root" && go build -o "$tmp/nqueens" ./cmd/nqueens)
	bin=$tmp/nqueens
fi
out=${OUT:-$tmp/out}
mkdir -p "$out"

only=$(IFS=,; echo "$*")
"$bin" plan "$n" --shards "$k" --only "$only" -w "$workers" --json >"$tmp/plan.json"
# (awk reads to the end: head would close the pipe under grep, which pipefail reports)
total=$(grep -o '"cost":[0-9]*' "$tmp/plan.json" | awk -F: 'NR == 1 {print $2}')
memory=$(grep -o '"memory":[0-9]*' "$tmp/plan.json" | awk -F: 'NR == 1 {print $2}')
echo "n=$n K=$k workers=$workers total_cost=$total memory_estimate=$((memory / 1000000))MB" \
	"($(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
printf '%6s %6s %12s %9s %9s %9s %12s\n' shard subs share wall_s cpu_s rss_MB core_hours
for i in "$@"; do
	entry=$(grep -o "\"shard\":\"$i/$k\",\"subs\":[0-9]*,\"cost\":[0-9]*" "$tmp/plan.json") || {
		echo "bench/shards.sh: no shard $i of $k" >&2
		exit 2
	}
	subs=$(echo "$entry" | cut -d, -f2 | cut -d: -f2)
	cost=$(echo "$entry" | cut -d, -f3 | cut -d: -f2)
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		"$bin" count "$n" --shard "$i/$k" --out-dir "$out" -w "$workers" --json >"$tmp/count.json"
	read -r wall user sys rss <"$tmp/time"
	cpu=$(echo "$user + $sys" | bc -l)
	printf '%6d %6d %12.3e %9.1f %9.1f %9.0f %12.4g\n' "$i" "$subs" "$(echo "$cost / $total" | bc -l)" \
		"$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)" "$(echo "$cpu * $total / $cost / 3600" | bc -l)"
done
