#!/usr/bin/env bash
# The accessibility score of the page of `nqueens serve` (issue 31): Lighthouse, the version
# pinned in package-lock.json here, runs Debian's Chromium headless against the board and
# the replay, in English and in Chinese, as a phone (Lighthouse's default) and as a desktop,
# and fails when a score is below MIN (95). `make lighthouse` runs it; the reports go to
# out/ (JSON), the scores and the failed audits to stdout.
#
#   tools/lighthouse/run.sh [NQUEENS_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../bin/nqueens}
chrome=${CHROME_PATH:-/usr/bin/chromium}
min=${MIN:-95}
[ -x "$chrome" ] || { echo "lighthouse: no Chromium at $chrome (apt-get install chromium, or set CHROME_PATH)" >&2; exit 1; }
[ -x "$bin" ] || { echo "lighthouse: no nqueens binary at $bin (make build)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$here"
# The pinned tool, installed from the lock file (npm ci), once.
if [ ! -x node_modules/.bin/lighthouse ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	npm ci --no-audit --no-fund --loglevel=error
fi
version=$(node -p 'require("lighthouse/package.json").version')
mkdir -p out
log=$(mktemp)
"$bin" serve --addr 127.0.0.1:0 2>"$log" &
server=$!
# (The server's own exit status, 130 once stopped, is not the script's.)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
url=
for _ in $(seq 100); do
	url=$(sed -n 's|.*serving \(http://[^ ]*\)/ .*|\1|p' "$log")
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { echo "lighthouse: the server did not start: $(cat "$log")" >&2; exit 1; }
flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage"
fail=0
echo "Lighthouse $version, $("$chrome" --version 2>/dev/null), accessibility, at least $min:"
for page in \
	"board-en|?lang=en&panel=board" \
	"replay-en|?lang=en&panel=replay&search=classic&n=8&until=first&event=91" \
	"board-zh|?lang=zh&panel=board" \
	"replay-zh|?lang=zh&panel=replay&search=localsearch&n=12&seed=3&check=placed&compare=localsearch-scan&event=40"; do
	name=${page%%|*}
	query=${page#*|}
	for form in mobile desktop; do
		preset=()
		[ "$form" = desktop ] && preset=(--preset=desktop)
		out="out/$name-$form.json"
		node_modules/.bin/lighthouse "$url/$query" --only-categories=accessibility "${preset[@]}" --chrome-path="$chrome" \
			--chrome-flags="$flags" --output=json --output-path="$out" --quiet
		score=$(node -e '
			const r = require(process.argv[1]);
			const a = r.categories.accessibility;
			const failed = a.auditRefs.map((x) => r.audits[x.id]).filter((x) => x.score !== null && x.score < 1 && x.scoreDisplayMode !== "informative");
			console.log(Math.round(a.score * 100) + (failed.length ? "  failed: " + failed.map((x) => x.id).join(", ") : ""));
		' "$here/$out")
		printf '  %-10s %-8s %s\n' "$name" "$form" "$score"
		[ "${score%% *}" -ge "$min" ] || fail=1
	done
done
exit $fail
