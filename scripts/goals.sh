#!/usr/bin/env bash
# goals.sh measures the goal table of issue #27 end to end with the CLI, on
# generated corpora of each size in $SIZES (default $SKILLS, default
# 10 000), one run per size, and prints, per size, the detail table and
# then the goal table (ratios against the peers and between the sizes) as
# Markdown for docs/performance.md. Everything runs on loopback; the load
# generator shares the machine with the server, so each figure is an upper
# bound — the load average (1 min) at its start is printed beside it.
#
#   scripts/goals.sh                               # 10k, work dirs /tmp/goals-10000
#   SKILLS=1000 scripts/goals.sh                   # the 1k rows
#   SIZES="10000 100000" SIDE=1 PG=1 scripts/goals.sh   # every row of the goal table
#   STEPS="warm dashboard" scripts/goals.sh        # only some rows
#   SIZES="10000 100000" SIDE=1 PG=1 STEPS_100000="ingest warm watch dashboard" scripts/goals.sh
#                                                  # STEPS_<size>: the rows of one size
#
# Rows (STEPS): ingest cold warm watch firstedit dashboard, with PG=1 also
# pg (the same ingest into PostgreSQL) and replica (a read-only replica of
# it: start until ready, and a writer's ingest until the replica serves it),
# with SIDE=1 also side (cmd/sidebyside/run.sh on the same size: `cayley
# load` and Oxigraph's store.load of the same N-Quads and the answers). Each
# starts its own servers and stops them; the bbolt stores live in $WORK-N.
# PG=1 starts its own PostgreSQL (as scripts/test.sh does, but durable:
# fsync on, as bbolt's ingest is) on 127.0.0.1:$PGPORT and stops it at the
# end. SIDE=1 needs what cmd/sidebyside/run.sh needs (a `cayley` CLI build
# and node with the pinned oxigraph package); when it cannot run, its rows
# say so and the others are still measured.
set -euo pipefail

SIZES=${SIZES:-${SKILLS:-10000}}
WORKROOT=${WORK:-/tmp/goals}
PORT=${PORT:-18650}
PGPORT=${PGPORT:-18653}
POLL=${POLL:-250ms}
SIDE=${SIDE:-0}
PG=${PG:-0}
DEFAULT_STEPS="ingest cold warm watch firstedit dashboard"
[ "$PG" = 1 ] && DEFAULT_STEPS+=" pg replica"
[ "$SIDE" = 1 ] && DEFAULT_STEPS+=" side"
STEPS=${STEPS:-$DEFAULT_STEPS}
DURATION=${DURATION:-20s}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=$WORKROOT-bin
mkdir -p "$BIN"
go build -o "$BIN/sg" ./cmd/skillgraph
go build -o "$BIN/loadgen" ./cmd/loadgen
go build -o "$BIN/watchlat" ./cmd/watchlat
SG=$BIN/sg
URL=http://127.0.0.1:$PORT
if curl -s -o /dev/null "$URL/readyz"; then
	echo "something already answers on $URL: stop it or set PORT" >&2
	exit 2
fi
# The figures of every size, one "size key value load" a line, for the goal
# table at the end.
FIGS=$WORKROOT-figures
: >"$FIGS"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
load() { cut -d' ' -f1 /proc/loadavg; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
vmrss() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }
# cputicks PID: the user and system CPU a process has used, in clock ticks.
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# cpusince PID TICKS: the CPU seconds PID used since cputicks said TICKS.
cpusince() { awk -v a="$2" -v b="$(cputicks "$1")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz }'; }
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$3"; }
# fig KEY VALUE LOAD: records a figure of the current size.
fig() { echo "$SIZE $1 $2 $3" >>"$FIGS"; }
# secs DURATION: a Go duration (as watchlat and loadgen print it) in seconds.
secs() {
	awk -v d="$1" 'BEGIN {
		t = 0
		while (match(d, /^[0-9.]+(h|m|s|ms|µs|us|ns)/)) {
			tok = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
			n = tok + 0; u = tok; sub(/^[0-9.]+/, "", u)
			f = (u == "h") ? 3600 : (u == "m") ? 60 : (u == "s") ? 1 : (u == "ms") ? 1e-3 : (u == "ns") ? 1e-9 : 1e-6
			t += n * f
		}
		printf "%.4f", t
	}'
}

