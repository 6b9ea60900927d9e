#!/usr/bin/env bash
# bench/solve.sh: the local search against the memory-bound yardstick, side by side.
#
#   bench/solve.sh [N ...]        default N list: 1e6 1e7 1e8; REPS=3 repetitions;
#                                 SOLVER=lsbench forces the package's own driver
#
# For every N it runs bench/yardstick/shuffle (fill + Fisher–Yates of N int32) and the
# solver in alternation, REPS times, and prints the median seconds of each, their ratio
# (the targets: ≤ 10× at 1e6 and 1e7, ≤ 8× at 1e8) and the peak RSS of the solver
# in bytes per queen (target ≤ 4.6 + a constant), and the median CPU seconds (user + system,
# whole process) of both (the n = 10^9 target: ≤ 200 s CPU). Both are built with
# GOAMD64=v3 when the CPU supports it (see below); set GOAMD64 to choose.
#
# The solver is `nqueens solve N --algorithm localsearch --format binary --out FILE` when the CLI
# supports that algorithm (its own seconds=: solve, verify and write the file), and
# otherwise internal/localsearch/cmd/lsbench (solve time only as reported by the program;
# it verifies afterwards with the solver's own scratch). Peak RSS covers the whole process
# either way. Both programs are built once,
# before timing. Peak RSS comes from /usr/bin/time -v when installed
# (apt-get install time), else from the program's own getrusage (lsbench only).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
REPS=${REPS:-3}
if [ $# -gt 0 ]; then NS=("$@"); else NS=(1e6 1e7 1e8); fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Both programs are built for the x86-64-v3 level (AVX2, BMI2, FMA, ...) when this CPU has
# it and GOAMD64 is not set: the search's variable shifts and wide multiplies compile to
# shorter code (lsbench 3·10^8, 4 alternating pairs: median 38.2 s against 42.3 s for the
# default v1). The Go runtime refuses to start on a CPU without the level, so a v3 build
# that runs is the test.
if [ -z "${GOAMD64:-}" ] && [ "$(go env GOARCH)" = amd64 ] &&
	GOAMD64=v3 go build -o "$tmp/shuffle" ./bench/yardstick/shuffle && "$tmp/shuffle" 10 >/dev/null 2>&1; then
	export GOAMD64=v3 # the yardstick is built already
else
	go build -o "$tmp/shuffle" ./bench/yardstick/shuffle
fi

solver=lsbench
if [ "${SOLVER:-auto}" != lsbench ] && go build -o "$tmp/nqueens" ./cmd/nqueens 2>/dev/null &&
	[[ $("$tmp/nqueens" solve --help 2>&1) == *localsearch* ]]; then
	solver=cli
else
	go build -o "$tmp/lsbench" ./internal/localsearch/cmd/lsbench
fi
timev=""
if [ -x /usr/bin/time ] && /usr/bin/time -v true 2>/dev/null; then timev=/usr/bin/time; fi

# timed CMD...: runs CMD, leaves its stdout in $tmp/out and sets RSS_KB (or empty), CPU
# (user + system seconds, or -), SYS (system seconds, or -) and WALL.
timed() {
	if [ -n "$timev" ]; then
		"$timev" -v -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
		RSS_KB=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
		CPU=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tmp/time")
		SYS=$(awk -F': ' '/System time/ {printf "%.2f", $2}' "$tmp/time")
		WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tmp/time")
	else
		local t0 t1
		t0=$(date +%s.%N)
		"$@" >"$tmp/out" 2>"$tmp/err"
		t1=$(date +%s.%N)
		RSS_KB="" CPU=- SYS=-
		WALL=$(echo "$t1 - $t0" | bc -l)
	fi
}

field() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" "$tmp/out" "$tmp/err" | head -1; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "solver: $solver; GOAMD64=$(go env GOAMD64); REPS=$REPS; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %7s %12s %9s %9s %11s %11s %9s %5s %8s\n' n shuffle_s solve_s ratio solver_rss B/queen shuf_rss shuf_cpu_s solve_cpu_s solve_sys k restarts
for n in "${NS[@]}"; do
	: >"$tmp/sh" && : >"$tmp/so" && : >"$tmp/rss" && : >"$tmp/shrss" && : >"$tmp/shcpu" && : >"$tmp/socpu" && : >"$tmp/sosys"
	k=- restarts=-
	for ((rep = 1; rep <= REPS; rep++)); do
		timed "$tmp/shuffle" "$n"
		field seconds >>"$tmp/sh"
		echo "${RSS_KB:--}" >>"$tmp/shrss"
		echo "$CPU" >>"$tmp/shcpu"
		if [ $solver = cli ]; then
			timed "$tmp/nqueens" solve "$n" --algorithm localsearch --seed "$rep" --format binary --out "$tmp/q.bin" --no-progress
			field seconds >>"$tmp/so"
			k=$(field conflicts) restarts=$(field restarts)
			rm -f "$tmp/q.bin"
		else
			timed "$tmp/lsbench" -seed "$rep" "$n"
			field seconds >>"$tmp/so"
			RSS_KB=${RSS_KB:-$(field maxrss_kb)}
			k=$(field k) restarts=$(field restarts)
		fi
		echo "$RSS_KB" >>"$tmp/rss"
		echo "$CPU" >>"$tmp/socpu"
		echo "$SYS" >>"$tmp/sosys"
	done
	sh=$(median <"$tmp/sh")
	so=$(median <"$tmp/so")
	rss=$(sort -g "$tmp/rss" | tail -1)
	shrss=$(sort -g "$tmp/shrss" | tail -1)
	shcpu=$(median <"$tmp/shcpu")
	socpu=$(median <"$tmp/socpu")
	sosys=$(median <"$tmp/sosys")
	nint=$(awk -v n="$n" 'BEGIN {printf "%d", n}')
	awk -v n="$n" -v nint="$nint" -v sh="$sh" -v so="$so" -v rss="$rss" -v shrss="$shrss" -v k="$k" -v r="$restarts" -v shcpu="$shcpu" -v socpu="$socpu" -v sosys="$sosys" 'BEGIN {
		printf "%-6s %10.3f %10.3f %7.2f %12s %9.3f %9s %11s %11s %9s %5s %8s\n", n, sh, so, so/sh, rss "k", rss*1024/nint, shrss "k", shcpu, socpu, sosys, k, r }'
done
