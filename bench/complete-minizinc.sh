#!/usr/bin/env bash
# bench/complete-minizinc.sh: nqueens complete against MiniZinc + Gecode on the same random
# n-Queens Completion instances (issue 7). Not run by CI.
#
#   bench/complete-minizinc.sh [N ...]     default N list: 50 100 200 500 1000
#   PER=30 FRACS="0.1 0.3 0.5" MODE=solution TIMEOUT=10 bench/complete-minizinc.sh
#
# For every n and fixed fraction it generates PER instances with
# `nqueens complete --generate N --fixed K --seed S --mode MODE`, solves each with
# `nqueens complete` and with `minizinc --solver gecode bench/complete/queens.mzn`
# (alldifferent on q, q+i, q−i plus the fixed queens, first-fail search), each as a
# whole process with a TIMEOUT-second limit, and prints one row per cell: solved by
# each, median and worst wall time of each. The hardest instances (slowest for either
# solver) are listed at the end with their seeds, so they can be regenerated.
# Needs the Debian packages minizinc and libgecodeflatzinc49 (installed if missing).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
PER=${PER:-30}
FRACS=${FRACS:-"0.1 0.3 0.5"}
MODE=${MODE:-solution}
TIMEOUT=${TIMEOUT:-10}
if [ $# -gt 0 ]; then NS=("$@"); else NS=(50 100 200 500 1000); fi

if ! command -v minizinc >/dev/null || ! minizinc --solvers 2>/dev/null | grep -q org.gecode.gecode; then
	apt-get update -qq && apt-get install -y -qq minizinc libgecodeflatzinc49 >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nqueens" ./cmd/nqueens
model="$root/bench/complete/queens.mzn"

# wall CMD...: runs CMD under the timeout; prints "seconds status" (status ok, none,
# timeout or error).
wall() {
	local t0 t1 rc=0
	t0=$(date +%s.%N)
	timeout "$TIMEOUT" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	t1=$(date +%s.%N)
	local st=ok
	case $rc in
	0) grep -q UNSATISFIABLE "$tmp/out" && st=none ;;
	1) st=none ;;
	124) st=timeout ;;
	*) st=error ;;
	esac
	echo "$(echo "$t1 - $t0" | bc -l) $st"
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
worst() { sort -g | tail -1; }

echo "# nqueens complete vs MiniZinc $(minizinc --version | grep -o 'version [0-9.]*') + Gecode; mode=$MODE, $PER instances per cell, timeout ${TIMEOUT}s; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %6s %10s %10s %10s %10s %10s %10s\n' n fixed nq_solved nq_median nq_worst mzn_solved mzn_median mzn_worst
: >"$tmp/all"
for n in "${NS[@]}"; do
	for frac in $FRACS; do
		k=$(printf '%.0f' "$(echo "$n * $frac" | bc -l)")
		: >"$tmp/nq" && : >"$tmp/mz"
		nqs=0 mzs=0
		for ((s = 1; s <= PER; s++)); do
			"$tmp/nqueens" complete --generate "$n" --fixed "$k" --seed "$s" --mode "$MODE" >"$tmp/inst" 2>/dev/null
			fixed=$(awk -v n="$n" -F'[:,]' '{for(i=1;i<=n;i++) f[i]=0; for(i=1;i<NF;i+=2) f[$i]=$(i+1); s=""; for(i=1;i<=n;i++) s=s (i>1?",":"") f[i]; print s}' "$tmp/inst")
			printf 'n = %d;\nfixed = [%s];\n' "$n" "$fixed" >"$tmp/inst.dzn"
			read -r t st < <(wall "$tmp/nqueens" complete "$n" --fix-file "$tmp/inst" --seed 1)
			echo "$t" >>"$tmp/nq"
			[ "$st" = error ] && { echo "nqueens error on n=$n k=$k seed=$s" >&2; cat "$tmp/err" >&2; }
			[ "$st" = ok ] || [ "$st" = none ] && nqs=$((nqs + 1))
			read -r t2 st2 < <(wall minizinc --solver gecode "$model" "$tmp/inst.dzn")
			echo "$t2" >>"$tmp/mz"
			[ "$st2" = ok ] || [ "$st2" = none ] && mzs=$((mzs + 1))
			echo "$n $k $s $t $st $t2 $st2" >>"$tmp/all"
		done
		printf '%-6s %6s %10s %10.3f %10.3f %10s %10.3f %10.3f\n' "$n" "$frac" "$nqs/$PER" "$(median <"$tmp/nq")" "$(worst <"$tmp/nq")" \
			"$mzs/$PER" "$(median <"$tmp/mz")" "$(worst <"$tmp/mz")"
	done
done
echo
echo "# hardest instances (regenerate: nqueens complete --generate N --fixed K --seed S --mode $MODE)"
echo "# n k seed nqueens_s nqueens_status minizinc_s minizinc_status"
sort -k4 -g -r "$tmp/all" | head -3
sort -k6 -g -r "$tmp/all" | head -3