# PostgreSQL of its own, on loopback, for the pg and replica rows.
PGBIN= PGTMP=
run_pg() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql_() { "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -qAt "$@"; }
cleanup() {
	kill $(jobs -p) 2>/dev/null || true
	if [ -n "$PGTMP" ]; then
		run_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -m fast stop >/dev/null 2>&1 || true
		rm -rf "$PGTMP"
	fi
}
# A row that fails must not leave its server answering the next row.
trap cleanup EXIT
if [[ " $STEPS " == *" pg "* || " $STEPS " == *" replica "* ]]; then
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
	[ -x "$PGBIN/initdb" ] || { echo "PG=1 needs PostgreSQL's initdb (apt-get install postgresql)" >&2; exit 2; }
	PGTMP=$(mktemp -d /tmp/goals-pg.XXXXXX)
	[[ $(id -u) == 0 ]] && chown postgres "$PGTMP"
	run_pg "$PGBIN/initdb" -D "$PGTMP/data" -U postgres -A trust >/dev/null
	run_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/log" -w \
		-o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGTMP -c shared_preload_libraries=pg_stat_statements" start >/dev/null
fi

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
# served ID TEXT: whether the server serves TEXT as skill ID's description.
served() {
	curl -s -H 'Content-Type: application/json' \
		-d "{\"query\":\"query(\$id: ID!) { skill(id: \$id) { description } }\",\"variables\":{\"id\":\"$1\"}}" \
		"$URL/graphql" | grep -qF "\"description\":\"$2\""
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
# dbload [reset]: the statements (calls) and rows the database of this
# size has run since the last reset, as "calls rows" (pg_stat_statements;
# "- -" without it); with reset, zeroes them instead.
dbload() {
	if [ "${1:-}" = reset ]; then
		psql_ -d "goals_$SIZE" -c "SELECT pg_stat_statements_reset()" >/dev/null 2>&1 || true
		return
	fi
	psql_ -d "goals_$SIZE" -F ' ' -c "SELECT coalesce(sum(calls), 0), coalesce(sum(rows), 0) FROM pg_stat_statements
		WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'" 2>/dev/null || echo "- -"
}
# editfile: the first skill file with a description line (awk reads the
# whole list: no SIGPIPE under pipefail).
editfile() { grep -rl '^description: ' "$CORPUS/skills" | sort | awk 'NR == 1'; }
# waitidle PID: waits (at most 10 min) for the start's own ingest of the
# corpus, which runs after the store's snapshot is served: an edit made
# meanwhile interrupts it (or waits for it) and would time that ingest,
# not the watch. An ingest that finds nothing changed logs nothing, so the
# sign is the process's CPU: under 0.2 s in 2 s.
waitidle() {
	local prev c
	prev=$(cputicks "$1")
	for _ in $(seq 300); do
		sleep 2
		c=$(cputicks "$1")
		[ $((c - prev)) -lt 20 ] && return
		prev=$c
	done
}

# startstore: the store the warm, watch, firstedit and dashboard rows start
# from: the cold step's, else the ingest step's (the same corpus, durable).
startstore() { for f in "$WORK/serve/g.db" "$WORK/ingest/g.db"; do [ -e "$f" ] && { echo "$f"; return; }; done; return 1; }

for SIZE in $SIZES; do
	WORK=$WORKROOT-$SIZE
	mkdir -p "$WORK"
	CORPUS=$WORK/corpus
	[ -d "$CORPUS" ] || "$SG" gen --skills "$SIZE" "$CORPUS" >/dev/null
	DSN="postgres://postgres@127.0.0.1:$PGPORT/goals_$SIZE?sslmode=disable"
	echo
	echo "| $SIZE skills ($(find "$CORPUS" -type f | wc -l) files) | result | load avg |"
	echo "|---|---|---|"
	steps_var=STEPS_$SIZE
	for step in ${!steps_var:-$STEPS}; do
		case $step in
		ingest)
			rm -rf "$WORK/ingest" && mkdir -p "$WORK/ingest"
			l=$(load)
			out=$( { /usr/bin/time -f '%e %M' "$SG" ingest --corpus "$CORPUS" --store "bbolt:$WORK/ingest/g.db" >/dev/null; } 2>&1 | tail -1)
			read -r t kb <<<"$out"
			fig ingest "$t" "$l"
			fig ingest_mb "$(mb "$kb")" "$l"
			row "ingest durable (\`ingest\`, empty bbolt store)" "$t s, peak $(mb "$kb") MB" "$l"
			;;
		cold)
			rm -rf "$WORK/serve" && mkdir -p "$WORK/serve"
			l=$(load)
			t0=$(now)
			"$SG" serve --corpus "$CORPUS" --store "bbolt:$WORK/serve/g.db" --addr "127.0.0.1:$PORT" >"$WORK/cold.log" 2>&1 &
			pid=$!
			ready "$pid" && answer
			first=$(elapsed "$t0")
			ready "$pid" durable
			fig cold "$first" "$l"
			row "cold \`serve --corpus\` until answers are served" "$first s (durable after $(elapsed "$t0") s), peak $(mb "$(hwm "$pid")") MB" "$l"
			stop "$pid"
			;;
		warm)
			DB=$(startstore) || { echo "warm needs the cold or the ingest step's store" >&2; exit 2; }
			ts=()
			for i in 1 2 3; do
				l=$(load)
				t0=$(now)
				"$SG" serve --read-only --store "bbolt:$DB" --addr "127.0.0.1:$PORT" >"$WORK/warm.log" 2>&1 &
				pid=$!
				ready "$pid"
				t=$(elapsed "$t0")
				rss=$(mb "$(vmrss "$pid")")
				ts+=("$t $rss $l")
				row "warm restart (\`serve --read-only\`) until ready, run $i" "$t s, RSS $rss MB" "$l"
				stop "$pid"
			done
			read -r t rss l < <(printf '%s\n' "${ts[@]}" | sort -n | awk 'NR == 2') # the median of three
			fig warm "$t" "$l"
			fig warm_mb "$rss" "$l"
			;;
		watch)
			DB=$(startstore) || { echo "watch needs the cold or the ingest step's store" >&2; exit 2; }
			"$SG" serve --watch --corpus "$CORPUS" --store "bbolt:$DB" --addr "127.0.0.1:$PORT" >"$WORK/watch.log" 2>&1 &
			pid=$!
			ready "$pid" durable
			waitidle "$pid"
			l=$(load)
			res=$("$BIN/watchlat" -url "$URL/graphql" -file "$(editfile)" -n 10 | tail -1)
			fig watch "$(secs "$(awk '{ print $5 }' <<<"$res")")" "$l"
			row "one edited file visible under \`serve --watch\`" "$res" "$l"
			stop "$pid"
			;;
		firstedit)
			# The first edit right after a warm start is ready (its own ingest of
			# the corpus still running), against steady-state edits after it.
			DB=$(startstore) || { echo "firstedit needs the cold or the ingest step's store" >&2; exit 2; }
			l=$(load)
			"$SG" serve --watch --corpus "$CORPUS" --store "bbolt:$DB" --addr "127.0.0.1:$PORT" >"$WORK/firstedit.log" 2>&1 &
			pid=$!
			ready "$pid"
			first=$("$BIN/watchlat" -url "$URL/graphql" -file "$(editfile)" -n 1 | tail -1)
			waitidle "$pid"
			sleep 1 # the restore of watchlat's file is an edit too
			l2=$(load)
			steady=$("$BIN/watchlat" -url "$URL/graphql" -file "$(editfile)" -n 10 | tail -1)
			fig firstedit "$(secs "$(awk '{ print $5 }' <<<"$first")")" "$l"
			fig steadyedit "$(secs "$(awk '{ print $5 }' <<<"$steady")")" "$l2"
			row "first edit visible after a warm \`serve --corpus --watch\` start is ready" "$first" "$l"
			row "then steady-state edits" "$steady" "$l2"
			stop "$pid"
			;;
		dashboard)
			DB=$(startstore) || { echo "dashboard needs the cold or the ingest step's store" >&2; exit 2; }
			"$SG" serve --read-only --store "bbolt:$DB" --addr "127.0.0.1:$PORT" >"$WORK/dash.log" 2>&1 &
			pid=$!
			ready "$pid"
			# A read-only server is ready before it has verified its store
			# (both cores for a while at 100k): the load is measured after
			# that walk, in the steady state a dashboard meets.
			t0=$(now)
			while ! grep -q "store verified" "$WORK/dash.log"; do
				kill -0 "$pid" 2>/dev/null || { echo "server $pid exited" >&2; exit 1; }
				sleep 0.1
			done
			walk=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
			"$BIN/loadgen" -url "$URL/graphql" -c 32 -d 5s >/dev/null # warm the cache
			# The server's CPU beside the client's (loadgen prints its
			# own): on loopback they share the cores, and which of them
			# the time went to says what bounds the latency.
			l=$(load)
			c0=$(cputicks "$pid")
			res=$("$BIN/loadgen" -url "$URL/graphql" -c 32 -d "$DURATION" | tail -1)
			fig p99 "$(secs "$(sed -n 's/.*p99 \([^,]*\),.*/\1/p' <<<"$res")")" "$l"
			row "dashboard mix, 32 clients, $DURATION, cache warm (after the store's verification, $walk s after ready)" "$res; server CPU $(cpusince "$pid" "$c0") s, peak $(mb "$(hwm "$pid")") MB" "$l"
			l=$(load)
			c0=$(cputicks "$pid")
			res=$("$BIN/loadgen" -url "$URL/graphql" -c 32 -d "$DURATION" -vary text | tail -1)
			row "dashboard mix, 32 clients, $DURATION, new query text per request (\`-vary text\`: the whole-answer cache missed, root fields asked before still shared)" "$res; server CPU $(cpusince "$pid" "$c0") s, peak $(mb "$(hwm "$pid")") MB" "$l"
			stop "$pid"
			;;
		pg)
			psql_ -c "DROP DATABASE IF EXISTS goals_$SIZE" -c "CREATE DATABASE goals_$SIZE" 2>/dev/null
			psql_ -d "goals_$SIZE" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" 2>/dev/null || true
			l=$(load)
			out=$( { /usr/bin/time -f '%e %M' "$SG" ingest --corpus "$CORPUS" --store "postgres:$DSN" >/dev/null; } 2>&1 | tail -1)
			read -r t kb <<<"$out"
			fig pg "$t" "$l"
			row "ingest durable into PostgreSQL (\`ingest --store postgres:…\`, empty database, fsync on)" "$t s, peak $(mb "$kb") MB (the client; the database's own not counted)" "$l"
			;;
		replica)
			dbload reset
			l=$(load)
			t0=$(now)
			"$SG" serve --read-only --poll "$POLL" --store "postgres:$DSN" --addr "127.0.0.1:$PORT" >"$WORK/replica.log" 2>&1 &
			pid=$!
			ready "$pid"
			t=$(elapsed "$t0")
			read -r calls rows < <(dbload)
			fig replica "$t" "$l"
			row "PostgreSQL replica (\`serve --read-only --store postgres:…\`) start until ready" "$t s, RSS $(mb "$(vmrss "$pid")") MB; the database ran $calls statements returning $rows rows for it" "$l"
			# The database's load per replica while it follows (polls only) and
			# while it serves the dashboard mix, and what one replica serves.
			dbload reset
			l=$(load)
			sleep 10
			read -r calls rows < <(dbload)
			row "the replica idle, following (poll $POLL), 10 s" "$calls statements, $rows rows" "$l"
			"$BIN/loadgen" -url "$URL/graphql" -c 32 -d 5s >/dev/null # warm the cache
			dbload reset
			l=$(load)
			res=$("$BIN/loadgen" -url "$URL/graphql" -c 32 -d "$DURATION" | tail -1)
			read -r calls rows < <(dbload)
			fig replica_rps "$(sed -n 's/.*: \([0-9.]*\) req\/s.*/\1/p' <<<"$res")" "$l"
			row "the replica serving the dashboard mix, 32 clients, $DURATION, cache warm" "$res; the database: $calls statements, $rows rows" "$l"
			# The writer (another process) edits one skill; from its commit
			# (its log's timestamp) until the replica serves the new text.
			file=$(editfile)
			id=$(basename "$file" .md)
			cp "$file" "$WORK/replica.orig"
			want="goals replica edit $(date +%s%N)"
			sed -i "s/^description: .*/description: $want/" "$file"
			l=$(load)
			"$SG" ingest -v -log-format json --corpus "$CORPUS" --store "postgres:$DSN" 2>"$WORK/writer.log" >/dev/null
			until served "$id" "$want"; do
				kill -0 "$pid" 2>/dev/null || { echo "replica exited" >&2; exit 1; }
				sleep 0.01
			done
			t1=$(now)
			cp "$WORK/replica.orig" "$file"
			at=$(sed -n 's/.*"time":"\([^"]*\)","level":"INFO","msg":"ingest committed".*/\1/p' "$WORK/writer.log")
			[ -n "$at" ] || { echo "the writer logged no commit (see $WORK/writer.log)" >&2; exit 1; }
			t=$(awk -v a="$(date -d "$at" +%s.%N)" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
			fig follow "$t" "$l"
			row "an ingest committed by a writer served by the replica (poll $POLL)" "$t s after the commit" "$l"
			stop "$pid"
			;;
		side)
			rm -f "$WORK/side.error"
			l=$(load)
			if SKILLS=$SIZE WORK=$WORK/side PORT=$((PORT + 1)) "$ROOT/cmd/sidebyside/run.sh" >"$WORK/side.out" 2>"$WORK/side.log"; then
				j=$WORK/side/times.json
				o=$WORK/side/oxigraph.json
				fig cayley "$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).cayleyLoad)' "$j")" "$l"
				fig oxload "$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).loadMs / 1000)' "$o")" "$l"
				fig answers "$(node -e 'const a = JSON.parse(require("fs").readFileSync(process.argv[1])); console.log(Math.min(...a.map((r) => r.oxMs / r.sgMs)).toFixed(1))' "$WORK/side/answers.json")" "$l"
				row "side by side (\`cmd/sidebyside/run.sh\`)" "see below" "$l"
				echo
				cat "$WORK/side/table.md"
				echo
			else
				why=$(grep -v '^==' "$WORK/side.log" | tail -1)
				echo "$why" >"$WORK/side.error"
				row "side by side (\`cmd/sidebyside/run.sh\`)" "could not run: $why (see $WORK/side.log)" "$l"
			fi
			;;
		*)
			echo "unknown step $step" >&2
			exit 2
			;;
		esac
	done
