#!/usr/bin/env bash
# bench/complete.sh: the completion targets of large boards, against `nqueens solve` on the
# same machine in the same run.
#
#   bench/complete.sh             REPS=3 repetitions of each case (the median is printed)
#
# Cases (each instance made by `nqueens complete --generate N --fixed K --mode solution
# --seed REP`, so it has a completion):
#
#   1  n = 10^6, 1 fixed queen        target: within 3× `nqueens solve 1e6` (run alternately)
#   2  n = 10^6, 1,000 fixed queens   target: ≤ 10 s and ≤ 64 bytes of peak RSS per queen
#   3  n = 10^7, 10,000 fixed queens  target: ≤ 120 s
#
# Both commands write the text form of the placement to a file in the same way (stdout
# redirected). Every completion is checked independently: `nqueens verify` on the output,
# and awk that every fixed queen of the instance is in it. Wall time and peak RSS come from
# /usr/bin/time -v (apt-get install time). The lines end PASS or FAIL; the script exits 1
# when a case fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
REPS=${REPS:-3}
if ! [ -x /usr/bin/time ] || ! /usr/bin/time -v true 2>/dev/null; then
	echo "bench/complete.sh: needs /usr/bin/time -v (apt-get install time)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nqueens" ./cmd/nqueens
nq=$tmp/nqueens

# timed CMD...: runs CMD with stdout to $tmp/out; sets WALL (s), RSS_KB and RC.
timed() {
	RC=0
	/usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || RC=$?
	RSS_KB=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
	WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tmp/time")
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# checked INSTANCE: the completion in $tmp/out is valid and keeps the queens of INSTANCE.
checked() {
	"$nq" verify "$tmp/out" >/dev/null || { echo "bench/complete.sh: invalid completion" >&2; return 1; }
	awk 'NR == FNR { m = split($0, pair, ","); for (i = 1; i <= m; i++) { split(pair[i], rc, ":"); want[rc[1]] = rc[2] }; next }
		{ for (r in want) if ($r != want[r]) { print "row " r ": fixed queen " want[r] " not kept (" $r ")" > "/dev/stderr"; bad = 1 } }
		END { exit bad }' "$1" "$tmp/out"
}

fail=0
# run_case LABEL N K: REPS runs of complete on fresh instances; prints the medians and
# sets C_WALL, C_RSS (max KB).
run_case() {
	local n=$1 k=$2 rep
	: >"$tmp/walls" && : >"$tmp/rss"
	for ((rep = 1; rep <= REPS; rep++)); do
		"$nq" complete --generate "$n" --fixed "$k" --mode solution --seed "$rep" >"$tmp/inst" 2>/dev/null
		timed "$nq" complete "$n" --fix-file "$tmp/inst" --seed "$rep"
		if [ "$RC" -ne 0 ]; then
			echo "bench/complete.sh: complete $n with $k fixed (seed $rep): exit $RC: $(cat "$tmp/err")" >&2
			fail=1
			continue
		fi
		checked "$tmp/inst" || fail=1
		echo "$WALL" >>"$tmp/walls"
		echo "$RSS_KB" >>"$tmp/rss"
		if [ -n "${SOLVE:-}" ]; then
			timed "$nq" solve "$n" --seed "$rep" --no-progress
			[ "$RC" -eq 0 ] || { echo "bench/complete.sh: solve $n: exit $RC" >&2; fail=1; }
			echo "$WALL" >>"$tmp/swalls"
		fi
	done
	C_WALL=$(median <"$tmp/walls")
	C_RSS=$(sort -g "$tmp/rss" | tail -1)
}

# verdict EXPR: sets V to PASS when the awk expression EXPR holds, else to FAIL (and fail).
verdict() { if awk "BEGIN {exit !($1)}"; then V=PASS; else V=FAIL fail=1; fi; }

echo "# bench/complete.sh: REPS=$REPS; $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-9s %7s %11s %11s %8s %11s %9s  %s\n' case n fixed complete_s solve_s ratio peak_rss B/queen target

: >"$tmp/swalls"
SOLVE=1 run_case 1000000 1
S_WALL=$(median <"$tmp/swalls")
ratio=$(awk -v c="$C_WALL" -v s="$S_WALL" 'BEGIN {printf "%.2f", c / s}')
bpq=$(awk -v k="$C_RSS" 'BEGIN {printf "%.1f", k * 1024 / 1e6}')
verdict "$ratio <= 3"
printf '%-4s %-9s %7s %11.3f %11.3f %8s %10sk %9s  %s\n' 1 1e6 1 "$C_WALL" "$S_WALL" "$ratio" "$C_RSS" "$bpq" "ratio <= 3: $V"

run_case 1000000 1000
bpq=$(awk -v k="$C_RSS" 'BEGIN {printf "%.1f", k * 1024 / 1e6}')
verdict "$C_WALL <= 10 && $bpq <= 64"
printf '%-4s %-9s %7s %11.3f %11s %8s %10sk %9s  %s\n' 2 1e6 1000 "$C_WALL" - - "$C_RSS" "$bpq" "<= 10 s and <= 64 B/queen: $V"

run_case 10000000 10000
bpq=$(awk -v k="$C_RSS" 'BEGIN {printf "%.1f", k * 1024 / 1e7}')
verdict "$C_WALL <= 120"
printf '%-4s %-9s %7s %11.3f %11s %8s %10sk %9s  %s\n' 3 1e7 10000 "$C_WALL" - - "$C_RSS" "$bpq" "<= 120 s: $V"
exit $fail
