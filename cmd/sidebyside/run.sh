#!/usr/bin/env bash
# Side by side on the same quads (issue #7): Cayley's own CLI, Oxigraph and
# skillgraph load one exported N-Quads file and answer coverage,
# reachability and alternatives. One command, from anywhere:
#
#   cmd/sidebyside/run.sh              # 1000 skills
#   SKILLS=10000 cmd/sidebyside/run.sh
#
# Needs Go, node >= 18 and npm. skillgraph and loadnq build with GOPROXY=off
# from the module cache. Cayley's CLI imports modules skillgraph does not
# (cobra, viper, every Cayley backend), so it is built in a throwaway copy of
# go.mod under $WORK with -mod=mod: that one step may fetch them from the Go
# proxy, and the repository's go.mod/go.sum stay untouched. The other network
# use is `npm ci` of the pinned oxigraph package from the npm registry. Work files
# go to $WORK (default /tmp/sidebyside-$SKILLS); the table is printed and also
# written to $WORK/table.md.
set -euo pipefail
SKILLS=${SKILLS:-1000}
SEED=${SEED:-1}
PORT=${PORT:-18417}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-/tmp/sidebyside-$SKILLS}
CLI_GOPROXY=${GOPROXY:-$(go env GOPROXY)}
export GOPROXY=off GOFLAGS=-mod=readonly
rm -rf "$WORK" && mkdir -p "$WORK"
# secs NAME CMD…: wall seconds of a command (its stdout → stderr); its peak
# RSS in MB goes to $WORK/rss.NAME
secs() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$WORK/.t" "$@" >&2 || { echo "failed: $*" >&2; return 1; }
  read -r t kb < "$WORK/.t"; echo $((kb / 1024)) > "$WORK/rss.$name"; echo "$t"
}

echo "== build (skillgraph, cayley $(cd "$ROOT" && go list -m -f '{{.Version}}' github.com/cayleygraph/cayley), loadnq)" >&2
(cd "$ROOT" && go build -o "$WORK/bin/sg" ./cmd/skillgraph \
  && go build -o "$WORK/bin/loadnq" ./cmd/sidebyside/loadnq \
  && mkdir -p "$WORK/cayley-mod" && cp go.mod go.sum "$WORK/cayley-mod/")
# The last line of a failed peer build says which (scripts/goals.sh shows it).
(cd "$WORK/cayley-mod" && GOPROXY=$CLI_GOPROXY GOFLAGS=-mod=mod go build -o "$WORK/bin/cayley" github.com/cayleygraph/cayley/cmd/cayley) \
  || { echo "the cayley CLI could not be built: its modules are not all in the module cache (GOPROXY=$CLI_GOPROXY)" >&2; exit 1; }
(cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error >&2) \
  || { echo "npm ci of the pinned oxigraph package failed (not in npm's cache, registry unreachable?)" >&2; exit 1; }

echo "== corpus: $SKILLS skills, seed $SEED; export N-Quads once" >&2
"$WORK/bin/sg" gen --skills "$SKILLS" --seed "$SEED" "$WORK/corpus" >/dev/null
"$WORK/bin/sg" export --corpus "$WORK/corpus" --format nquads > "$WORK/quads.nq"
QUADS=$(wc -l < "$WORK/quads.nq"); BYTES=$(stat -c %s "$WORK/quads.nq")

echo "== (1) cayley load → bolt" >&2
T_CAYLEY=$(secs cayley "$WORK/bin/cayley" load --db bolt --dbpath "$WORK/cayley.db" --init -i "$WORK/quads.nq" --logtostderr=false 2>>"$WORK/cayley.log")
CAYLEY_QUADS=$("$WORK/bin/cayley" dump --db bolt --dbpath "$WORK/cayley.db" -o - 2>>"$WORK/cayley.log" | wc -l)