done

# The goal table: each row from the figures above, with the load average
# at each figure's start; "—" where its step did not run (or, for the
# growth rows, when only one size ran: they compare the first and the last
# size).
echo
awk -v sizes="$SIZES" -v sideerr="$(cat "$WORKROOT"-*/side.error 2>/dev/null | head -1)" '
{ v[$1, $2] = $3; ld[$1, $2] = $4 }
function has(s, k) { return ((s, k) in v) }
function fmt(x) { return (x >= 100) ? sprintf("%.0f", x) : (x >= 10) ? sprintf("%.1f", x) : sprintf("%.2f", x) }
# out NAME SIZE FIGURE GOAL MET LOAD
function out(name, size, figure, goal, met, l) { printf "| %s | %s | %s | %s | %s | %s |\n", name, size, figure, goal, met, l }
function miss(name, size, goal, why) { out(name, size, "—", goal, why, "") }
# ratio: a ÷ b of one size, against goal (le: at most, ge: at least)
function ratio(name, s, a, b, unit, goal, op,   r) {
	if (!has(s, a) || !has(s, b)) { miss(name, s, op " " goal "×", (a == "cayley" || b == "cayley" || b == "oxload") && sideerr != "" ? "not measured: " sideerr : "not measured"); return }
	if (v[s, b] == 0) { miss(name, s, op " " goal "×", "not measured (zero)"); return }
	r = v[s, a] / v[s, b]
	out(name, s, fmt(r) "× (" fmt(v[s, a]) unit " ÷ " fmt(v[s, b]) unit ")", op " " goal "×", (op == "≤" ? r <= goal : r >= goal) ? "met" : "**not met**", ld[s, a] " / " ld[s, b])
}
function at(name, s, k, unit, scale, goal,   x) {
	if (!has(s, k)) { miss(name, s, "≤ " goal unit, "not measured"); return }
	x = v[s, k] * scale
	out(name, s, fmt(x) " " unit, "≤ " goal " " unit, x <= goal ? "met" : "**not met**", ld[s, k])
}
function grow(name, k, goal,   r) {
	if (n < 2 || !has(S, k) || !has(L, k)) { miss(name, L "÷" S, "≤ " goal "×", "needs two sizes"); return }
	r = v[L, k] / v[S, k]
	out(name, L " ÷ " S, fmt(r) "× (" fmt(v[L, k]) " s ÷ " fmt(v[S, k]) " s)", "≤ " goal "×", r <= goal ? "met" : "**not met**", ld[L, k] " / " ld[S, k])
}
END {
	n = split(sizes, sz, " "); S = sz[1]; L = sz[n]
	print "| goal (issue #27) | size | measured | goal | | load avg |"
	print "|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) ratio("`ingest` (files → durable bbolt) ÷ `cayley load` of the same N-Quads", sz[i], "ingest", "cayley", " s", 1.0, "≤")
	for (i = 1; i <= n; i++) ratio("cold `serve --corpus` until answers ÷ Oxigraph `store.load` of the same N-Quads", sz[i], "cold", "oxload", " s", 0.5, "≤")
	for (i = 1; i <= n; i++) {
		if (has(sz[i], "answers")) out("every side-by-side answer: Oxigraph query time ÷ skillgraph (the lowest row)", sz[i], v[sz[i], "answers"] "×", "≥ 100×", v[sz[i], "answers"] >= 100 ? "met" : "**not met**", ld[sz[i], "answers"])
		else miss("every side-by-side answer: Oxigraph query time ÷ skillgraph (the lowest row)", sz[i], "≥ 100×", sideerr != "" ? "not measured: " sideerr : "not measured")
	}
	grow("`ingest` growth (same run)", "ingest", (n < 2) ? 10 : L / S)
	at("`ingest` peak RSS", L, "ingest_mb", "MB", 1, 2048)
	for (i = 1; i <= n; i++) at("warm restart until ready (median of 3)", sz[i], "warm", "s", 1, 2)
	for (i = 1; i <= n; i++) at("warm restart RSS", sz[i], "warm_mb", "MB", 1, 2048)
	grow("`--watch` edit visible, median, growth (same run)", "watch", 1.5)
	for (i = 1; i <= n; i++) at("cached dashboard p99 at 32 clients", sz[i], "p99", "ms", 1000, 20)
	for (i = 1; i <= n; i++) ratio("first edit visible after a warm `serve --corpus --watch` start ÷ a steady-state edit (median)", sz[i], "firstedit", "steadyedit", " s", 2, "≤")
	for (i = 1; i <= n; i++) ratio("PostgreSQL `ingest` ÷ bbolt `ingest` (same run)", sz[i], "pg", "ingest", " s", 1.5, "≤")
	for (i = 1; i <= n; i++) at("PostgreSQL replica start until ready", sz[i], "replica", "s", 1, 2)
	for (i = 1; i <= n; i++) at("an ingest committed by the writer served by the replica", sz[i], "follow", "s", 1, 1)
}' "$FIGS"
