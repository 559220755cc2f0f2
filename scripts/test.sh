#!/usr/bin/env bash
# Runs every skillgraph test on a fresh machine: installs what the tests need
# (Debian packages when run as root), starts PostgreSQL on loopback, then
# runs gofmt, go vet, go test -race and, when ../shared exists, the
# acceptance kit. .ci/run calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }

# --- system packages -------------------------------------------------------
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v pre-commit >/dev/null 2>&1 || need+=(pre-commit)     # validate-config of docs/ci.md's snippet
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)   # verify of examples/skillgraph.service
if ((${#need[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "missing ${need[*]} and not root: the tests that need them will skip" >&2
  fi
fi
if command -v pre-commit >/dev/null 2>&1; then
  export SKILLGRAPH_REQUIRE_PRECOMMIT=1 # the pre-commit test must run, not skip
fi
if command -v chromium >/dev/null 2>&1; then
  export SKILLGRAPH_REQUIRE_BROWSER=1 # browser tests must run, not skip
  export SKILLGRAPH_CHROMIUM="$(command -v chromium)"
fi

# --- PostgreSQL on loopback, as an ordinary process -------------------------
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [[ -n "$PGBIN" && -x "$PGBIN/initdb" ]]; then
  PGTMP=$(mktemp -d /tmp/skillgraph-pg.XXXXXX)
  PGPORT=${SKILLGRAPH_PG_PORT:-54329}
  run_pg() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  [[ $(id -u) == 0 ]] && chown postgres "$PGTMP"
  log "starting PostgreSQL on 127.0.0.1:$PGPORT"
  run_pg "$PGBIN/initdb" -D "$PGTMP/data" -U postgres -A trust >/dev/null
  run_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGTMP -c fsync=off" start >/dev/null
  trap 'run_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$PGTMP"' EXIT
  export SKILLGRAPH_TEST_POSTGRES="postgres://postgres@127.0.0.1:$PGPORT/postgres?sslmode=disable"
  export SKILLGRAPH_REQUIRE_POSTGRES=1
fi

# --- independent clients (npm) ----------------------------------------------
# graphql-js, graphql-http, sarif-multitool, axe-core, the MCP TypeScript SDK, jsonld,
# yaml-language-server (editor validation of Tool YAML) and n3 (Turtle), pinned by
# scripts/conformance/package-lock.json; Go tests find them through
# SKILLGRAPH_NODE_MODULES and fail (not skip) when it is set but broken.
if command -v npm >/dev/null 2>&1; then
  log "npm ci (conformance clients)"
  (cd scripts/conformance && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  chmod u+x scripts/conformance/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool 2>/dev/null || true
  export SKILLGRAPH_NODE_MODULES="$PWD/scripts/conformance/node_modules"
  export SKILLGRAPH_REQUIRE_CONFORMANCE=1
  # The checked-in GraphiQL and pictures bundles must be what their lock
  # files build (esbuild is deterministic): rebuilt in a temporary directory.
  log "vendored web bundles"
  scripts/vendor-web.sh --check
else
  echo "npm missing: the conformance tests will skip" >&2
fi

# --- Go ---------------------------------------------------------------------
log "go mod download"
go mod download

log "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n "$bad" ]]; then echo "not gofmt'ed:"; echo "$bad"; exit 1; fi

log "go vet"
go vet ./...

log "go test -race"
go test -race -count=1 -timeout 30m ./...

if [[ -f ../shared/acceptance/check.py ]]; then
  log "acceptance kit"
  python3 ../shared/acceptance/check.py
fi