echo "== (3) skillgraph: loadnq (same N-Quads → bbolt), ingest (corpus files → bbolt), snapshot" >&2
T_LOADNQ=$(secs loadnq "$WORK/bin/loadnq" -store "bbolt:$WORK/sg-nq/g.db" "$WORK/quads.nq")
T_INGEST=$(secs ingest "$WORK/bin/sg" ingest --corpus "$WORK/corpus" --store "bbolt:$WORK/sg/g.db")
# the fixed cost of any CLI answer: build the analysis snapshot from bbolt
T_SNAP=$(secs snapshot "$WORK/bin/sg" query --store "bbolt:$WORK/sg/g.db" '{ graphVersion }')
"$WORK/bin/sg" query --store "bbolt:$WORK/sg/g.db" '{ reachability { roots } }' > "$WORK/roots.json"
# the store loaded from the N-Quads must answer exactly like the ingested one
Q='{ coverage { covered { id } contradicted { id } } reachability { roots unreachableTools { id } unreachableProcesses } alternatives { groups { skill { id } tools { id } } } }'
"$WORK/bin/sg" query --store "bbolt:$WORK/sg/g.db" "$Q" > "$WORK/answers-ingest.json"
"$WORK/bin/sg" query --store "bbolt:$WORK/sg-nq/g.db" "$Q" > "$WORK/answers-loadnq.json"
if cmp -s "$WORK/answers-ingest.json" "$WORK/answers-loadnq.json"; then SAME_NQ=yes; else SAME_NQ=NO; fi

echo "== (2) oxigraph (in memory, SPARQL)" >&2
T_OX=$(secs oxigraph node "$HERE/oxigraph.mjs" "$WORK/quads.nq" "$WORK/roots.json" "$WORK/oxigraph.json")

cat > "$WORK/times.json" <<JSON
{"skills": $SKILLS, "quads": $QUADS, "nqBytes": $BYTES, "cayleyLoad": $T_CAYLEY, "cayleyQuads": $CAYLEY_QUADS,
 "sgLoadNq": $T_LOADNQ, "sgIngest": $T_INGEST, "sgSnapshot": $T_SNAP, "oxigraphAll": $T_OX,
 "rssMB": {"cayleyLoad": $(cat "$WORK/rss.cayley"), "sgLoadNq": $(cat "$WORK/rss.loadnq"), "sgIngest": $(cat "$WORK/rss.ingest"),
           "sgSnapshot": $(cat "$WORK/rss.snapshot"), "oxigraph": $(cat "$WORK/rss.oxigraph")}}
JSON

echo "== skillgraph answers over GraphQL (read-only server on 127.0.0.1:$PORT) and the table" >&2
"$WORK/bin/sg" serve --read-only --store "bbolt:$WORK/sg/g.db" --addr "127.0.0.1:$PORT" > "$WORK/serve.log" 2>&1 &
SERVE=$!
trap 'kill $SERVE 2>/dev/null || true' EXIT
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.5; done
# A read-only server is ready before it has walked its store (it verifies
# it in the background, ≈ 1 s of both cores at 10k): the answers are timed
# after the walk, as Oxigraph's are after its load.
for _ in $(seq 600); do grep -q "store verified" "$WORK/serve.log" && break; sleep 0.1; done
node "$HERE/compare.mjs" "http://127.0.0.1:$PORT/graphql" "$WORK/times.json" "$WORK/oxigraph.json" "$WORK/answers.json" > "$WORK/compare.md"
{
  cat "$WORK/compare.md"
  echo "skillgraph answers from the loadnq store equal those from ingest: $SAME_NQ"
  echo "peak RSS (MB): cayley load $(cat "$WORK/rss.cayley"), loadnq $(cat "$WORK/rss.loadnq"), ingest $(cat "$WORK/rss.ingest"), query (snapshot) $(cat "$WORK/rss.snapshot"), oxigraph (node, load + all queries) $(cat "$WORK/rss.oxigraph"), serve --read-only after the answers $(awk '/VmHWM/ {print int($2/1024)}' "/proc/$SERVE/status")"
  echo "load average: $(uptime)"
} | tee "$WORK/table.md"
