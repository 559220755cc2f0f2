#!/usr/bin/env bash
# goals.sh measures the goal table of issue #14 end to end with the CLI, on a
# generated corpus of $SKILLS skills (default 10 000), and prints it as a
# Markdown table for docs/performance.md. Everything runs on loopback; the
# load generator shares the machine with the server, so each figure is an
# upper bound — the load average is printed next to each row.
#
#   scripts/goals.sh                      # 10k, work dir /tmp/goals-10000
#   SKILLS=1000 scripts/goals.sh          # the 1k row
#   STEPS="warm dashboard" scripts/goals.sh   # only some rows
#
# Rows (STEPS): ingest cold warm watch dashboard. Each starts its own server
# and stops it; the bbolt stores live in $WORK.
set -euo pipefail

SKILLS=${SKILLS:-10000}
WORK=${WORK:-/tmp/goals-$SKILLS}
PORT=${PORT:-18650}
STEPS=${STEPS:-"ingest cold warm watch dashboard"}
DURATION=${DURATION:-20s}
cd "$(dirname "$0")/.."
mkdir -p "$WORK"
go build -o "$WORK/sg" ./cmd/skillgraph
go build -o "$WORK/loadgen" ./cmd/loadgen
go build -o "$WORK/watchlat" ./cmd/watchlat
SG=$WORK/sg
CORPUS=$WORK/corpus
[ -d "$CORPUS" ] || "$SG" gen --skills "$SKILLS" "$CORPUS" >/dev/null
URL=http://127.0.0.1:$PORT
if curl -s -o /dev/null "$URL/readyz"; then
	echo "something already answers on $URL: stop it or set PORT" >&2
	exit 2
fi
# A row that fails must not leave its server answering the next row.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f s", b - a }'; }
load() { cut -d' ' -f1 /proc/loadavg; }
kb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
vmrss() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$3"; }

# ready PID [durable]: waits until /readyz is 200 (and, with "durable",
# says so); fails when the server exits first.
ready() {
	while :; do
		kill -0 "$1" 2>/dev/null || { echo "server $1 exited" >&2; return 1; }
		body=$(curl -s -w ' %{http_code}' "$URL/readyz" || true)
		if [[ $body == *" 200" ]] && { [ "${2:-}" != durable ] || [[ $body == *'"durable":true'* ]]; }; then
			return 0
		fi
		sleep 0.02
	done
}
answer() {
	curl -sf -H 'Content-Type: application/json' -d '{"query":"{ skills(first: 3) { totalCount nodes { id } } }"}' "$URL/graphql" >/dev/null
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

echo "| $SKILLS skills ($(find "$CORPUS" -type f | wc -l) files), bbolt | result | load avg |"
echo "|---|---|---|"
for step in $STEPS; do
	case $step in
	ingest)
		rm -rf "$WORK/ingest" && mkdir -p "$WORK/ingest"
		l=$(load)
		out=$( { /usr/bin/time -f '%e %M' "$SG" ingest --corpus "$CORPUS" --store "bbolt:$WORK/ingest/g.db" >/dev/null; } 2>&1 | tail -1)
		row "ingest durable (\`ingest\`, empty store)" "$(awk '{ printf "%.1f s", $1 }' <<<"$out"), peak $(kb "$(awk '{ print $2 }' <<<"$out")")" "$l"
		;;
	cold)
		rm -rf "$WORK/serve" && mkdir -p "$WORK/serve"
		l=$(load)
		t0=$(now)
		"$SG" serve --corpus "$CORPUS" --store "bbolt:$WORK/serve/g.db" --addr "127.0.0.1:$PORT" >"$WORK/cold.log" 2>&1 &
		pid=$!
		ready "$pid" && answer
		first=$(since "$t0")
		ready "$pid" durable
		row "cold \`serve --corpus\` until answers are served" "$first (durable after $(since "$t0")), peak $(kb "$(hwm "$pid")")" "$l"
		stop "$pid"
		;;
	warm)
		[ -e "$WORK/serve/g.db" ] || { echo "warm needs the cold step's store" >&2; exit 2; }
		for i in 1 2 3; do
			l=$(load)
			t0=$(now)
			"$SG" serve --read-only --store "bbolt:$WORK/serve/g.db" --addr "127.0.0.1:$PORT" >"$WORK/warm.log" 2>&1 &
			pid=$!
			ready "$pid"
			row "warm restart (\`serve --read-only\`) until ready, run $i" "$(since "$t0"), RSS $(kb "$(vmrss "$pid")")" "$l"
			stop "$pid"
		done
		;;
	watch)
		[ -e "$WORK/serve/g.db" ] || { echo "watch needs the cold step's store" >&2; exit 2; }
		"$SG" serve --watch --corpus "$CORPUS" --store "bbolt:$WORK/serve/g.db" --addr "127.0.0.1:$PORT" >"$WORK/watch.log" 2>&1 &
		pid=$!
		ready "$pid" durable
		# The start's own ingest of the corpus (the previous row's watchlat
		# restored its file, so one graph changed) runs after the store's
		# snapshot is served: an edit made meanwhile waits for it and would
		# time that ingest, not the watch. Wait for its commit (at most 20 s).
		for _ in $(seq 400); do grep -q 'msg="ingest committed"' "$WORK/watch.log" && break; sleep 0.05; done
		file=$(grep -rl '^description: ' "$CORPUS/skills" | sort | awk 'NR == 1') # awk reads it all: no SIGPIPE under pipefail
		l=$(load)
		res=$("$WORK/watchlat" -url "$URL/graphql" -file "$file" -n 10 | tail -1)
		row "one edited file visible under \`serve --watch\`" "$res" "$l"
		stop "$pid"
		;;
	dashboard)
		[ -e "$WORK/serve/g.db" ] || { echo "dashboard needs the cold step's store" >&2; exit 2; }
		"$SG" serve --read-only --store "bbolt:$WORK/serve/g.db" --addr "127.0.0.1:$PORT" >"$WORK/dash.log" 2>&1 &
		pid=$!
		ready "$pid"
		"$WORK/loadgen" -url "$URL/graphql" -c 32 -d 5s >/dev/null # warm the cache
		l=$(load)
		res=$("$WORK/loadgen" -url "$URL/graphql" -c 32 -d "$DURATION" | tail -1)
		row "dashboard mix, 32 clients, $DURATION, cache warm" "$res; server peak $(kb "$(hwm "$pid")")" "$l"
		l=$(load)
		res=$("$WORK/loadgen" -url "$URL/graphql" -c 32 -d "$DURATION" -vary text | tail -1)
		row "dashboard mix, 32 clients, $DURATION, new query text per request (\`-vary text\`: the whole-answer cache missed, root fields asked before still shared)" "$res; server peak $(kb "$(hwm "$pid")")" "$l"
		stop "$pid"
		;;
	*)
		echo "unknown step $step" >&2
		exit 2
		;;
	esac
done
