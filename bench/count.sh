#!/usr/bin/env bash
# bench/count.sh N THREADS [REPS]
#
# Runs the textbook counter bench/yardstick/floor.c and our counter side by
# side on an n×n board with the same number of threads, REPS times each
# (default 3), interleaved so that both see the same machine load. Checks
# that every run reports the same total, then prints the medians of the wall
# and CPU (user+sys) times and the ratios floor/ours.
#
# Our counter is `nqueens count N --workers T --json` when cmd/nqueens exists
# and supports it, else the engine's own driver
# internal/fastcount/cmd/fastcount-bench. Both are built once, before timing.
#
# Environment: FLOOR_C is the path of floor.c (default
# bench/yardstick/floor.c); NQUEENS_KERNEL=go or
# avx2 forces the matcher kernel of the quadrant join (passed through to our
# counter as it is); BASELINE is the path of another nqueens binary (an older
# version, say) to run interleaved with the two, so that its ratio to floor.c is
# measured in the same run; FLOOR_REPS runs floor.c fewer times than the
# others (at n = 18 it takes three minutes a run; 0 leaves it out).
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
	echo "usage: bench/count.sh N THREADS [REPS]" >&2
	exit 2
fi
n=$1 threads=$2 reps=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
floor_c=${FLOOR_C:-$root/bench/yardstick/floor.c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O3 -march=native -pthread -o "$tmp/floor" "$floor_c"

ours=()
if [[ -d $root/cmd/nqueens ]] && (cd "$root" && go build -o "$tmp/nqueens" ./cmd/nqueens) 2>/dev/null &&
	"$tmp/nqueens" count --help 2>&1 | grep -q -- '--workers' &&
	"$tmp/nqueens" count 8 --workers 1 --json 2>/dev/null | grep -q '"total"'; then
	ours=("$tmp/nqueens" count "$n" --workers "$threads" --json)
	name="nqueens count"
else
	(cd "$root" && go build -o "$tmp/fastcount-bench" ./internal/fastcount/cmd/fastcount-bench)
	ours=("$tmp/fastcount-bench" "$n" "$threads")
	name="fastcount-bench"
fi

# run LABEL CMD...: runs CMD, appends "wall cpu total" to $tmp/LABEL.
run() {
	local label=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$tmp/out"
	local total
	total=$(grep -o '"\?total"\?[=:] *[0-9]*' "$tmp/out" | head -1 | grep -o '[0-9]*$' || true)
	if [[ -z $total ]]; then
		echo "bench/count.sh: no total in output of $*:" >&2
		cat "$tmp/out" >&2
		exit 1
	fi
	read -r wall user sys <"$tmp/time"
	echo "$wall $(echo "$user + $sys" | bc -l) $total" >>"$tmp/res.$label"
	printf '  %-16s wall %7.2fs  cpu %7.2fs  total %s\n' "$label" "$wall" "$(echo "$user + $sys" | bc -l)" "$total"
}

echo "n=$n threads=$threads reps=$reps ours=$name kernel=${NQUEENS_KERNEL:-auto} ($(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
for ((i = 1; i <= reps; i++)); do
	if ((i <= ${FLOOR_REPS:-$reps})); then
		run floor "$tmp/floor" "$n" "$threads"
	fi
	run ours "${ours[@]}"
	if [[ -n ${BASELINE:-} ]]; then
		run baseline "$BASELINE" count "$n" --workers "$threads" --json
	fi
done

if [[ ! -e $tmp/res.floor ]]; then
	echo "0 0 $(cut -d' ' -f3 "$tmp/res.ours" | head -1)" >"$tmp/res.floor" # no floor.c runs
fi
totals=$(cut -d' ' -f3 "$tmp"/res.* | sort -u)
if [[ $(echo "$totals" | wc -l) -ne 1 ]]; then
	echo "bench/count.sh: totals disagree:" $totals >&2
	exit 1
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
fw=$(cut -d' ' -f1 "$tmp/res.floor" | median) ow=$(cut -d' ' -f1 "$tmp/res.ours" | median)
fc=$(cut -d' ' -f2 "$tmp/res.floor" | median) oc=$(cut -d' ' -f2 "$tmp/res.ours" | median)
printf 'total %s (all runs agree)\n' "$totals"
printf 'median wall: floor %.2fs  ours %.2fs  ratio floor/ours %.2fx\n' "$fw" "$ow" "$(echo "$fw / $ow" | bc -l)"
printf 'median cpu:  floor %.2fs  ours %.2fs  ratio floor/ours %.2fx\n' "$fc" "$oc" "$(echo "$fc / $oc" | bc -l)"
if [[ -n ${BASELINE:-} ]]; then
	bw=$(cut -d' ' -f1 "$tmp/res.baseline" | median) bc=$(cut -d' ' -f2 "$tmp/res.baseline" | median)
	printf 'baseline:    wall %.2fs (floor/baseline %.2fx)  cpu %.2fs (floor/baseline %.2fx)\n' \
		"$bw" "$(echo "$fw / $bw" | bc -l)" "$bc" "$(echo "$fc / $bc" | bc -l)"
fi
