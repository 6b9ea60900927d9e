#!/usr/bin/env bash
# bench/list.sh [N]: `nqueens list N > /dev/null` against a simple loop writing the same bytes.
#
#   bench/list.sh [N]        default N = 14; REPS=5 repetitions (the medians are reported)
#
# Builds the CLI and the yardstick bench/listloop (every solution found first, untimed, by a
# textbook search, then written by a plain strconv/bufio loop that is timed on its own:
# BenchmarkList14's what=plainloop as a process). Checks that `nqueens list N` with one
# worker, with the default workers and the yardstick write byte-identical output (sha256),
# then runs the three in alternation REPS times to /dev/null, so that all see the same
# machine load, and prints per run and as medians:
#   wall     the whole process, start to exit (bash's EPOCHREALTIME)
#   inside   the time the program reports (nqueens: seconds= on stderr; listloop: the loop)
#   cpu      user + system seconds (/usr/bin/time; listloop: of its loop alone, from getrusage)
#   rss      peak resident set size (/usr/bin/time %M)
# and the issue 7 target, ratio = median wall of `nqueens list N` / median loop time of the
# yardstick (≤ 2), with the same ratio for the times measured inside and for CPU time (the
# steadiest of the three when other jobs share the machine: it leaves out waiting for a core).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
n=${1:-14}
REPS=${REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/nqueens" ./cmd/nqueens
go build -o "$tmp/listloop" ./bench/listloop

sums=$({
	"$tmp/listloop" "$n" 2>/dev/null | sha256sum
	"$tmp/nqueens" list "$n" --workers 1 2>/dev/null | sha256sum
	"$tmp/nqueens" list "$n" 2>/dev/null | sha256sum
} | sort -u)
if [[ $(echo "$sums" | wc -l) -ne 1 ]]; then
	echo "bench/list.sh: the outputs differ:" >&2
	echo "$sums" >&2
	exit 1
fi
echo "n=$n REPS=$REPS $(nproc) cores; identical output, sha256 ${sums%% *}"
echo "start: $(uptime)"

# timed LABEL CMD...: runs CMD to /dev/null; appends "wall inside cpu rss_kb" to $tmp/LABEL.
timed() {
	local label=$1
	shift
	local t0=$EPOCHREALTIME
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err"
	local t1=$EPOCHREALTIME
	local wall inside user sys rss
	wall=$(echo "${t1/,/.} - ${t0/,/.}" | bc -l)
	inside=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' "$tmp/err" | head -1)
	read -r user sys rss <"$tmp/time"
	local cpu
	cpu=$(sed -n 's/.*cpu_seconds=\([0-9.]*\).*/\1/p' "$tmp/err" | head -1)
	cpu=${cpu:-$(echo "$user + $sys" | bc -l)}
	echo "$wall $inside $cpu $rss" >>"$tmp/$label"
	printf '  %-14s wall %6.3fs  inside %6.3fs  cpu %6.3fs  rss %7d KB\n' "$label" "$wall" "$inside" "$cpu" "$rss"
}

for ((rep = 1; rep <= REPS; rep++)); do
	timed loop "$tmp/listloop" "$n"
	timed list-w1 "$tmp/nqueens" list "$n" --workers 1
	timed list "$tmp/nqueens" list "$n"
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
col() { cut -d' ' -f"$2" "$tmp/$1" | median; }
loop=$(col loop 2) loopcpu=$(col loop 3)
echo "medians of $REPS (end: $(uptime | sed 's/.*load/load/'))"
printf '  %-10s %8s %8s %8s %9s %10s %12s %9s\n' what wall inside cpu rss_KB wall/loop inside/loop cpu/loop
for label in loop list-w1 list; do
	w=$(col "$label" 1) i=$(col "$label" 2) c=$(col "$label" 3)
	printf '  %-10s %7.3fs %7.3fs %7.3fs %9d %9.2fx %11.2fx %8.2fx\n' "$label" "$w" "$i" "$c" \
		"$(col "$label" 4)" "$(echo "$w / $loop" | bc -l)" "$(echo "$i / $loop" | bc -l)" "$(echo "$c / $loopcpu" | bc -l)"
done
echo "target (issue 7): wall/loop of list ≤ 2; loop = the yardstick's timed loop alone"
